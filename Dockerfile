# photofinish in a container: a multi-stage build.
#
#   build    compiles a release binary (dependencies first, so a code change reuses them)
#   runtime  Debian slim with that binary only, run as an unprivileged user
#
# The database URL comes from the config file (`database = ...`) or PHOTOFINISH_DATABASE:
# a SQLite file on the /data volume by default, or postgres://... for several processes.
# Migrations run at start (`photofinish migrate`, then `photofinish run`); HEALTHCHECK runs
# `photofinish health`. See docs/deploy.md. CI has no Docker engine: .ci/dockerfile runs
# this file's build steps as a plain script and checks the binary; the image build itself
# is not tested there.

ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-slim-bookworm AS build
WORKDIR /src
# Dependencies, built against placeholder sources so this layer outlives code changes.
# Every [[bench]] in Cargo.toml needs a placeholder too, or the manifest does not parse.
COPY Cargo.toml Cargo.lock ./
RUN mkdir -p src benches && echo 'fn main() {}' > src/main.rs && touch src/lib.rs && for b in $(sed -n '/^\[\[bench\]\]/,/^name/s/^name = "\(.*\)"/\1/p' Cargo.toml); do echo 'fn main() {}' > "benches/$b.rs"; done
RUN cargo build --release --locked --bin photofinish && rm -rf src benches
# The real sources; touch so cargo rebuilds the crate over the placeholders.
COPY . .
RUN touch src/main.rs src/lib.rs && cargo build --release --locked --bin photofinish
RUN strip target/release/photofinish

FROM debian:bookworm-slim AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin photofinish && mkdir -p /data /config && chown photofinish /data
COPY --from=build /src/target/release/photofinish /usr/local/bin/photofinish
USER photofinish
WORKDIR /data
VOLUME ["/data"]
ENV PHOTOFINISH_CONFIG=/config/config.toml
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 CMD ["photofinish", "health", "--config", "/config/config.toml"]
CMD ["sh", "-c", "photofinish migrate --config \"$PHOTOFINISH_CONFIG\" && exec photofinish run --config \"$PHOTOFINISH_CONFIG\""]
