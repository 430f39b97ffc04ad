#!/usr/bin/env bash
# Builds the Docker image (Node 24) and probes it for real with podman (container-smoke): the
# bundled corpus; a corpus mounted at /corpus with an empty /data volume (indexed at start); a
# restart on the same volume (the index is reused, not rebuilt). Each probe is the real MCP SDK
# clients in both protocol eras: a 2025-11-25 session (v1) and 2026-07-28 (v2, pinned).
set -euo pipefail
cd "$(dirname "$0")/.."
# shared/ sits beside the checkout (CI clones it there too).
SMOKE=${CONTAINER_SMOKE:-../shared/tools/container-smoke}
# container-smoke copies the npm of `npm root -g` into the base image. When scripts/use-node.sh put
# a registry-fetched Node first on PATH, that root would be under it (where no npm lives): point
# npm's prefix at the npm actually installed.
npm_cli=$(readlink -f "$(command -v npm)")
case $npm_cli in */lib/node_modules/npm/bin/npm-cli.js) export npm_config_prefix=${npm_cli%/lib/node_modules/npm/bin/npm-cli.js} ;; esac
started=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
probe=(npx --no-install tsx test/container/probe.ts)

echo "== bundled corpus" >&2
"$SMOKE" . 8080 "${probe[@]}" --search 'rate limits' --expect svc-platform/limits.md --knowledge-bases svc-docs,svc-platform

mkdir -p "$work/corpus/handbook" "$work/data"
cat > "$work/corpus/handbook/deploy-runbook.md" <<'EOF'
# Deploy runbook

## Flamingo rollback

When a release misbehaves, run the flamingo rollback: redeploy the previous tag and page the on-call.
EOF
chmod -R a+rX "$work/corpus"
# The container runs as uid 1000 (node): it must be able to write the index into the volume.
chmod 0777 "$work/data"
export RUN_ARGS="-v $work/corpus:/corpus:ro -v $work/data:/data"

echo "== mounted corpus, empty /data volume" >&2
"$SMOKE" . 8080 "${probe[@]}" --search 'flamingo rollback' --expect handbook/deploy-runbook.md --knowledge-bases handbook --built-at-file "$work/built-at"

echo "== restart on the same /data volume" >&2
"$SMOKE" . 8080 "${probe[@]}" --search 'flamingo rollback' --expect handbook/deploy-runbook.md --knowledge-bases handbook --built-at-file "$work/built-at"

echo "container test passed in $(($(date +%s) - started)) s" >&2
