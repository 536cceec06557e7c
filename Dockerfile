# syntax=docker/dockerfile:1
# One image for every module of Eligo: `eligo start --target <module>` (docs/operations.md, "Container image").
# The tree is built once, dev dependencies are pruned, and the runtime stage holds the built tree only.
# test/e2e/image-entrypoint.test.ts runs the command and environment set here against the built tree.

# Node 24 (LTS). Pin a digest in your release pipeline: NODE_IMAGE=node:24-bookworm-slim@sha256:...
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY . .
# npm ci runs only the install scripts package.json's allowScripts approves (embedded Postgres, buf, swc).
RUN npm ci --no-audit --no-fund \
 && npx turbo run build --output-logs=errors-only \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf test .turbo node_modules/.cache \
 && find . -name '*.tsbuildinfo' -delete

FROM ${NODE_IMAGE} AS runtime
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Eligo" \
      org.opencontainers.image.description="Identity eligibility verification: REST v2 gateway and gRPC services, one image for every module" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"
# The only places the process writes: the data dir (a volume: embedded defaults, spooled uploads) and TMPDIR
# (an emptyDir); the root filesystem can be mounted read-only.
ENV NODE_ENV=production \
    ELIGO_DATA_DIR=/var/lib/eligo \
    TMPDIR=/tmp \
    ELIGO_BIND_HOST=0.0.0.0 \
    ELIGO_HTTP_PORT=8080 \
    ELIGO_GRPC_PORT=9090 \
    ELIGO_LOG_LEVEL=info \
    ELIGO_GIT_COMMIT=${REVISION}
WORKDIR /app
# Owned by root and not writable by the process: the code cannot be changed at run time.
COPY --from=build /app /app
RUN mkdir -p /var/lib/eligo && chown 1000:1000 /var/lib/eligo
VOLUME ["/var/lib/eligo"]
# The official image's unprivileged user `node`, by number: Kubernetes (runAsNonRoot) can only check a uid.
USER 1000:1000
EXPOSE 8080 9090
# Node is PID 1 and handles SIGTERM itself: the drain window (ELIGO_SHUTDOWN_DELAY_MS), then a graceful stop.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "packages/cli/dist/src/main.js"]
CMD ["start", "--target", "all"]
