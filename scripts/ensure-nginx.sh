#!/usr/bin/env bash
# Installs Debian's nginx when it is missing: test/deploy/replicas.test.ts starts its own nginx
# (own prefix, config, pid and logs, an ephemeral port) in front of two replicas. CI calls this
# before the tests; under CI=true that test fails, rather than skips, without nginx.
set -euo pipefail

if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-nginx: nginx is missing and this is not root on Debian/Ubuntu: install nginx yourself (the replica test needs it)" >&2
  exit 1
fi

# The package would start a system nginx on port 80; the test starts its own, so forbid service
# starts for this install unless the machine already has a policy (container images usually do).
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
  trap 'rm -f "$policy"' EXIT
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends nginx >/dev/null
nginx -v
