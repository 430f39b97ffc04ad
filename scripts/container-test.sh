#!/usr/bin/env bash
# Builds the Docker image (Node 24) and probes it for real with podman (container-smoke): the
# bundled corpus; a corpus mounted at /corpus with an empty /data volume (indexed at start); a
# restart on the same volume (the index is reused, not rebuilt). Each probe is the real MCP SDK
# clients in both protocol eras: a 2025-11-25 session (v1) and 2026-07-28 (v2, pinned). After the
# first, the image is also checked for `import '@svc-docs/platform'` (the platform SDK it ships).
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
# One image for every probe: container-smoke keeps it (a rebuild comes from its layer cache) and
# this script removes it at exit. Podman runs here with container-smoke's private configuration
# (under its work dir W), so that it sees the same image store.
export W=${W:-/tmp/container-smoke}
export IMAGE=localhost/svc-docs-container-test-$$:latest KEEP_IMAGE=1
in_podman() { CONTAINERS_CONF="$W/cfg/containers.conf" CONTAINERS_STORAGE_CONF="$W/cfg/storage.conf" podman "$@"; }
trap 'rm -rf "$work"; in_podman rmi -f "$IMAGE" >/dev/null 2>&1 || true' EXIT
probe=(npx --no-install tsx test/container/probe.ts)

echo "== bundled corpus" >&2
"$SMOKE" . 8080 "${probe[@]}" --search 'rate limits' --expect svc-platform/limits.md --knowledge-bases svc-docs,svc-platform

echo "== import '@svc-docs/platform' in the image" >&2
# As an app in /app would: the package resolves, has its main exports (the list test/package/
# exports.test.ts checks in the repository), and its SQLite store opens, which loads the native
# addon the image builds. Any failure exits non-zero with one line saying what.
platform_probe="import('@svc-docs/platform')
  .then((m) => {
    const main = ['buildInstallUrl', 'TokenManager', 'verifyWebhook', 'createWebhookHandler',
      'reportTriggerEvent', 'openSqliteWebhookStore', 'startFakePlatform'];
    const missing = main.filter((name) => typeof m[name] !== 'function');
    if (missing.length > 0) throw new Error('it lacks ' + missing.join(', '));
    m.openSqliteWebhookStore(':memory:').close();
    console.log('@svc-docs/platform imports: ' + Object.keys(m).length + ' exports; its SQLite store opens');
  })
  .catch((error) => {
    console.error('FAIL: @svc-docs/platform in the image: ' + error.message);
    process.exit(1);
  });"
in_podman run --rm --pull=never --entrypoint node "$IMAGE" --input-type=module -e "$platform_probe"

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
