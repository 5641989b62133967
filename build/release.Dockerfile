# The release image (goreleaser's dockers, .goreleaser.yaml): the static rdbgen binary alone,
# on distroless (CA certificates for rediss://, a non-root user, no shell). BASE is for the
# test, which builds it FROM scratch where no registry is reachable.
ARG BASE=gcr.io/distroless/static-debian12:nonroot
FROM ${BASE}
COPY rdbgen /usr/local/bin/rdbgen
ENTRYPOINT ["/usr/local/bin/rdbgen"]
