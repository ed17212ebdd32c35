#!/usr/bin/env bash
# Builds everything and runs every test (ctest), three times:
#   1. a normal optimised build (Release)  -> build-test/
#   2. AddressSanitizer + UBSan             -> build-asan/
#   3. ThreadSanitizer                      -> build-tsan/
#   4. a libFuzzer smoke run (fuzz/run.sh, clang, 12 s per target) -> build-fuzz/
# Set OACL_TEST_STAGES to a subset ("normal asan tsan") to run fewer.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$root/scripts/deps.sh"
# gnuplot-nox: msprof draws timeline.png with it (the test checks the png when present)
oacl_need_packages "${OACL_BUILD_PACKAGES[@]}" libcmocka-dev pkgconf python3 gnuplot-nox

jobs=$(nproc)
stages=${OACL_TEST_STAGES:-normal asan tsan fuzz}

run_stage() {
  local name=$1 dir=$2
  shift 2
  echo "== $name: configure and build ($dir)"
  cmake -S "$root" -B "$root/$dir" -DOACL_BUILD_TESTS=ON -DCMAKE_INSTALL_PREFIX="$root/$dir/install" "$@" >/dev/null
  cmake --build "$root/$dir" -j "$jobs" >"$root/$dir/build.log" 2>&1 || { cat "$root/$dir/build.log"; return 1; }
  cmake --install "$root/$dir" >/dev/null
  echo "== $name: ctest"
  (cd "$root/$dir" && ctest --output-on-failure -j "$jobs")
}

for s in $stages; do
  case $s in
    normal) run_stage "normal" build-test -DCMAKE_BUILD_TYPE=Release ;;
    asan) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      run_stage "asan+ubsan" build-asan -DCMAKE_BUILD_TYPE=Debug -DOACL_SANITIZE=address,undefined ;;
    tsan) TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
      run_stage "tsan" build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOACL_SANITIZE=thread ;;
    fuzz) echo "== fuzz: libFuzzer smoke (build-fuzz)"; bash "$root/fuzz/run.sh" "${OACL_FUZZ_SECONDS:-12}" ;;
    *) echo "unknown stage $s" >&2; exit 2 ;;
  esac
done
echo "== all test stages passed: $stages"
