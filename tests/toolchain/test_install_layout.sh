#!/usr/bin/env bash
# The install prefix as a CANN install: its layout, the headers, the
# libascendcl.so name, and SoC detection exactly as CANN's sample tooling
# does it (spec: cann-install-and-toolchain.md §1 and §3).
#   test_install_layout.sh <build dir> <sanitizers> <default SoC>
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
oacl_test_init "$1" "${2:-}"
default_soc=$3
arch=$(uname -m)

# ---- layout ----------------------------------------------------------------
for f in set_env.sh bin/setenv.bash bin/oacl-cc bin/get_soc_version \
  include/acl/acl.h include/acl/acl_base.h include/acl/acl_base_rt.h include/acl/acl_rt.h \
  include/acl/acl_rt_allocator.h include/acl/acl_op.h include/acl/acl_mdl.h \
  include/acl/acl_rt_memory_soma.h include/acl/acl_rt_api.h \
  include/kernel_operator.h include/oacl/kernel_operator.h include/oacl/asc/tensor.h include/oacl/asc/printf.h \
  lib64/libacl_rt.so lib64/libascendcl.so lib64/libacl_rt_impl.so \
  tikcpp/ascendc_kernel_cmake/ascendc.cmake "$arch-linux/tikcpp/ascendc_kernel_cmake/ascendc.cmake" \
  compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake \
  "$arch-linux/include/acl/acl.h" "$arch-linux/lib64/libacl_rt.so" \
  share/info/runtime/version.info share/cmake/oacl/oaclConfig.cmake share/cmake/oacl/oaclConfigVersion.cmake \
  lib64/pkgconfig/acl_rt.pc lib64/pkgconfig/oacl.pc \
  bin/oacl-smi bin/msprof include/acl/acl_prof.h include/acl/acl_dump.h \
  include/mstx/ms_tools_ext.h include/mstx/ms_tools_ext_mem.h include/mstx/mstx_detail/mstx_types.h \
  include/mstx/mstx_detail/mstx_impl.h include/base/log_types.h include/base/alog_pub.h include/base/acl_log.h \
  lib64/libmsprofiler.so lib64/libprofapi.so lib64/libms_tools_ext.so lib64/libascend_dump.so \
  lib64/libascendalog.so; do
  [ -e "$P/$f" ] || fail "missing $f in the install"
done
grep -Eqx 'Version=[0-9]+\.[0-9]+\.[0-9]+' "$P/share/info/runtime/version.info" ||
  fail "version.info has no Version=X.Y.Z line"

# What install-locating tools accept as a root: an env file and an ACL
# layout (include/acl/acl.h with lib64/libacl_rt.so, or the <arch>-linux one).
accepts_root() {
  local r=$1
  { [ -f "$r/set_env.sh" ] || [ -f "$r/bin/setenv.bash" ]; } || return 1
  { [ -f "$r/include/acl/acl.h" ] && [ -f "$r/lib64/libacl_rt.so" ]; } ||
    { [ -f "$r/$arch-linux/include/acl/acl.h" ] && [ -f "$r/$arch-linux/lib64/libacl_rt.so" ]; }
}
accepts_root "$P" || fail "the prefix is not accepted as a CANN root"
(
  source "$P/set_env.sh"
  accepts_root "$ASCEND_INSTALL_PATH" && accepts_root "$ASCEND_HOME_PATH"
) || fail "ASCEND_INSTALL_PATH / ASCEND_HOME_PATH from set_env.sh are not accepted roots"

# acl/acl.h (with acl_op.h and acl_mdl.h) compiles as C and C++ with warnings as errors.
cd "$WORK"
printf '#include "acl/acl.h"\n#include "acl/acl_op.h"\n#include "acl/acl_mdl.h"\nint main(void) { return aclInit(0) == ACL_SUCCESS ? 0 : 1; }\n' >hdr.c
cp hdr.c hdr.cpp
quiet cc -std=c11 -Wall -Wextra -Werror $SAN_FLAGS -I "$P/include" -c hdr.c -o hdr_c.o
quiet g++ -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Wextra -Werror $SAN_FLAGS -I "$P/include" -c hdr.cpp -o hdr_cxx.o

# "kernel_operator.h" is on the kernel include path of P/bin/oacl-cc with no
# option, and also the "__NPU_ARCH__" of the SoC given.
cat >asc_kernel.cpp <<'CPP'
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void touch(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t *)out, 1);
    g.SetValue(0, __NPU_ARCH__);
}
CPP
quiet "$P/bin/oacl-cc" -Wall -Werror -o asc_kernel.o asc_kernel.cpp
quiet "$P/bin/oacl-cc" -Wall -Werror -c -o asc_kernel_obj.o asc_kernel.cpp

# ---- libascendcl.so: CANN's older name resolves every ACL symbol itself ------
defined() { nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sed 's/@.*//' | sort -u; }
expect_eq "ACL symbols of libascendcl.so" "$(defined "$P/lib64/libascendcl.so" | grep -c '^acl')" \
  "$(defined "$P/lib64/libacl_rt.so" | grep -c '^acl')"
[ "$(defined "$P/lib64/libascendcl.so")" = "$(defined "$P/lib64/libacl_rt.so")" ] ||
  fail "libascendcl.so does not define what libacl_rt.so defines"
# libacl_rt_impl.so: the name task-graph programs link by path
[ "$(defined "$P/lib64/libacl_rt_impl.so")" = "$(defined "$P/lib64/libacl_rt.so")" ] ||
  fail "libacl_rt_impl.so does not define what libacl_rt.so defines"
defined "$P/lib64/libacl_rt_impl.so" | grep -x aclmdlRIExecuteAsync >/dev/null ||
  fail "libacl_rt_impl.so lacks aclmdlRIExecuteAsync"
cat >ascendcl.cpp <<'CPP'
#include <cstdio>
#include "acl/acl.h"
int main()
{
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        return 1;
    uint32_t n = 0;
    aclrtGetDeviceCount(&n);
    std::printf("devices %u soc %s\n", n, aclrtGetSocName());
    aclrtResetDeviceForce(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : 1;
}
CPP
quiet g++ -std=c++17 -Wall -Werror $SAN_FLAGS -I "$P/include" ascendcl.cpp -L "$P/lib64" -lascendcl \
  -Wl,-rpath,"$P/lib64" -o ascendcl_by_name
quiet g++ -std=c++17 -Wall -Werror $SAN_FLAGS -I "$P/include" ascendcl.cpp "$P/lib64/libascendcl.so" \
  -Wl,-rpath,"$P/lib64" -o ascendcl_by_path
for exe in ascendcl_by_name ascendcl_by_path; do
  expect_eq "$exe" "$(./$exe)" "devices 8 soc $default_soc"
done

# ---- profiler, mstx, dump and log libraries: the runtime under CANN's names ----
for lib in libmsprofiler.so libprofapi.so libms_tools_ext.so libascend_dump.so libascendalog.so; do
  [ "$(defined "$P/lib64/$lib")" = "$(defined "$P/lib64/libacl_rt.so")" ] ||
    fail "$lib does not define what libacl_rt.so defines"
done
[ -x "$P/bin/msprof" ] || fail "bin/msprof is not executable"
cat >observe.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "acl/acl_dump.h"
#include "base/acl_log.h"
#include "mstx/ms_tools_ext.h"
int main(void)
{
    /* profapi is found by name, and is the library already loaded */
    void *h = dlopen("libprofapi.so", RTLD_NOW | RTLD_NOLOAD);
    if (!h || !dlsym(h, "InitInjectionMstx"))
        return 2;
    uint64_t tool = 7;
    mstxGetToolId(&tool); /* header-only mstx finds the tool: no session, no id */
    printf("tool %llu id %llu check %d\n", (unsigned long long)tool, (unsigned long long)aclprofStr2Id("a"),
           acllogCheckDebugLevel(APP, DLOG_ERROR));
    return acldumpGetPath(DATA_DUMP) == NULL ? 0 : 3;
}
C
quiet cc -std=c11 -Wall -Wextra -Werror $SAN_FLAGS -I "$P/include" observe.c -L "$P/lib64" -lmsprofiler \
  -lascend_dump -lascendalog -ldl -Wl,-rpath,"$P/lib64" -o observe
# (dlopen by name searches LD_LIBRARY_PATH, as set_env.sh sets it: the
# sanitizers' dlopen interceptor hides the program's run path)
expect_eq "profiler, dump and log libraries by name" "$(LD_LIBRARY_PATH=$P/lib64 ./observe)" \
  "tool 0 id 416611827809 check 1"
quiet g++ -std=c++17 -Wall -Wextra -Werror $SAN_FLAGS -I "$P/include" -x c++ observe.c -L "$P/lib64" \
  -lmsprofiler -ldl -Wl,-rpath,"$P/lib64" -o observe_cxx
expect_eq "the same from C++" "$(LD_LIBRARY_PATH=$P/lib64 ./observe_cxx)" "tool 0 id 416611827809 check 1"
# oacl-smi prints only table lines (never a bare word) and exits 0
smi_out=$("$P/bin/oacl-smi")
expect_eq "oacl-smi bare lines" "$(printf '%s\n' "$smi_out" | grep -cvE '^[|+]' || true)" 0

# ---- SoC detection (§3) --------------------------------------------------------
# The exact compile line of CANN's tooling (plus the sanitizer flags of
# this build), the program calling aclrtGetSocName() without aclInit, and
# its merged stdout+stderr filtered for the first bare token.
cat >get_soc.cpp <<'CPP'
#include <cstdio>
#include "acl/acl.h"
int main()
{
    const char *name = aclrtGetSocName();
    if (name == nullptr || name[0] == '\0')
        return 1;
    std::printf("%s\n", name);
    return 0;
}
CPP
g++ -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -O2 $SAN_FLAGS -I "$P/include" get_soc.cpp -L "$P/lib64" -lacl_rt \
  -Wl,-rpath,"$P/lib64" -o get_soc
# detect <expected exit status> <expected SoC or empty> [VAR=value...]
detect() {
  local want_rc=$1 want=$2 rc=0
  shift 2
  env "$@" ./get_soc >detect.out 2>&1 || rc=$?
  expect_eq "exit status of the detection program ($*)" "$rc" "$want_rc"
  expect_eq "detected SoC ($*)" "$(first_bare_line detect.out)" "$want"
}
detect 0 "$default_soc"
detect 0 "$default_soc" OACL_LOG_LEVEL=debug
detect 0 "$default_soc" ASCEND_GLOBAL_LOG_LEVEL=0
detect 0 "$default_soc" ASCEND_GLOBAL_LOG_LEVEL=0 ASCEND_LOG_PRINT_TO_STDOUT=1
detect 1 "" OACL_SOC=bogus ASCEND_GLOBAL_LOG_LEVEL=0 ASCEND_LOG_PRINT_TO_STDOUT=1
detect 0 Ascend950PR_9599 OACL_SOC=Ascend950PR_9599 OACL_LOG_LEVEL=debug
detect 0 Ascend310P3 OACL_SOC=Ascend310P3
# Unknown SoC: no name, exit 1, and nothing printed looks like one, not even
# an error message quoting a value with line breaks in it.
detect 1 "" OACL_SOC=bogus
detect 1 "" OACL_SOC=bogus OACL_LOG_LEVEL=debug
detect 1 "" "OACL_SOC=
Ascend910B1
" OACL_LOG_LEVEL=debug
# Loading the library with every log level prints no bare word either.
for level in debug info warning error; do
  OACL_LOG_LEVEL=$level ./get_soc >detect.out 2>&1
  expect_eq "bare lines at log level $level" "$(grep -cE '^[A-Za-z0-9_-]+$' detect.out || true)" 1
done
# The installed helper does the same.
(
  source "$P/set_env.sh"
  expect_eq "get_soc_version" "$(get_soc_version 2>&1)" "$default_soc"
  rc=0
  OACL_SOC=bogus get_soc_version >helper.out 2>&1 || rc=$?
  expect_eq "get_soc_version exit status with an unknown SoC" "$rc" 1
  expect_eq "get_soc_version bare lines with an unknown SoC" "$(first_bare_line helper.out)" ""
)
echo "install layout, libascendcl.so and SoC detection: all checks passed"
