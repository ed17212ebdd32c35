#!/usr/bin/env bash
# Build systems other than ascendc.cmake consuming an install: CMake's
# find_package(oacl) (found through PATH after set_env.sh, and through
# CMAKE_PREFIX_PATH), and pkg-config's acl_rt and oacl (also from a moved
# copy of the prefix). Every program runs without LD_LIBRARY_PATH.
#   test_consumers.sh <build dir> <source dir> <sanitizers> <default SoC>
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
oacl_test_init "$1" "${3:-}"
src_dir=$2
default_soc=$4
oacl_export_san_flags

cp -r "$src_dir/tests/toolchain/consumer" "$WORK/consumer"
cd "$WORK/consumer"

# find_package through PATH: set_env.sh puts P/bin there, and CMake searches
# the prefix above each bin/ directory.
(
  source "$P/set_env.sh"
  quiet cmake -B build-path -DCMAKE_BUILD_TYPE=Release
  grep -q "consumer: OACL_ROOT=$P\$" <(cmake -B build-path 2>&1) || fail "find_package(oacl) through PATH found another root"
  quiet cmake --build build-path
)
# ... and through CMAKE_PREFIX_PATH, with nothing sourced.
quiet cmake -B build-prefix -DCMAKE_PREFIX_PATH="$P"
quiet cmake --build build-prefix
for exe in build-path/app build-path/app_ascendcl build-prefix/app build-prefix/app_ascendcl; do
  expect_eq "$exe" "$(env -u LD_LIBRARY_PATH ./$exe)" "soc $default_soc"
done
# A version the install does not have is refused.
sed 's/find_package(oacl 0.1 REQUIRED)/find_package(oacl 99 REQUIRED)/' CMakeLists.txt >CMakeLists.v99
mkdir -p v99 && cp CMakeLists.v99 v99/CMakeLists.txt && cp app.c v99/
if cmake -S v99 -B build-v99 -DCMAKE_PREFIX_PATH="$P" >v99.log 2>&1; then
  fail "find_package(oacl 99) succeeded"
fi

# pkg-config: the files give flags with the prefix's own paths, including a
# run path.
moved="$WORK/moved/cann"
mkdir -p "$WORK/moved"
cp -a "$P" "$moved"
for root in "$P" "$moved"; do
  for pc in acl_rt oacl; do
    flags=$(PKG_CONFIG_PATH="$root/lib64/pkgconfig" pkg-config --cflags --libs "$pc")
    incdir=$(PKG_CONFIG_PATH="$root/lib64/pkgconfig" pkg-config --cflags-only-I "$pc" | sed 's/^ *-I//; s/ *$//')
    expect_eq "include directory of pkg-config $pc from $root" "$(realpath "$incdir")" "$(realpath "$root/include")"
    # shellcheck disable=SC2086
    quiet cc -std=c11 -Wall -Werror ${CFLAGS:-} app.c -o "app_$pc" $flags ${LDFLAGS:-}
    expect_eq "pkg-config $pc program from $root" "$(env -u LD_LIBRARY_PATH ./app_$pc)" "soc $default_soc"
    runpath=$(readelf -d "app_$pc" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]$/\2/p')
    expect_eq "run path of the pkg-config $pc program from $root" "$(realpath "$runpath")" "$(realpath "$root/lib64")"
  done
done
# After set_env.sh, pkg-config finds the files with no further setup.
(
  source "$P/set_env.sh"
  pkg-config --exists acl_rt oacl || fail "pkg-config does not find acl_rt/oacl after set_env.sh"
  expect_eq "pkg-config --modversion acl_rt" "$(pkg-config --modversion acl_rt)" \
    "$(sed -n 's/^Version=//p' "$P/share/info/runtime/version.info")"
)
echo "find_package(oacl) and pkg-config consumers: all checks passed"
