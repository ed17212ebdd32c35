# Installs missing Debian packages (sourced by run.sh, test.sh, bench/run.sh).
# Only apt-get is used; nothing else is downloaded.
oacl_need_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${missing[*]} (run as root, or install them first)" >&2
    return 1
  fi
  echo "installing Debian packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
    apt-get update >/dev/null 2>&1
    apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# Packages every build needs (libcjson-dev: aclInit's JSON configuration).
OACL_BUILD_PACKAGES=(cmake make gcc g++ libc6-dev libcjson-dev)
