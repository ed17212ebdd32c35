#!/usr/bin/env bash
# Without cmocka (the tests' only extra dependency) oacl still configures
# and builds the runtime and the tools; the tests are left out with a
# one-line note. The absence is simulated by pointing the cmocka search
# result at a directory without cmocka.h.
#   test_no_cmocka.sh <source dir>
set -euo pipefail
src=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/oacl-no-cmocka-XXXXXX")
trap 'rm -rf "$work"' EXIT
out=$(cmake -S "$src" -B "$work" -DCMAKE_BUILD_TYPE=Release -DOACL_BUILD_BENCH=OFF \
  -DCMOCKA_INCLUDE_DIR="$work/none" 2>&1) || { echo "$out"; echo "configure failed without cmocka"; exit 1; }
grep -q "cmocka not found (Debian package libcmocka-dev): tests are not built" <<<"$out" ||
  { echo "$out"; echo "no note about the missing cmocka"; exit 1; }
[ ! -e "$work/tests" ] || { echo "the tests were configured without cmocka"; exit 1; }
targets=$(cmake --build "$work" --target help)
for t in acl_rt oacl-cc get_soc_version; do
  grep -q "\.\.\. $t\$" <<<"$targets" || { echo "target $t missing without cmocka"; exit 1; }
done
echo "configured without cmocka: runtime and tools, no tests"
