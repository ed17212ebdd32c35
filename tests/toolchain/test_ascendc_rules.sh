#!/usr/bin/env bash
# ascendc.cmake's rules (spec §4), on tests/toolchain/rules_project built
# three times from a CANN user's shell: RUN_MODE cpu/sim/npu, SOC_VERSION
# empty / unknown / Ascend950PR_9599 (from the environment, the project not
# defining it), always a Debug build.
#   test_ascendc_rules.sh <build dir> <source dir> <sanitizers>
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
oacl_test_init "$1" "${3:-}"
src_dir=$2
oacl_export_san_flags
source "$P/set_env.sh"

# check_config <name> <RUN_MODE> <SOC_VERSION> <expected arch> [VAR=value for running]
check_config() {
  local name=$1 mode=$2 soc=$3 arch=$4
  shift 4
  local proj=$WORK/$name
  cp -r "$src_dir/tests/toolchain/rules_project" "$proj"
  cd "$proj"
  if [[ $soc == env:* ]]; then # SOC_VERSION left undefined in CMake, taken from the environment
    SOC_VERSION=${soc#env:} quiet cmake -B build -DASCEND_CANN_PACKAGE_PATH="$ASCEND_HOME_PATH" \
      -DRUN_MODE="$mode" -DRULES_SOC_FROM_ENV=ON
  else
    quiet cmake -B build -DASCEND_CANN_PACKAGE_PATH="$ASCEND_HOME_PATH" -DRUN_MODE="$mode" -DSOC_VERSION="$soc"
  fi
  quiet cmake --build build -j 2
  # The kernel binaries exist after the build, before any install.
  for f in fatbin_probe fatbin_other; do
    [ -f "out/fatbin/$f/$f.o" ] || fail "$name: out/fatbin/$f/$f.o not written at build time"
  done
  quiet cmake --install build

  cat >want_main.txt <<TXT
host: optimized=0
library: optimized=1 arch=$arch config=4242 extra=1 (expected extra 1)
fatbin_probe: optimized=1 arch=$arch config=4242 extra=4
fatbin_other: 80 81
TXT
  env "$@" ./build/main >got_main.txt 2>err.txt || { cat got_main.txt err.txt; fail "$name: build/main failed"; }
  diff -u want_main.txt got_main.txt || fail "$name: build/main output"
  for exe in server:2 client:3; do
    printf 'host: optimized=0\nlibrary: optimized=1 arch=%s config=4242 extra=%s (expected extra %s)\n' \
      "$arch" "${exe#*:}" "${exe#*:}" >want.txt
    env "$@" "./build/${exe%%:*}" >got.txt 2>err.txt || { cat got.txt err.txt; fail "$name: ${exe%%:*} failed"; }
    diff -u want.txt got.txt || fail "$name: build/${exe%%:*} output"
  done
  # The installed program finds libacl_rt.so through its run path.
  readelf -d out/bin/main | grep -E 'R(UN)?PATH' | grep "$P/lib64" >/dev/null || fail "$name: installed main has no run path to $P/lib64"
  env -u LD_LIBRARY_PATH "$@" ./out/bin/main >got_installed.txt 2>err.txt ||
    { cat got_installed.txt err.txt; fail "$name: out/bin/main failed"; }
  diff -u want_main.txt got_installed.txt || fail "$name: out/bin/main output"
  # Installing elsewhere copies the kernel binaries along.
  quiet cmake --install build --prefix "$proj/elsewhere"
  for f in bin/main fatbin/fatbin_probe/fatbin_probe.o fatbin/fatbin_other/fatbin_other.o; do
    [ -f "elsewhere/$f" ] || fail "$name: cmake --install --prefix did not install $f"
  done
  # A rebuild with nothing changed does nothing; touching the header next to
  # the kernel source rebuilds what includes it.
  cmake --build build >rebuild.log 2>&1 || { cat rebuild.log; fail "$name: rebuild"; }
  if grep -q "Building\|Rewriting\|Linking" rebuild.log; then cat rebuild.log; fail "$name: an up-to-date build rebuilt"; fi
  sed -i 's/4242/4243/' kernel_src/probe_config.h
  quiet cmake --build build
  env "$@" ./build/main >rebuilt.txt 2>&1 || { cat rebuilt.txt; fail "$name: main after the header change"; }
  grep -q "^library: .*config=4243" rebuilt.txt || fail "$name: the library did not pick up the changed header"
  grep -q "^fatbin_probe: .*config=4243" rebuilt.txt || fail "$name: the kernel binary did not pick up the changed header"
  cd "$WORK"
}

check_config cpu_default cpu "" 2201
check_config sim_unknown sim NoSuchSoc 2201
check_config npu_950 npu env:Ascend950PR_9599 3510 OACL_SOC=Ascend950PR_9599
echo "ascendc.cmake rules: all configurations passed"
