#!/usr/bin/env bash
# The install's environment scripts, sourced the way CANN users' scripts
# source them: under `set -euo pipefail` with LD_LIBRARY_PATH unset, from
# other directories, by relative paths, twice, from a moved copy of the
# prefix, and from sh.
#   test_env_scripts.sh <build dir> <sanitizers> <default SoC>
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
oacl_test_init "$1" "${2:-}"
default_soc=$3

# check_sourced <cwd> <script as given> <expected prefix> <expected SOC_VERSION> [VAR=value...]
# Sources the script in a new bash (strict mode, LD_LIBRARY_PATH and
# SOC_VERSION unset unless given) and checks everything it sets.
check_sourced() {
  local cwd=$1 script=$2 want=$3 soc=$4
  shift 4
  (cd "$cwd" && env -u LD_LIBRARY_PATH -u SOC_VERSION "$@" bash -c '
    set -euo pipefail
    script=$1 want=$2 soc=$3 ld_before=${LD_LIBRARY_PATH:-}
    opts_before=$(set +o; shopt -p)
    source "$script"
    [ "$(set +o; shopt -p)" = "$opts_before" ] || { echo "shell options changed"; exit 1; }
    for v in ASCEND_HOME_PATH ASCEND_INSTALL_PATH ASCEND_TOOLKIT_HOME; do
      [ "${!v}" = "$want" ] || { echo "$v=${!v}, want $want"; exit 1; }
    done
    want_ld=$want/lib64${ld_before:+:$ld_before}
    [ "$LD_LIBRARY_PATH" = "$want_ld" ] || { echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH, want $want_ld"; exit 1; }
    case ":$PATH:" in ":$want/bin:"*) ;; *) echo "PATH=$PATH does not start with $want/bin"; exit 1 ;; esac
    case ":$PKG_CONFIG_PATH:" in ":$want/lib64/pkgconfig:"*) ;; *) echo "PKG_CONFIG_PATH=$PKG_CONFIG_PATH"; exit 1 ;; esac
    [ "$ASCENDC_CMAKE_DIR" = "$want/tikcpp/ascendc_kernel_cmake" ] || { echo "ASCENDC_CMAKE_DIR=$ASCENDC_CMAKE_DIR"; exit 1; }
    [ -f "$ASCENDC_CMAKE_DIR/ascendc.cmake" ] || { echo "no ascendc.cmake in ASCENDC_CMAKE_DIR"; exit 1; }
    [ "${SOC_VERSION-<unset>}" = "$soc" ] || { echo "SOC_VERSION=${SOC_VERSION-<unset>}, want $soc"; exit 1; }
    if compgen -v __oacl >/dev/null || compgen -A function __oacl >/dev/null; then
      echo "variables or functions left behind: $(compgen -v __oacl; compgen -A function __oacl)"; exit 1
    fi
    # Sourcing again changes nothing.
    path_once=$PATH
    source "$script"
    [ "$LD_LIBRARY_PATH" = "$want_ld" ] || { echo "second source: LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; exit 1; }
    [ "$PATH" = "$path_once" ] || { echo "second source changed PATH"; exit 1; }
    # The tools on PATH run as they are.
    [ "$(command -v oacl-cc)" = "$want/bin/oacl-cc" ] || { echo "oacl-cc on PATH: $(command -v oacl-cc)"; exit 1; }
    name=$(OACL_SOC= get_soc_version)
    [ "$name" = "'"$default_soc"'" ] || { echo "get_soc_version printed $name"; exit 1; }
  ' check "$script" "$want" "$soc") || fail "sourcing $script from $cwd ($*)"
}

check_sourced / "$P/set_env.sh" "$P" "$default_soc"
check_sourced / "$P/bin/setenv.bash" "$P" "$default_soc"
check_sourced "$P/bin" ./setenv.bash "$P" "$default_soc"
check_sourced "$WORK" P/set_env.sh "$P" "$default_soc"
check_sourced "$P/include/acl" ../../set_env.sh "$P" "$default_soc"
# LD_LIBRARY_PATH already set: prepended. SOC_VERSION: kept when set
# (even when empty), else OACL_SOC, else the default.
check_sourced / "$P/set_env.sh" "$P" "$default_soc" LD_LIBRARY_PATH=/opt/other/lib
check_sourced / "$P/set_env.sh" "$P" Ascend910B1 SOC_VERSION=Ascend910B1
check_sourced / "$P/bin/setenv.bash" "$P" "" SOC_VERSION=
check_sourced / "$P/set_env.sh" "$P" Ascend950PR_9599 OACL_SOC=Ascend950PR_9599

# A copy of the prefix elsewhere (a path with a space) is self-contained:
# the scripts point at the copy, and its tools use the copy.
moved="$WORK/moved install/cann"
mkdir -p "$(dirname "$moved")"
cp -a "$P" "$moved"
check_sourced / "$moved/set_env.sh" "$moved" "$default_soc"
check_sourced "$moved/bin" ./setenv.bash "$moved" "$default_soc"
printf '%s\n' '#include "oacl/kernel.h"' '__global__ __aicore__ void k(GM_ADDR x) { (void)x; }' >"$WORK/k.c"
quiet "$moved/bin/oacl-cc" -o "$WORK/k.o" "$WORK/k.c"
# The kernel binary's runtime is the copy's.
readelf -d "$WORK/k.o" | grep "$moved/lib64" >/dev/null || fail "kernel binary built by the moved oacl-cc does not use its lib64"
for dir in tikcpp "$(uname -m)-linux/tikcpp" compiler/tikcpp tools/tikcpp; do
  printf 'include("%s/%s/ascendc_kernel_cmake/ascendc.cmake")\nmessage("prefix=${OACL_PREFIX}")\n' \
    "$moved" "$dir" >"$WORK/probe.cmake"
  got=$(cmake -P "$WORK/probe.cmake" 2>&1 | sed -n 's/^prefix=//p')
  expect_eq "OACL_PREFIX of $dir/ascendc_kernel_cmake/ascendc.cmake in the moved prefix" "$got" "$moved"
done

# sh cannot tell a sourced file's path: it gets the prefix installed to.
out=$(cd / && env -u LD_LIBRARY_PATH -u SOC_VERSION sh -c 'set -eu; . "$1"; echo "$ASCEND_HOME_PATH|$LD_LIBRARY_PATH|$SOC_VERSION"' sh "$P/set_env.sh")
expect_eq "set_env.sh under sh" "$out" "$P|$P/lib64|$default_soc"
if command -v zsh >/dev/null 2>&1; then
  out=$(cd / && env -u LD_LIBRARY_PATH zsh -c 'set -eu; source "$1"; echo "$ASCEND_HOME_PATH"' zsh "$moved/set_env.sh")
  expect_eq "set_env.sh under zsh" "$out" "$moved"
else
  echo "zsh not installed: its case is skipped"
fi
echo "environment scripts: all cases passed"
