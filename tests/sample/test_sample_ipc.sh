#!/usr/bin/env bash
# End-to-end: install this build into a fresh prefix, build the IPC memory
# sample (samples/ipc_memory) against it as a CANN user would, run it (two
# processes) and compare its output.
#   test_sample_ipc.sh <build dir> <source dir> [<sanitizers>]
set -euo pipefail
build_dir=$1
src_dir=$2
sanitize=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cp -r "$src_dir/samples/ipc_memory" "$work/sample"
rm -rf "$work/sample/build" "$work/sample/out" "$work/sample/output_msg.txt"
args=""
if [ -n "$sanitize" ]; then
  args="-DCMAKE_C_FLAGS=-fsanitize=$sanitize -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=$sanitize"
fi

cd "$work/sample"
SAMPLE_QUIET=1 SAMPLE_CMAKE_ARGS="$args" ASCEND_CANN_PACKAGE_PATH="$work/prefix" \
  timeout 300 bash run.sh >stdout.txt 2>stderr.txt || { echo "sample failed"; cat stdout.txt stderr.txt; exit 1; }

cat >expected.txt <<'TXT'
[INFO]  Start to run ipc_memory sample.
[INFO]  Process A exported 16384 FP16 values of device memory under a key.
[INFO]  Process B imported the key and doubled the values with a kernel.
[INFO]  Verified 16384 FP16 results written by process B's kernel.
[INFO]  Run the ipc_memory sample successfully.
TXT
diff -u expected.txt stdout.txt
diff -u expected.txt output_msg.txt
if [ -s stderr.txt ]; then
  echo "unexpected output on stderr:"; cat stderr.txt; exit 1
fi
echo "sample output matches"
