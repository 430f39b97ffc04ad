#!/usr/bin/env bash
# Times the README's test command from a clean install, `npm ci && npm test` (Biome, the platform
# package's dependencies, type-check, `vitest run`), several times one after another on this
# machine and writes bench/results/test-times.md: each run's wall time from `npm ci` to the last
# line, its parts (the install, the platform package's install, `npm test`) beside the load
# average during it (other work on a shared machine slows a run as much as the tests do), the
# machine's size, and the slowest files of the last run (scripts/file-times-reporter.ts). Each run
# removes the platform package's node_modules first, so its install is timed from scratch as a
# fresh clone would see it. Rerun it after changing the tests:
#
#   scripts/time-tests.sh        # three runs
#   scripts/time-tests.sh 1      # one
#
# Exits non-zero when a run fails; its figure is written all the same, marked failed.
set -euo pipefail
cd "$(dirname "$0")/.."
set +u
. scripts/use-node.sh >/dev/null
set -u
runs=${1:-3}
out=bench/results/test-times.md
work=$(mktemp -d)
sampler=
trap '[ -n "$sampler" ] && kill "$sampler" 2>/dev/null; rm -rf "$work"' EXIT

# The 1-minute load average every 10 s while a run lasts.
sample_load() { while :; do cut -d' ' -f1 /proc/loadavg; sleep 10; done; }
# Mean and highest of the samples in file $1.
load_summary() { awk '{ s += $1; if ($1 > m) m = $1 } END { printf "%.1f (highest %.1f)", s / NR, m }' "$1"; }
minutes() { awk -v s="$1" 'BEGIN { printf "%d min %02d s", s / 60, s % 60 }'; }

rows=()
failed=0
for run in $(seq "$runs"); do
  echo "time-tests: run $run of $runs (npm test)" >&2
  sample_load >"$work/load-$run" &
  sampler=$!
  start=$(date +%s)
  result=passed
  rm -rf packages/platform/node_modules
  npm ci --no-audit --no-fund >"$work/log-$run" 2>&1 || result=failed
  installed=$(date +%s)
  if [ "$result" = passed ]; then
    npm test -- --reporter=default --reporter=./scripts/file-times-reporter.ts >>"$work/log-$run" 2>&1 || result=failed
  fi
  seconds=$(($(date +%s) - start))
  install_seconds=$((installed - start))
  # install-deps.mjs ends its install with "installed in 12.3 s".
  platform=$(sed -n 's/^@svc-docs\/platform: installed in \([0-9.]*\) s$/\1 s/p' "$work/log-$run" | tail -n 1)
  kill "$sampler" && wait "$sampler" 2>/dev/null || true
  sampler=
  if [ "$result" = failed ]; then
    failed=1
    tail -n 40 "$work/log-$run" >&2
  fi
  echo "time-tests: run $run $result in $(minutes "$seconds")" >&2
  rows+=("| $run | $(minutes "$seconds") | $(minutes "$install_seconds") | ${platform:-not run} | $(minutes $((seconds - install_seconds))) | $(load_summary "$work/load-$run") | $result |")
done

cores=$(nproc)
memory=$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
  echo '# `npm test` wall time'
  echo
  echo "Written by \`scripts/time-tests.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC') at commit $(git rev-parse --short HEAD)."
  echo "Machine: $cores cores ($cpu), $memory of memory, Node $(node --version)."
  echo "Command: \`npm ci && npm test\` (the README's), $runs times one after another, the platform package's node_modules removed before each. The goals on 2 cores at load 8 or less: 8 minutes from \`npm ci\` to the last line, the platform package's install 30 s."
  echo
  echo '| run | npm ci to the last line | npm ci | platform install | npm test | load average during the run (mean of 1-minute samples) | result |'
  echo '|---|---|---|---|---|---|---|'
  printf '%s\n' "${rows[@]}"
  echo
  echo "A load average above the core count means other work shared the cores with the tests."
  echo
  echo "## Slowest files of run $runs"
  echo
  echo "Each file's tests, hooks and import; files run side by side (maxWorkers in vitest.config.ts), so these add up to more than the wall time."
  echo
  echo '| seconds | file |'
  echo '|---|---|'
  sed -n 's/^file-time \([0-9.]*\) \(.*\)$/| \1 | `\2` |/p' "$work/log-$runs" | head -n 15
} >"$out"
echo "time-tests: wrote $out" >&2
exit "$failed"
