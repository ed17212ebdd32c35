#!/usr/bin/env bash
# End-to-end: install this build into a fresh prefix, build the task graph
# sample (samples/task_graph) against it as a CANN user would, run it and
# compare its output (and check that its JSON dump parses).
#   test_sample_task_graph.sh <build dir> <source dir> [<sanitizers>]
set -euo pipefail
build_dir=$1
src_dir=$2
sanitize=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cp -r "$src_dir/samples/task_graph" "$work/sample"
rm -rf "$work/sample/build" "$work/sample/out" "$work/sample/output_msg.txt"
args=""
if [ -n "$sanitize" ]; then
  args="-DCMAKE_C_FLAGS=-fsanitize=$sanitize -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=$sanitize"
fi

cd "$work/sample"
SAMPLE_QUIET=1 SAMPLE_CMAKE_ARGS="$args" ASCEND_CANN_PACKAGE_PATH="$work/prefix" \
  timeout 300 bash run.sh >stdout.txt 2>stderr.txt || { echo "sample failed"; cat stdout.txt stderr.txt; exit 1; }

cat >expected.txt <<'TXT'
[INFO]  Start to run task_graph sample.
[INFO]  Captured 4 kernel launches into a graph; nothing ran yet.
[INFO]  Replayed the graph 2 times: 16384 FP16 values are 256.
[INFO]  Wrote the graph to task_graph.json.
[INFO]  Run the task_graph sample successfully.
TXT
diff -u expected.txt stdout.txt
diff -u expected.txt output_msg.txt
if [ -s stderr.txt ]; then
  echo "unexpected output on stderr:"; cat stderr.txt; exit 1
fi
python3 -m json.tool task_graph.json >/dev/null || { echo "task_graph.json is not valid JSON"; exit 1; }
echo "sample output matches"
