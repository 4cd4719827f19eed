# Parley's container image: `docker build -t parley .` (or `podman build`). See docs/deployment.md.
# BASE: any Node ≥ 22 image laid out like the official one (node and npm in /usr/local/bin). CI passes a
# stand-in built from Debian's packages (../shared/tools/node-base-image.sh), as it reaches no registry.
ARG BASE=node:24-bookworm-slim

# Production dependencies only: the server runs from a bundle esbuild makes (tsx should it not be made),
# and the dashboard's build needs only esbuild and preact, all production dependencies. No install scripts: better-sqlite3 13 ships
# prebuilt N-API binaries, and the optional `better-sqlite3-node20` (Node 20's driver, compiled from
# source) is never loaded on Node ≥ 22, so it is dropped rather than compiled.
FROM ${BASE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
  && rm -rf node_modules/better-sqlite3-node20 \
  && npm cache clean --force

# The dashboard, built once here (web/dist), so the server never builds it at start. It shares some
# rules with the server (src/templates), hence src.
FROM deps AS web
COPY scripts/build-web.ts scripts/
COPY src src
COPY web web
RUN node --import tsx scripts/build-web.ts

FROM ${BASE}
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=8443
WORKDIR /app
# The official image has user `node` (uid 1000); a stand-in base may not.
RUN id -u node >/dev/null 2>&1 || useradd --uid 1000 --user-group --create-home --shell /bin/sh node; \
  mkdir -p /data && chown node:node /data
COPY --from=deps /app/node_modules node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY packages packages
COPY bin bin
COPY assets assets
COPY src src
COPY deploy/container/healthcheck.mjs deploy/container/
COPY --from=web /app/web/dist web/dist
# `parley` on PATH for `docker exec CONTAINER parley …`. The code stays root's (read-only to the server);
# the bundle the server and the CLI run from (bin/bundle.js) is built now, as the server's user could not
# write it into /app.
RUN ln -s /app/bin/parley.js /usr/local/bin/parley && parley help >/dev/null && test -f .build/bundle-*/server.js

USER node
VOLUME /data
EXPOSE 8443
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "deploy/container/healthcheck.mjs"]
# SIGTERM: the server stops accepting connections, finishes in-flight requests and work, and exits 0.
STOPSIGNAL SIGTERM
# node itself is PID 1 (not npm), so the stop signal reaches the server. The bundle loads in a second
# where tsx's loader took seconds, during which a slow machine's server was deaf to that signal.
CMD ["node", "bin/server.js"]
