#!/usr/bin/env bash
# Builds and runs the sample against a CANN (or oacl) install. First:
#   source <install prefix>/set_env.sh
# The program's output is also written to output_msg.txt.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

cmake -B build -DASCEND_CANN_PACKAGE_PATH="${ASCEND_HOME_PATH}"
cmake --build build -j
cmake --install build
./build/main | tee output_msg.txt
