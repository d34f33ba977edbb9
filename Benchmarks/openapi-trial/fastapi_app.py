"""A small FastAPI movie service for Benchmarks/openapi-trial.sh (127.0.0.1 only).

Plain JSON, as FastAPI services are written: resources carry `url` fields, the root names the
collections. Its document is FastAPI's own `/openapi.json`. Three defects are planted, as real
services grow them:

  D1 undocumented status: GET /movies/{movie_id}/cast answers 204 for a movie without a cast
     (5); the route documents only 200, 404 and FastAPI's 422.
  D2 body against its schema: movie 2's `year` is a string, returned through JSONResponse,
     which skips `response_model` validation.
  D3 undocumented link: the root links /internal/stats, a route left out of the document
     (`include_in_schema=False`).

Every request is appended to $TRIAL_LOG ("METHOD PATH STATUS"), so the runner counts what each
tool sent.
"""
import os

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

app = FastAPI(title="Trial movies", version="1.0.0")
LOG = os.environ.get("TRIAL_LOG")


@app.middleware("http")
async def journal(request: Request, call_next):
    response = await call_next(request)
    if LOG:
        with open(LOG, "a") as log:
            log.write(f"{request.method} {request.url.path} {response.status_code}\n")
    return response


class PersonSummary(BaseModel):
    id: int
    name: str
    url: str


class Person(BaseModel):
    id: int
    name: str
    born: int = Field(ge=1800, le=2100)
    url: str
    movies_url: str


class MovieSummary(BaseModel):
    id: int
    title: str
    url: str


class Movie(BaseModel):
    id: int
    title: str
    year: int = Field(ge=1888)
    rating: float = Field(ge=0, le=10)
    director: PersonSummary
    cast_url: str
    url: str


class MovieList(BaseModel):
    items: list[MovieSummary]
    count: int


class PersonList(BaseModel):
    items: list[PersonSummary]
    count: int


class Root(BaseModel):
    movies_url: str
    people_url: str
    stats_url: str | None = None


class Problem(BaseModel):
    detail: str


PEOPLE = {
    1: {"name": "Ava Lin", "born": 1971},
    2: {"name": "Bo Kade", "born": 1980},
    3: {"name": "Cy Moro", "born": 1965},
}
MOVIES = {
    1: {"title": "First Light", "year": 2001, "rating": 7.5, "director": 1, "cast": [2, 3]},
    2: {"title": "Second Wind", "year": 1999, "rating": 6.0, "director": 2, "cast": [1]},
    3: {"title": "Third Act", "year": 2012, "rating": 8.1, "director": 3, "cast": [1, 2]},
    4: {"title": "Fourth Wall", "year": 2020, "rating": 5.5, "director": 1, "cast": [3]},
    5: {"title": "Fifth Gear", "year": 2005, "rating": 4.0, "director": 2, "cast": []},
}

def base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def person_summary(request: Request, pid: int) -> dict:
    return {"id": pid, "name": PEOPLE[pid]["name"], "url": f"{base(request)}/people/{pid}"}


@app.get("/", response_model=Root)
def root(request: Request):
    # D3: /internal/stats is not in the document.
    return {
        "movies_url": f"{base(request)}/movies",
        "people_url": f"{base(request)}/people",
        "stats_url": f"{base(request)}/internal/stats",
    }


@app.get("/movies", response_model=MovieList)
def list_movies(request: Request):
    items = [{"id": mid, "title": m["title"], "url": f"{base(request)}/movies/{mid}"} for mid, m in MOVIES.items()]
    return {"items": items, "count": len(items)}


@app.get("/movies/{movie_id}", response_model=Movie, responses={404: {"model": Problem}})
def get_movie(movie_id: int, request: Request):
    if movie_id not in MOVIES:
        raise HTTPException(status_code=404, detail="no such movie")
    movie = MOVIES[movie_id]
    body = {
        "id": movie_id,
        "title": movie["title"],
        "year": movie["year"],
        "rating": movie["rating"],
        "director": person_summary(request, movie["director"]),
        "cast_url": f"{base(request)}/movies/{movie_id}/cast",
        "url": f"{base(request)}/movies/{movie_id}",
    }
    if movie_id == 2:
        # D2: written by hand past the response model.
        body["year"] = "1999"
        return JSONResponse(body)
    return body


@app.get("/movies/{movie_id}/cast", response_model=PersonList, responses={404: {"model": Problem}})
def get_cast(movie_id: int, request: Request):
    if movie_id not in MOVIES:
        raise HTTPException(status_code=404, detail="no such movie")
    if not MOVIES[movie_id]["cast"]:
        # D1: 204 is not documented for this operation.
        return Response(status_code=204)
    items = [person_summary(request, pid) for pid in MOVIES[movie_id]["cast"]]
    return {"items": items, "count": len(items)}


@app.get("/people", response_model=PersonList)
def list_people(request: Request):
    items = [person_summary(request, pid) for pid in PEOPLE]
    return {"items": items, "count": len(items)}


@app.get("/people/{person_id}", response_model=Person, responses={404: {"model": Problem}})
def get_person(person_id: int, request: Request):
    if person_id not in PEOPLE:
        raise HTTPException(status_code=404, detail="no such person")
    person = PEOPLE[person_id]
    return {
        "id": person_id,
        "name": person["name"],
        "born": person["born"],
        "url": f"{base(request)}/people/{person_id}",
        "movies_url": f"{base(request)}/movies",
    }


@app.get("/internal/stats", include_in_schema=False)
def stats():
    return {"movies": len(MOVIES), "people": len(PEOPLE)}
