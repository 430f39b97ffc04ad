#!/usr/bin/env bash
# Installs Debian's PostgreSQL documentation (HTML under /usr/share/doc/postgresql-doc-NN/html)
# when no version of it is there: the HTML-export and website-crawl tests read it as a real docs
# site (test/helpers/postgresql-docs.ts). CI calls this before the tests; under CI=true those
# tests fail, rather than skip, without it.
set -euo pipefail

if compgen -G '/usr/share/doc/postgresql-doc-*/html/index.html' >/dev/null; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-postgresql-doc: the PostgreSQL docs are missing and this is not root on Debian/Ubuntu: install postgresql-doc yourself (the HTML-export tests need it)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# postgresql-doc depends on the distribution's current postgresql-doc-NN.
apt-get install -y -qq --no-install-recommends postgresql-doc >/dev/null
ls -d /usr/share/doc/postgresql-doc-*/html
