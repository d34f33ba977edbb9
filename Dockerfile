# apicheck in a container: `docker build -t apicheck .`, then
#   docker run --rm -p 8080:8080 -v "$PWD/stubs:/stubs:ro" apicheck serve /stubs --host 0.0.0.0 --port 8080
#   docker run --rm --user "$(id -u)" -v "$PWD:/work" apicheck crawl https://api.example.com/ --format junit=report.xml
# (README, "Install"). The build stage compiles the release binary with the Swift runtime linked
# statically (scripts/release); the runtime stage is Debian slim with only the libraries that
# binary loads (`ldd`: libxml2 and its ICU/lzma/zlib, the C++ runtime, glibc) and CA certificates
# for HTTPS APIs. Checked with hadolint in CI (.ci/run).

FROM swift:6.3-bookworm AS build
# Build dependencies as scripts/setup installs them.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libxml2-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN scripts/release --output /dist --no-archive

FROM debian:bookworm-slim
# The packages the static binary needs (scripts/release prints them); versions are Debian 12's.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libxml2 libstdc++6 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /work apicheck \
    && mkdir -p /work && chown apicheck /work
COPY --from=build /dist/apicheck /usr/local/bin/apicheck
USER 10001
WORKDIR /work
EXPOSE 8080
ENTRYPOINT ["apicheck"]
CMD ["--help"]
