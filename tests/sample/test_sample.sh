#!/usr/bin/env bash
# End-to-end: install this build into a fresh prefix, build the zero-copy
# sample against it the way a CANN user builds against an install (its own
# CMake project, ascendc_fatbin_library, the prefix's libacl_rt.so), run it
# and compare its output with the seed's four lines.
#   test_sample.sh <build dir> <source dir> [<sanitizers>]
set -euo pipefail
build_dir=$1
src_dir=$2
sanitize=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cp -r "$src_dir/samples/0_simple_zero_copy" "$work/sample"
rm -rf "$work/sample/build" "$work/sample/out" "$work/sample/output_msg.txt"
args=""
if [ -n "$sanitize" ]; then
  # The runtime is instrumented: the program must be too, so that the
  # sanitizer's runtime is loaded first.
  args="-DCMAKE_C_FLAGS=-fsanitize=$sanitize -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=$sanitize"
fi

cd "$work/sample"
SAMPLE_QUIET=1 SAMPLE_CMAKE_ARGS="$args" ASCEND_CANN_PACKAGE_PATH="$work/prefix" bash run.sh >stdout.txt 2>stderr.txt || {
  echo "sample failed"; cat stdout.txt stderr.txt; exit 1; }

cat >expected.txt <<'TXT'
[INFO]  Start to run simple_zero_copy sample.
[INFO]  Registered three Host buffers and obtained their Device mapping addresses.
[INFO]  Verified 16384 FP16 additions through mapped Host memory.
[INFO]  Run the simple_zero_copy sample successfully.
TXT
diff -u expected.txt stdout.txt
diff -u expected.txt output_msg.txt
# The kernel binary was written at build time where the program loads it.
test -f out/fatbin/simple_zero_copy_kernel/simple_zero_copy_kernel.o
if [ -s stderr.txt ]; then
  echo "unexpected output on stderr:"; cat stderr.txt; exit 1
fi
echo "sample output matches the seed"
