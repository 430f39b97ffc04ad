#!/usr/bin/env bash
# Installs Debian's nginx when it is missing: test/deploy/replicas.test.ts starts its own nginx
# (own prefix, config, pid and logs, an ephemeral port) in front of two replicas. CI calls this
# before the tests; under CI=true that test fails, rather than skips, without nginx.
set -euo pipefail
. "$(dirname "$0")/lib/ensure-debian-package.sh"

# The package would start a system nginx on port 80; the test starts its own, so forbid service
# starts for this install unless the machine already has a policy (container images usually do).
policy=/usr/sbin/policy-rc.d
forbid_service_starts() {
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
}

ensure_debian_package nginx nginx 'the replica test' forbid_service_starts
"$(command -v nginx || echo /usr/sbin/nginx)" -v
