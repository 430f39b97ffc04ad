#!/usr/bin/env bash
# Builds the Docker image (Node 24) and probes it for real with podman (container-smoke, and podman
# directly with container-smoke's store):
#   1. the bundled docs;
#   2. docs mounted at /corpus/handbook with an empty /data folder (indexed at start: a knowledge
#      base named handbook), then 3. a restart on the same folder (the index is reused, not rebuilt);
#   4. /data owned by another uid: the one-line message and exit 1; then --user that uid: served;
#   5. every block of docs/docker.md marked `container-test`, run as written (see that page's last
#      section): after each `docker run`, the banner's URL has an accepted host, the health check
#      reports healthy, and the docs are searched;
#   6. the platform target: `import '@svc-docs/platform'`.
# Each probe is the real MCP SDK clients in both protocol eras: a 2025-11-25 session (v1) and
# 2026-07-28 (v2, pinned).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# shared/ sits beside the checkout (CI clones it there too).
SMOKE=${CONTAINER_SMOKE:-$repo/../shared/tools/container-smoke}
# container-smoke copies the npm of `npm root -g` into the base image. When scripts/use-node.sh put
# a registry-fetched Node first on PATH, that root would be under it (where no npm lives): point
# npm's prefix at the npm actually installed.
npm_cli=$(readlink -f "$(command -v npm)")
case $npm_cli in */lib/node_modules/npm/bin/npm-cli.js) export npm_config_prefix=${npm_cli%/lib/node_modules/npm/bin/npm-cli.js} ;; esac
started=$(date +%s)
work=$(mktemp -d)
chmod 0755 "$work"
# One image for every probe: container-smoke keeps it (a rebuild comes from its layer cache) and
# this script removes it at exit. Podman runs here with container-smoke's private configuration
# (under its work dir W), so that it sees the same image store.
export W=${W:-/tmp/container-smoke}
export IMAGE=localhost/svc-docs-container-test-$$:latest KEEP_IMAGE=1
# Podman's default OCI image format drops the HEALTHCHECK: build in Docker's, as docs/docker.md says.
export BUILDAH_FORMAT=docker
in_podman() { CONTAINERS_CONF="$W/cfg/containers.conf" CONTAINERS_STORAGE_CONF="$W/cfg/storage.conf" podman "$@"; }
volume=svc-docs-data-$$
ctr=""
cleanup() {
  [ -z "$ctr" ] || in_podman rm -f -t 0 "$ctr" >/dev/null 2>&1 || true
  in_podman volume rm -f "$volume" >/dev/null 2>&1 || true
  in_podman rmi -f "$IMAGE" "$IMAGE-platform" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
probe() { (cd "$repo" && npx --no-install tsx test/container/probe.ts "$@"); }
fail() {
  echo "container-test: FAIL: $*" >&2
  exit 1
}

echo "== bundled docs" >&2
"$SMOKE" . 8080 npx --no-install tsx test/container/probe.ts \
  --search 'rate limits' --expect svc-platform/limits.md --knowledge-bases svc-docs,svc-platform
[ "$(in_podman image inspect --format '{{json .HealthCheck}}' "$IMAGE")" != null ] || fail "the image has no HEALTHCHECK"

mkdir -p "$work/handbook" "$work/data" "$work/theirs"
cat >"$work/handbook/deploy-runbook.md" <<'EOF'
# Deploy runbook

## Flamingo rollback

When a release misbehaves, run the flamingo rollback: redeploy the previous tag and page the on-call.
EOF
chmod -R a+rX "$work/handbook"
# The container runs as uid 1000 (node): the data folder is given to it, as docs/docker.md says.
chown 1000:1000 "$work/data"
export RUN_ARGS="-v $work/handbook:/corpus/handbook:ro -v $work/data:/data"
handbook=(--search 'flamingo rollback' --expect handbook/deploy-runbook.md --knowledge-bases handbook)

echo "== docs mounted at /corpus/handbook, empty /data folder" >&2
"$SMOKE" . 8080 npx --no-install tsx test/container/probe.ts "${handbook[@]}" --built-at-file "$work/built-at"

echo "== restart on the same /data folder" >&2
"$SMOKE" . 8080 npx --no-install tsx test/container/probe.ts "${handbook[@]}" --built-at-file "$work/built-at"

echo "== /data owned by uid 2000" >&2
chown 2000:2000 "$work/theirs"
# Podman's own warnings (no systemd for health-check timers) start with time=; the rest is the container's.
refusal=$(in_podman run --rm --pull=never -v "$work/handbook:/corpus/handbook:ro" -v "$work/theirs:/data" "$IMAGE" 2>&1 |
  grep -v '^time=' || true)
expected='svc-docs: cannot write /data/index (to be created in /data): /data belongs to uid 2000:2000 and svc-docs runs as uid 1000:1000. Give it to that user (sudo chown -R 1000:1000 <the host folder mounted at /data>), or run the container as the folder'"'"'s owner (docker run --user 2000:2000 …)'
[ "$refusal" = "$expected" ] || fail "a /data owned by uid 2000 printed:
$refusal
expected the one line:
$expected"
echo "$refusal" >&2
RUN_ARGS="--user 2000:2000 -v $work/handbook:/corpus/handbook:ro -v $work/theirs:/data" \
  "$SMOKE" . 8080 npx --no-install tsx test/container/probe.ts "${handbook[@]}"

# docs/docker.md's blocks, run by bash as written, with `docker` this function: it runs podman,
# builds this checkout, and changes three things: -p 8080:8080 publishes a free port on
# 127.0.0.1, the image svc-docs is this test's tag and the volume svc-docs-data its own volume.
# A container runs detached and without --rm, so that its log can be read.
port=""
docker() {
  local command=$1 previous="" arg args=()
  shift
  for arg in "$@"; do
    if [ "$previous" = -p ] && [ "$arg" = 8080:8080 ]; then
      arg=127.0.0.1:$port:8080
    elif [ "$previous" = -v ] && [ "$arg" = svc-docs-data:/data ]; then
      arg=$volume:/data
    elif [ "$arg" = svc-docs ]; then
      arg=$IMAGE
    elif [ "$command" = build ] && [ "$arg" = . ]; then
      arg=$repo
    fi
    # Without --rm, so that the log of a container that exits can be read; cleanup removes it.
    [ "$arg" = --rm ] || args+=("$arg")
    previous=$arg
  done
  case $command in
    build) in_podman build --pull=never --format docker "${args[@]}" >&2 ;;
    run)
      ctr=svc-docs-doc-$$-$RANDOM
      in_podman run -d --name "$ctr" "${args[@]}" >/dev/null
      ;;
    *) fail "docs/docker.md runs docker $command, which this test does not know" ;;
  esac
}

# The URL of the first `ready` event among JSON log lines on stdin (other lines are skipped).
ready_url() {
  node -e 'let t = ""; process.stdin.on("data", (d) => (t += d)).on("end", () => {
    for (const line of t.split("\n")) {
      try { const e = JSON.parse(line); if (e.event === "ready" && e.url) { console.log(e.url); return; } } catch {}
    }
  })'
}

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# The container started by a block: its banner's URL names an accepted host, it is searched there
# in both eras, and its health check passes. Then it is removed.
check_container() {
  local meta=$1 token="" banner="" status
  attr() { sed -n "s/.* $1=\"\([^\"]*\)\".*/\1/p" "$meta"; }
  for _ in $(seq 1 180); do
    # The banner is the JSON log's `ready` line (a container has no TTY, so the log is JSON), on
    # the container's stderr, which podman logs writes to its own.
    banner=$(in_podman logs "$ctr" 2>&1 | ready_url || true)
    [ -n "$banner" ] && break
    [ "$(in_podman inspect --format '{{.State.Running}}' "$ctr" 2>/dev/null || true)" = true ] || break
    sleep 1
  done
  [ -n "$banner" ] ||
    fail "the container printed no start banner; its log ends: $(in_podman logs "$ctr" 2>&1 | grep -v '^time=' | tail -5)"
  [ -z "$(attr token-file)" ] || token=$(sed 's/^SVC_DOCS_AUTH_TOKEN=//' "$run_dir/$(attr token-file)")
  local host
  host=$(node -p 'new URL(process.argv[1]).host' "$banner")
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: $host" -H "Authorization: Bearer $token" "http://127.0.0.1:$port/readyz")
  [ "$status" = 200 ] || fail "the banner's URL $banner: its host got $status from /readyz"
  # The clients use the banner's URL, through the published port (a host name that resolves here:
  # the docs list localhost first).
  URL=$(node -p 'const u = new URL(process.argv[1]); u.port = process.argv[2]; u.origin' "$banner" "$port") \
    AUTH_TOKEN=$token probe --search "$(attr search)" --expect "$(attr expect)" --knowledge-bases "$(attr knowledge-bases)"
  in_podman healthcheck run "$ctr" >/dev/null 2>&1 || fail "the health check failed"
  status=$(in_podman inspect --format '{{.State.Health.Status}}' "$ctr")
  [ "$status" = healthy ] || fail "health status is $status"
  echo "container-test: banner $banner accepted; health: $status" >&2
  in_podman rm -f -t 0 "$ctr" >/dev/null 2>&1
  ctr=""
}

echo "== docs/docker.md, as written" >&2
run_dir=$work/run
mkdir -p "$run_dir/docs" "$work/blocks"
cp docs/docker.md docs/clients.md "$run_dir/docs/"
chmod -R a+rX "$run_dir"
awk -v dir="$work/blocks" '
  /^<!-- container-test / { meta = $0; n++; wanted = 1; next }
  wanted && /^```sh$/ { inside = 1; wanted = 0; file = sprintf("%s/%02d", dir, n); print meta > (file ".meta"); printf "" > (file ".sh"); next }
  inside && /^```$/ { inside = 0; next }
  inside { print > (file ".sh") }
' docs/docker.md
blocks=("$work"/blocks/*.sh)
[ "${#blocks[@]}" -ge 4 ] || fail "docs/docker.md has ${#blocks[@]} container-test blocks, expected at least 4"
for block in "${blocks[@]}"; do
  echo "-- $(tr '\n' ' ' <"$block")" >&2
  port=$(free_port)
  cd "$run_dir"
  # shellcheck disable=SC1090
  source "$block"
  cd "$repo"
  [ -z "$ctr" ] || check_container "${block%.sh}.meta"
done

echo "== the platform target: import '@svc-docs/platform'" >&2
in_podman build --pull=never --target platform -t "$IMAGE-platform" . >&2
# As an app in /app would: the package resolves, has its main exports (the list test/package/
# exports.test.ts checks in the repository), and its SQLite store opens, which loads the native
# addon the target builds. Any failure exits non-zero with one line saying what.
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
in_podman run --rm --pull=never --entrypoint node "$IMAGE-platform" --input-type=module -e "$platform_probe"

echo "container test passed in $(($(date +%s) - started)) s" >&2
