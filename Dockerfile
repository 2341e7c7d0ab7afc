# syntax=docker/dockerfile:1
#
# The gateway's container image: one self-contained binary on a small glibc base, as a non-root
# user, data in the volume /data.
#
#   docker build -t model-gateway .
#   docker run -p 8080:8080 -v gateway-data:/data model-gateway
#
# Release images for several architectures are built from the release binaries instead of
# compiling under emulation (README, "Container image"):
#
#   bun run build --release
#   docker buildx build --platform linux/amd64,linux/arm64 --build-arg BINARY=release \
#     --build-context release-binaries=dist/release -t <registry>/model-gateway:<version> --push .

# source: compile from this directory; release: take the binary of the target's architecture
# from the build context `release-binaries` (dist/release, made by `bun run build --release`)
ARG BINARY=source

FROM oven/bun:1.4 AS source
WORKDIR /src
# dependencies first: this layer is rebuilt only when they change
COPY package.json bun.lock bunfig.toml ./
COPY patches ./patches
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build && mkdir -p /out/data && cp dist/gateway /out/gateway

# runs on the build machine's own platform: it only copies a file
FROM --platform=$BUILDPLATFORM oven/bun:1.4 AS release
ARG TARGETARCH
# linux-x64 needs AVX2; x64-baseline runs on older (and some virtual) x64 CPUs
ARG X64_VARIANT=x64
COPY --from=release-binaries . /release/
RUN case "$TARGETARCH" in \
      amd64) suffix="linux-$X64_VARIANT" ;; \
      arm64) suffix="linux-arm64" ;; \
      *) echo "no release binary for $TARGETARCH" >&2; exit 1 ;; \
    esac \
    && mkdir -p /out/data \
    && cp /release/gateway-*-"$suffix" /out/gateway \
    && chmod 0755 /out/gateway

FROM ${BINARY} AS binary

# glibc, libgcc and libstdc++, no shell; user nonroot is 65532
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=binary /out/gateway /gateway
# owned by the user the gateway runs as: a new named volume takes this directory's owner
COPY --from=binary --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
ENV HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=file:/data/gateway.db \
    BUN_CONFIG_MAX_HTTP_REQUESTS=65535
VOLUME /data
EXPOSE 8080
# SIGTERM drains (GATEWAY_SHUTDOWN_GRACE_SECONDS, default 30): stop with `docker stop -t 45`
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["/gateway", "healthcheck"]
ENTRYPOINT ["/gateway"]
CMD ["serve"]
