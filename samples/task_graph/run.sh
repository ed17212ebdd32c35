#!/usr/bin/env bash
# Builds and runs the task graph sample against an oacl (CANN-shaped) install:
#   ASCEND_CANN_PACKAGE_PATH=<prefix> bash run.sh
# The program's output is also written to output_msg.txt. With
# SAMPLE_QUIET=1 the build's output goes to build/build.log instead of the
# terminal (shown only if the build fails).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

prefix=${ASCEND_CANN_PACKAGE_PATH:-${ASCEND_HOME_PATH:-}}
if [ -z "$prefix" ]; then
  echo "[ERROR]  set ASCEND_CANN_PACKAGE_PATH (or ASCEND_HOME_PATH) to the install prefix" >&2
  exit 1
fi

build() {
  cmake -B build -DASCEND_CANN_PACKAGE_PATH="$prefix" ${SAMPLE_CMAKE_ARGS:-}
  cmake --build build -j
  cmake --install build
}

if [ "${SAMPLE_QUIET:-0}" = 1 ]; then
  mkdir -p build
  if ! build >build/build.log 2>&1; then
    cat build/build.log >&2
    echo "[ERROR]  building the sample failed" >&2
    exit 1
  fi
else
  build
fi

./build/main | tee output_msg.txt
