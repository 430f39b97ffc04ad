# Sourced by scripts/ensure-*.sh: installs a Debian package when its program is missing.
# ensure_debian_package <program> <package> <what needs it> [<command to run before installing>];
# a program already installed is left alone; without root or apt-get, says what to install and fails.
ensure_debian_package() {
  local program=$1 package=$2 needed_by=$3 before_install=${4:-}
  if command -v "$program" >/dev/null 2>&1 || [ -x "/usr/sbin/$program" ] || [ -x "/usr/bin/$program" ]; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-$program: $program is missing and this is not root on Debian/Ubuntu: install $package yourself ($needed_by needs it)" >&2
    return 1
  fi
  if [ -n "$before_install" ]; then "$before_install"; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "$package" >/dev/null
}
