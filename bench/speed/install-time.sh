#!/usr/bin/env bash
# The install measure: for each revision given (default: the last commit before the platform SDK
# left the server, 29fa904, and HEAD), one after another in this one run, a fresh
# clone of this repository, `npm ci`, then `npm start` until it prints "serving" (the bundled
# corpus: model build, index build, serve). Writes bench/results/install-time.md.
#   bench/speed/install-time.sh [REV ...]
# Uses the npm cache as it is (warm on a machine that has installed before) and the Node that
# scripts/use-node.sh picks; nothing else is shared between the clones.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. scripts/use-node.sh >/dev/null
revs=("$@")
[ ${#revs[@]} -gt 0 ] || revs=(29fa904 HEAD)
work=$(mktemp -d)
pid=
# npm start runs in its own process group (setsid), so stopping it stops the server it started.
stop() { [ -n "$pid" ] && kill -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; pid=; }
trap 'stop; rm -rf "$work"' EXIT
out=bench/results/install-time.md
rows=()
declare -A totals
for rev in "${revs[@]}"; do
  sha=$(git rev-parse --short "$rev")
  dir=$work/$sha
  git clone -q "$root" "$dir"
  git -C "$dir" checkout -q "$sha"
  start=$(date +%s.%N)
  (cd "$dir" && npm ci --no-audit --no-fund >"$dir.ci.log" 2>&1)
  mid=$(date +%s.%N)
  (cd "$dir" && exec setsid npm start -- --port 0 >"$dir.start.log" 2>&1) &
  pid=$!
  until grep -q "serving" "$dir.start.log" 2>/dev/null; do
    sleep 0.2
    if ! kill -0 "$pid" 2>/dev/null; then echo "install-time: npm start of $sha exited" >&2; tail -5 "$dir.start.log" >&2; exit 1; fi
  done
  end=$(date +%s.%N)
  stop
  sqlite=$([ -d "$dir/node_modules/better-sqlite3" ] && echo yes || echo no)
  ci=$(echo "$mid - $start" | bc)
  serve=$(echo "$end - $mid" | bc)
  total=$(echo "$end - $start" | bc)
  totals[$sha]=$total
  rows+=("| $sha | $(printf %.0f "$ci") | $(printf %.0f "$serve") | $(printf %.0f "$total") | $sqlite |")
  echo "$sha: npm ci $(printf %.0f "$ci") s, npm start to serving $(printf %.0f "$serve") s, total $(printf %.0f "$total") s; native SQLite: $sqlite" >&2
done
first=$(git rev-parse --short "${revs[0]}")
last=$(git rev-parse --short "${revs[-1]}")
{
  echo "# Fresh clone to first \"serving\""
  echo
  echo "Run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(nproc) cores, Node $(node --version); load average (1 min) at the end: $(cut -d' ' -f1 /proc/loadavg)."
  echo "Command: \`bench/speed/install-time.sh ${revs[*]}\`. Each revision: a fresh clone, \`npm ci --no-audit --no-fund\` (warm npm cache), then \`npm start\` until it prints \"serving\" (it builds the default model and the bundled corpus's index first)."
  echo
  echo "| revision | npm ci (s) | npm start to serving (s) | total (s) | native SQLite installed |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "$first / $last, total: $(echo "scale=2; ${totals[$first]} / ${totals[$last]}" | bc)×."
} >"$out"
echo "install-time: wrote $out" >&2
