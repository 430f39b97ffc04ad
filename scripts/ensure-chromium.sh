#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing: the search page's browser tests
# (test/web/search-page-browser.test.ts) and its screenshot (bench/report/search-page-screenshot.ts) drive
# it headless through playwright-core, which never downloads a browser. CI calls this before the
# tests; under CI=true those tests fail, rather than skip, without Chromium.
set -euo pipefail
. "$(dirname "$0")/lib/ensure-debian-package.sh"

ensure_debian_package chromium chromium "the search page's browser tests"
