#!/usr/bin/env bash
# Measures the Docker image: builds each target of the Dockerfile (the default, `models`,
# `platform`), reads its size from the engine (`image inspect`, bytes, uncompressed: what `docker
# images` shows) and what the default target adds to its base, and writes
# bench/results/image-size.md. Rerun it after changing the Dockerfile or the dependencies:
#
#   scripts/image-size.sh                 # docker when its engine answers, else podman
#   ENGINE=podman scripts/image-size.sh
#
# On a machine without a Docker engine or registry access, run scripts/container-test.sh (or
# ../shared/tools/container-smoke) once first: it makes the base image in podman's private store
# under $W (default /tmp/container-smoke), which this script then uses too.
set -euo pipefail
cd "$(dirname "$0")/.."
ENGINE=${ENGINE:-$(docker info >/dev/null 2>&1 && echo docker || echo podman)}
W=${W:-/tmp/container-smoke}
build_args=()
if [ "$ENGINE" = podman ]; then
  if [ -f "$W/cfg/containers.conf" ]; then
    export CONTAINERS_CONF="$W/cfg/containers.conf" CONTAINERS_STORAGE_CONF="$W/cfg/storage.conf"
  fi
  # Podman's default OCI format drops the HEALTHCHECK; measure the image as it is shipped.
  build_args=(--format docker)
fi
out=bench/results/image-size.md
tag=localhost/svc-docs-image-size-$$
trap '"$ENGINE" rmi -f "$tag:default" "$tag:models" "$tag:platform" >/dev/null 2>&1 || true' EXIT

base=$(sed -n 's/^FROM[[:space:]]\+\([^[:space:]]*\)[[:space:]]\+AS[[:space:]]\+runtime.*/\1/Ip' Dockerfile)
mb() { awk -v b="$1" 'BEGIN { printf "%.0f MB", b / 1e6 }'; }
size() { "$ENGINE" image inspect --format '{{.Size}}' "$1"; }

for target in default models platform; do
  echo "== building the $target target" >&2
  target_arg=()
  [ "$target" = default ] || target_arg=(--target "$target")
  "$ENGINE" build "${build_args[@]}" "${target_arg[@]}" -t "$tag:$target" . >&2
done

# What the default target adds to its base, folder by folder (du -sk inside the image).
parts=$("$ENGINE" run --rm --entrypoint du "$tag:default" -sk \
  /app/node_modules /app/.cache/models /app/dist /app/corpus /data |
  awk '{ printf "| `%s` | %.1f MB |\n", $2, $1 * 1024 / 1e6 }')

{
  echo "# Docker image size"
  echo
  echo "Measured by \`scripts/image-size.sh\` ($("$ENGINE" --version)), $(date -u +%Y-%m-%d) at $(git rev-parse --short HEAD)."
  echo "Sizes are uncompressed, as \`docker images\` shows them (MB = 10^6 bytes)."
  echo
  echo "| Target | Size | Holds |"
  echo "| --- | --- | --- |"
  echo "| default (\`docker build .\`) | $(mb "$(size "$tag:default")") | the server, the default model, the bundled docs and their index |"
  echo "| \`--target models\` | $(mb "$(size "$tag:models")") | the default, plus Transformers.js and ONNX Runtime for other models (\`SVC_DOCS_MODEL\`) |"
  echo "| \`--target platform\` | $(mb "$(size "$tag:platform")") | the default, plus the platform SDK (\`@svc-docs/platform\`, with its SQLite addon) |"
  echo "| base \`$base\` | $(mb "$(size "$base")") | Debian and Node.js |"
  echo
  echo "What the default target adds to its base:"
  echo
  echo "| Folder | Size |"
  echo "| --- | --- |"
  echo "$parts"
} >"$out"
cat "$out"
