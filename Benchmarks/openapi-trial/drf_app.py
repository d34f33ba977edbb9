"""A small Django REST framework library service for Benchmarks/openapi-trial.sh (127.0.0.1 only).

Written as DRF services are: a DefaultRouter root naming the collections, hyperlinked `url`
fields, serializers for every answer; its document is DRF's own `generateschema` (OpenAPI 3.0).
Three defects are planted:

  D1 undocumented status: GET /books/{id}/ answers 203 for a book whose record is a draft (4),
     which DRF's document (200 only) does not list.
  D2 body against its schema: book 2's `pages` is a string, written past its serializer.
  D3 undocumented link: every author links /authors/{id}/stats/, a view left out of the document
     (`schema = None`).

  python drf_app.py schema FILE      writes the document (generateschema)
  python drf_app.py serve PORT       serves on 127.0.0.1:PORT (each request appended to $TRIAL_LOG)
"""
import os
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="trial-only",
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    MIDDLEWARE=[__name__ + ".journal"],
    DATABASES={},
    REST_FRAMEWORK={
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
        "DEFAULT_AUTHENTICATION_CLASSES": [],
        "DEFAULT_PERMISSION_CLASSES": [],
        "UNAUTHENTICATED_USER": None,
    },
)
django.setup()

from django.urls import path  # noqa: E402
from rest_framework import serializers, status, viewsets  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.reverse import reverse  # noqa: E402
from rest_framework.routers import DefaultRouter  # noqa: E402
from rest_framework.views import APIView  # noqa: E402


def journal(get_response):
    log = os.environ.get("TRIAL_LOG")

    def middleware(request):
        response = get_response(request)
        if log:
            with open(log, "a") as file:
                file.write(f"{request.method} {request.path} {response.status_code}\n")
        return response

    return middleware


AUTHORS = {1: {"name": "Ines Varga"}, 2: {"name": "Tomas Reyes"}}
BOOKS = {
    1: {"title": "Rivers", "pages": 320, "author": 1, "draft": False},
    2: {"title": "Stones", "pages": 210, "author": 2, "draft": False},
    3: {"title": "Winds", "pages": 180, "author": 1, "draft": False},
    4: {"title": "Tides", "pages": 95, "author": 2, "draft": True},
}


class AuthorSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    url = serializers.URLField(read_only=True)
    name = serializers.CharField(max_length=100)
    books = serializers.ListField(child=serializers.URLField(), read_only=True)
    stats = serializers.URLField(read_only=True)


class BookSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    url = serializers.URLField(read_only=True)
    title = serializers.CharField(max_length=200)
    pages = serializers.IntegerField(min_value=1)
    author = serializers.URLField(read_only=True)


def author_data(request, aid):
    return {
        "id": aid,
        "url": reverse("author-detail", args=[aid], request=request),
        "name": AUTHORS[aid]["name"],
        "books": [reverse("book-detail", args=[bid], request=request) for bid, b in BOOKS.items() if b["author"] == aid],
        # D3: the stats view is not in the document.
        "stats": reverse("author-stats", args=[aid], request=request),
    }


def book_data(request, bid):
    book = BOOKS[bid]
    return {
        "id": bid,
        "url": reverse("book-detail", args=[bid], request=request),
        "title": book["title"],
        "pages": book["pages"],
        "author": reverse("author-detail", args=[book["author"]], request=request),
    }


class AuthorViewSet(viewsets.GenericViewSet):
    serializer_class = AuthorSerializer

    def list(self, request):
        return Response([author_data(request, aid) for aid in AUTHORS])

    def retrieve(self, request, pk=None):
        aid = int(pk)
        if aid not in AUTHORS:
            return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
        return Response(author_data(request, aid))


class BookViewSet(viewsets.GenericViewSet):
    serializer_class = BookSerializer

    def list(self, request):
        return Response([book_data(request, bid) for bid in BOOKS])

    def retrieve(self, request, pk=None):
        bid = int(pk)
        if bid not in BOOKS:
            return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
        data = book_data(request, bid)
        if bid == 2:
            # D2: written past the serializer.
            data["pages"] = "210"
        if BOOKS[bid]["draft"]:
            # D1: 203 is not in the document.
            return Response(data, status=203)
        return Response(data)


class AuthorStats(APIView):
    schema = None

    def get(self, request, pk):
        aid = int(pk)
        return Response({"books": sum(1 for b in BOOKS.values() if b["author"] == aid)})


router = DefaultRouter()
router.register("authors", AuthorViewSet, basename="author")
router.register("books", BookViewSet, basename="book")
urlpatterns = router.urls + [path("authors/<int:pk>/stats/", AuthorStats.as_view(), name="author-stats")]


if __name__ == "__main__":
    from django.core.management import call_command

    if sys.argv[1] == "schema":
        call_command("generateschema", format="openapi-json", file=sys.argv[2], title="Trial library")
    elif sys.argv[1] == "serve":
        call_command("runserver", f"127.0.0.1:{sys.argv[2]}", use_reloader=False, use_threading=True, verbosity=0)
