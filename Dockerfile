# syntax=docker/dockerfile:1
#
# cordon mcp --http in a container: a static binary on distroless, run by a
# user that is not root, serving streamable HTTP at :8080/mcp.
#
#   docker build -t cordon .                                    # this checkout
#   docker build --build-arg CORDON_VERSION=v0.1.0 -t cordon .   # a release, from the module proxy
#
#   docker run -p 127.0.0.1:8080:8080 -e CORDON_MCP_TOKEN cordon
#   docker run -p 8080:8080 -v cordon-cache:/cache \
#     -v "$PWD/token:/run/secrets/cordon-token:ro" -v "$PWD/cordon:/etc/cordon:ro" \
#     cordon --token-file /run/secrets/cordon-token --config /etc/cordon/cordon.yaml
#
# Arguments after the image name follow the ENTRYPOINT's. Without a token
# ($CORDON_MCP_TOKEN or --token-file), cordon generates one and prints it
# once on stderr (docker logs). Without --config it serves the built-in
# demo config (mock tools). Inside the container it listens on 0.0.0.0,
# which cordon refuses without --allow-remote, and it warns that it serves
# without TLS: publish the port on loopback behind a TLS proxy, or mount a
# certificate and add --tls-cert and --tls-key. The first start compiles
# the sandbox into /cache (about 9 s and 0.6 GB of memory on two cores); a
# volume there keeps it for the next start. CONTRIBUTING.md, "The container
# image", says more; cmd/cordon's TestDockerfile holds this file to the CLI.

FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Empty: build this checkout. A version (v0.1.0, or a pseudo-version): go
# install it from the module proxy, which stamps it for `cordon version`
# (a checkout without .git, as this build context is, says "devel").
ARG CORDON_VERSION=
RUN if [ -n "$CORDON_VERSION" ]; then \
      CGO_ENABLED=0 GOBIN=/out go install -trimpath -ldflags="-s -w" "github.com/cordonhq/cordon/cmd/cordon@$CORDON_VERSION"; \
    else \
      CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/cordon ./cmd/cordon; \
    fi && \
    mkdir /out/cache

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/cordon /cordon
# The compilation cache, owned by the user that runs cordon (65532,
# "nonroot" in distroless); a volume mounted here starts with that owner.
COPY --from=build --chown=65532:65532 /out/cache /cache
ENV CORDON_CACHE_DIR=/cache
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/cordon", "mcp", "--http", "0.0.0.0:8080", "--allow-remote"]
