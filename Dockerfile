# The tenderbase image: one static binary on distroless, as a non-root user,
# its SQLite store in the volume /data. docs/deploy.md says how to run it;
# .ci/container-check lints this file and builds the binary as it does.
#
#   docker build -t tenderbase \
#     --build-arg VERSION="$(git describe --tags --always --dirty)" \
#     --build-arg COMMIT="$(git rev-parse HEAD)" \
#     --build-arg BUILD_TIME="$(date -u +%Y-%m-%dT%H:%M:%SZ)" .

# The Go of go.mod's go line, exactly (.ci/container-check compares them).
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOFLAGS=-mod=readonly

# The modules first, so that a change of the code alone reuses their layer.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod \
    go mod download

COPY . .
ARG VERSION=""
ARG COMMIT=""
ARG BUILD_TIME=""
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath \
      -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT} -X main.buildTime=${BUILD_TIME}" \
      -o /out/tenderbase ./cmd/tenderbase \
 && mkdir /out/data

# distroless/static has the CA certificates that sync needs for the
# publishers' HTTPS, tzdata, /tmp (sync's spool, serve --demo's files) and
# the user nonroot, 65532, given by number so that runAsNonRoot can check it.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tenderbase /tenderbase
# The lemma table's license asks binaries to carry its notice.
COPY NOTICE /usr/share/doc/tenderbase/NOTICE
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
VOLUME /data
ENV TENDERBASE_DB=/data/tenderbase.db \
    TENDERBASE_ADDR=0.0.0.0:8080
EXPOSE 8080
# The image has no shell or curl, so the binary probes its own GET /health
# (liveness). Orchestrators that ignore HEALTHCHECK (Kubernetes) probe GET
# /health and GET /ready (readiness) themselves.
HEALTHCHECK --interval=10s --timeout=6s --start-period=30s --retries=3 \
    CMD ["/tenderbase", "probe"]
# A stop takes up to --shutdown-timeout (10s) + 7s: give docker stop
# --time 30 (compose.yaml sets stop_grace_period).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/tenderbase"]
CMD ["serve"]
