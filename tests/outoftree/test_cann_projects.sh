#!/usr/bin/env bash
# Out of tree, exactly what a CANN user does with an install P:
#   source P/set_env.sh; detect the SoC with the §3 program;
#   cmake -B build -DASCEND_CANN_PACKAGE_PATH=P; build; cmake --install build;
#   run from the project directory
# for (a) the C++ zero-copy sample (AscendC kernel via ascendc_fatbin_library,
# through the sample's own run.sh) and (b) a program whose kernels and <<<>>>
# wrappers come from ascendc_library and which links only that target.
# Also: both programs from two processes on device 0 at once, and the
# installed programs without LD_LIBRARY_PATH.
#   test_cann_projects.sh <build dir> <source dir> <sanitizers> <default SoC>
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../toolchain/common.sh"
oacl_test_init "$1" "${3:-}"
src_dir=$2
default_soc=$4
oacl_export_san_flags

# ---- the user's shell ---------------------------------------------------------
source "$P/set_env.sh"
unset SOC_VERSION # detected below, as CANN's sample tooling does
mkdir "$WORK/detect"
cat >"$WORK/detect/get_soc.cpp" <<'CPP'
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
(cd "$WORK/detect" &&
  g++ -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -O2 $SAN_FLAGS -I "$ASCEND_HOME_PATH/include" get_soc.cpp \
    -L "$ASCEND_HOME_PATH/lib64" -lacl_rt -Wl,-rpath,"$ASCEND_HOME_PATH/lib64" -o get_soc &&
  ./get_soc >out.txt 2>&1) || fail "SoC detection program"
SOC_VERSION=$(first_bare_line "$WORK/detect/out.txt")
expect_eq "detected SoC" "$SOC_VERSION" "$default_soc"
export SOC_VERSION

seed_lines='[INFO]  Start to run simple_zero_copy sample.
[INFO]  Registered three Host buffers and obtained their Device mapping addresses.
[INFO]  Verified 16384 FP16 additions through mapped Host memory.
[INFO]  Run the simple_zero_copy sample successfully.'

# ---- (a) the C++ zero-copy sample with its AscendC kernel ---------------------
cp -r "$src_dir/samples/0_simple_zero_copy_cpp" "$WORK/zero_copy"
rm -rf "$WORK/zero_copy/build" "$WORK/zero_copy/out" "$WORK/zero_copy/output_msg.txt"
cd "$WORK/zero_copy"
bash run.sh >run.out 2>run.err || { cat run.out run.err; fail "(a) run.sh"; }
expect_eq "(a) output_msg.txt" "$(cat output_msg.txt)" "$seed_lines"
expect_eq "(a) last lines of run.sh" "$(tail -n 4 run.out)" "$seed_lines"
[ -f out/fatbin/simple_zero_copy_kernel/simple_zero_copy_kernel.o ] || fail "(a) kernel binary missing"
# Installed program: run path to P/lib64, no LD_LIBRARY_PATH needed.
expect_eq "(a) out/bin/main" "$(env -u LD_LIBRARY_PATH ./out/bin/main 2>&1)" "$seed_lines"
# Two processes on device 0 at once.
./build/main >p1.txt 2>&1 &
pid1=$!
./build/main >p2.txt 2>&1 &
pid2=$!
wait "$pid1" || { cat p1.txt; fail "(a) first of two concurrent processes"; }
wait "$pid2" || { cat p2.txt; fail "(a) second of two concurrent processes"; }
expect_eq "(a) concurrent process 1" "$(cat p1.txt)" "$seed_lines"
expect_eq "(a) concurrent process 2" "$(cat p2.txt)" "$seed_lines"

# ---- (b) kernels and <<<>>> wrappers from ascendc_library ---------------------
cp -r "$src_dir/tests/outoftree/launch_project" "$WORK/launch"
cd "$WORK/launch"
quiet cmake -B build -DASCEND_CANN_PACKAGE_PATH="$ASCEND_HOME_PATH"
quiet cmake --build build -j
quiet cmake --install build

round='[host] round R
hello from block 0 of 4: base=100 scale=0.50
hello from block 1 of 4: base=100 scale=0.50
hello from block 2 of 4: base=100 scale=0.50
hello from block 3 of 4: base=100 scale=0.50
hello from block 0 of 2: base=200 scale=2.00
hello from block 1 of 2: base=200 scale=2.00
[host] launches 0 0 sync 0
[host] out 50.0 50.5 51.0 51.5 -1.0 400.0 402.0
[host] trap sync 507015
hello from block 0 of 1: base=7 scale=1.00
[host] after trap: launch 0 sync 0 out 7.0
hello from block 0 of 1: base=1 scale=3.00
[host] default stream: launch 0 sync 0 out 3.0'
want_b="${round/R/1}
${round/R/2}
[host] done"
# Kernel lines of one launch may come in any block order: compare each run
# of them sorted. The launches of a stream run in order, so the runs of
# different launches are told apart by their "of N" and values.
normalise() {
  awk '
    function flush() { if (n) { cmd = "sort"; for (i = 1; i <= n; i++) print buf[i] | cmd; close(cmd); n = 0 } }
    /^hello from block / { key = $0; sub(/^hello from block [0-9]+ /, "", key)
                           if (n && key != last) flush(); last = key; buf[++n] = $0; next }
    { flush(); print }
    END { flush() }'
}
check_b() { # <what> <stdout file> <stderr file>
  expect_eq "(b) $1" "$(normalise <"$2")" "$(printf '%s\n' "$want_b" | normalise)"
  # stderr: the runtime's report of each trap, and nothing else.
  expect_eq "(b) $1: trap reports on stderr" "$(grep -c "kernel 'trap_kernel' block 1/4: trap" "$3" || true)" 2
  if grep -v '^\[oacl ' "$3" | grep . >/dev/null; then cat "$3"; fail "(b) $1: unexpected stderr"; fi
}
./build/main >run.out 2>run.err || { cat run.out run.err; fail "(b) build/main"; }
check_b "build/main" run.out run.err
env -u LD_LIBRARY_PATH ./out/bin/main >inst.out 2>inst.err || { cat inst.out inst.err; fail "(b) out/bin/main"; }
check_b "out/bin/main without LD_LIBRARY_PATH" inst.out inst.err
./build/main >p1.out 2>p1.err &
pid1=$!
./build/main >p2.out 2>p2.err &
pid2=$!
wait "$pid1" || { cat p1.out p1.err; fail "(b) first of two concurrent processes"; }
wait "$pid2" || { cat p2.out p2.err; fail "(b) second of two concurrent processes"; }
check_b "concurrent process 1" p1.out p1.err
check_b "concurrent process 2" p2.out p2.err
echo "CANN projects out of tree: (a) zero-copy sample and (b) ascendc_library launches passed"
