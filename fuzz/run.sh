#!/usr/bin/env bash
# Builds the libFuzzer targets (Debian's clang, with ASan+UBSan) in
# build-fuzz/ and runs each for SECONDS (default 60):
#   bash fuzz/run.sh [SECONDS] [TARGET...]
# Targets: fuzz_binary_check (a kernel image's checks before the dynamic
# loader, nothing loaded), fuzz_binary_data (aclrtBinaryLoadFromData,
# aclrtCreateBinary + aclrtBinaryLoad), fuzz_binary_file
# (aclrtBinaryLoadFromFile), fuzz_init_config (aclInit's configuration file). Each starts from the seeds
# in fuzz/corpus/<target>/ (plus the seed kernel binary built here) and keeps
# what it finds in build-fuzz/fuzz/corpus/<target>/. A crash leaves its input
# in build-fuzz/fuzz/crash-<target>-* and makes the script fail. The last
# line per target: "<target>: <executions> executions, <crashes> crashes".
# OACL_FUZZ_BUILD overrides the build directory.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/deps.sh"
oacl_need_packages "${OACL_BUILD_PACKAGES[@]}" clang libclang-rt-dev

secs=${1:-60}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_binary_check fuzz_binary_data fuzz_binary_file fuzz_init_config)
build=${OACL_FUZZ_BUILD:-$root/build-fuzz}

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DOACL_SANITIZE=address,undefined -DOACL_BUILD_TESTS=OFF -DOACL_BUILD_BENCH=OFF -DOACL_BUILD_FUZZ=ON >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_targets >"$build/fuzz-build.log" 2>&1 ||
  { cat "$build/fuzz-build.log"; exit 1; }

# Leaks are checked after every input; at exit libFuzzer's own objects would count.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:leak_check_at_exit=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export OACL_LOG_LEVEL=${OACL_LOG_LEVEL:-none} # refused inputs need no log lines
status=0
for t in "${targets[@]}"; do
  work=$build/fuzz/corpus/$t
  mkdir -p "$work"
  case $t in
    fuzz_binary_*) cp -f "$build/fuzz/seed_kernel.o" "$work/seed_kernel.o" ;;
  esac
  log=$build/fuzz/$t.log
  rc=0
  "$build/bin/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$build/fuzz/crash-$t-" "$work" "$root/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashes=0
  if [ $rc -ne 0 ]; then
    crashes=1 # libFuzzer stops at the first one
    status=1
    grep -E "ERROR|SUMMARY|==[0-9]+==|#[0-9]+ 0x" "$log" | head -40 >&2 || true
    ls "$build/fuzz/crash-$t-"* >&2 2>/dev/null || true
  fi
  echo "$t: ${execs:-0} executions, $crashes crashes (${secs} s; log $log)"
done
exit $status
