# Dockerfile: cairn in a small Debian image, for the Kubernetes recipe
# (docs/cluster/cairn-sim-job.yaml) or any container runtime:
#   docker build -t cairn:0.1.0 .
#   docker run --rm cairn:0.1.0 cairn sim yak --games 100
# The build stage compiles with the Debian packages tools/install-deps names
# and runs make install (the shipped files only); the final stage holds the
# installed tree and the runtime libraries.
FROM debian:bookworm AS build
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      make gcc libc6-dev pkg-config libyaml-dev liblua5.4-dev libedit-dev libjson-c-dev libmicrohttpd-dev \
      libqrencode-dev libcmocka-dev git ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# make install copies the files git tracks (.git comes with the context)
RUN git config --global --add safe.directory /src && make -j"$(nproc)" && make install PREFIX=/usr/local DESTDIR=/out

FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libyaml-0-2 liblua5.4-0 libedit2 libjson-c5 libqrencode4 libmicrohttpd12 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/usr/local/ /usr/local/
WORKDIR /work
CMD ["cairn", "help"]
