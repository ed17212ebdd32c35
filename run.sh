#!/usr/bin/env bash
# Builds oacl, installs it into build/install (a CANN-shaped prefix), builds
# the zero-copy sample against that install and runs it on the simulated CPU
# device. Build output goes to build/run.log; the sample's output is all
# that is printed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$root/scripts/deps.sh"
oacl_need_packages "${OACL_BUILD_PACKAGES[@]}"

mkdir -p "$root/build"
log="$root/build/run.log"
if ! {
  cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DOACL_BUILD_TESTS=OFF \
    -DCMAKE_INSTALL_PREFIX="$root/build/install" &&
    cmake --build "$root/build" -j "$(nproc)" &&
    cmake --install "$root/build"
} >"$log" 2>&1; then
  cat "$log" >&2
  echo "run.sh: building oacl failed (log: $log)" >&2
  exit 1
fi

ASCEND_CANN_PACKAGE_PATH="$root/build/install" SAMPLE_QUIET=1 \
  bash "$root/samples/0_simple_zero_copy/run.sh"
