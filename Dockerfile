# photofinish in a container: a multi-stage build.
#
#   build    compiles a release binary (dependencies first, so a code change reuses them)
#   runtime  Debian slim (trixie) with that binary, the time-zone database and CA
#            certificates, run as an unprivileged user
#
# Every setting has an environment form (PHOTOFINISH_DATABASE, DISCORD_TOKEN, ...), so no
# config file is needed; to use one, mount it and name it in PHOTOFINISH_CONFIG. The
# database is a SQLite file on the /data volume by default, or postgres://... for several
# processes. `photofinish run` migrates at start and is PID 1 (exec form), so SIGTERM from
# `docker stop` reaches it. HEALTHCHECK runs `photofinish health`. See docs/deploy.md.
# CI has no Docker engine: .ci/dockerfile runs this file's build steps as a plain script
# and checks the binary; the image build itself is not tested there.
#
# Pin both base images by digest when cutting a release (`docker pull`, then
# `FROM image@sha256:...`), so a rebuild gets the same bytes.

ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-slim-trixie AS build
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

FROM debian:trixie-slim AS runtime
# tzdata: the system's zone database, which the bot prefers when it is newer than the one
# compiled in. ca-certificates: the roots that verify a PostgreSQL server's certificate.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates tzdata && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin photofinish && mkdir -p /data && chown photofinish /data
COPY --from=build /src/target/release/photofinish /usr/local/bin/photofinish
USER photofinish
WORKDIR /data
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 CMD ["photofinish", "health"]
# The drain on SIGTERM is bounded (docs/deploy.md, Stopping); give `docker stop` longer.
STOPSIGNAL SIGTERM
CMD ["photofinish", "run"]
