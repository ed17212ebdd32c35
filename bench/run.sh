#!/usr/bin/env bash
# Runs oacl's benchmark suite and writes bench/results/latest.csv (and
# latest.txt, the printed tables, and latest.png, the plot):
#
#   bash run.sh && bash bench/run.sh            # full run (several minutes)
#   bash bench/run.sh --quick                   # small sizes, few rounds (< 1 min)
#
# Options are passed to oacl-bench (--quick, --reps N, --only PREFIX, ...).
# It builds (or reuses) the Release build in build/ that run.sh makes, and
# uses the zero-copy sample built against build/install for sample_process
# (building it there if run.sh has not yet). As root it installs gnuplot-nox
# and, for the OpenCL comparison, pocl-opencl-icd, ocl-icd-opencl-dev and
# clinfo when they are missing; without them it still runs (no plot, no
# OpenCL rows). OACL_BENCH_OCL=0 skips the OpenCL comparison.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/deps.sh"
build="$root/build"
prefix="$root/build/install"
results="$root/bench/results"
mkdir -p "$results"

quick=0
only=0
reps=()
prev=""
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    --only) only=1 ;;
  esac
  [ "$prev" = "--reps" ] && reps=(--reps "$a")
  prev=$a
done

# ---- packages ----------------------------------------------------------------
oacl_need_packages "${OACL_BUILD_PACKAGES[@]}"
want_ocl=${OACL_BENCH_OCL:-1}
if [ "$(id -u)" = 0 ]; then
  oacl_need_packages gnuplot-nox || echo "bench/run.sh: could not install gnuplot-nox; no plot" >&2
  if [ "$want_ocl" = 1 ]; then
    oacl_need_packages pocl-opencl-icd ocl-icd-opencl-dev clinfo ||
      echo "bench/run.sh: could not install the OpenCL packages; no OpenCL comparison" >&2
  fi
fi

# ---- build -------------------------------------------------------------------
mkdir -p "$build"
log="$build/bench-build.log"
if [ -f "$build/CMakeCache.txt" ]; then
  configure=(cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DOACL_BUILD_BENCH=ON)
else # the same configuration as run.sh
  configure=(cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DOACL_BUILD_TESTS=OFF
    -DOACL_BUILD_BENCH=ON -DCMAKE_INSTALL_PREFIX="$prefix")
fi
if ! { "${configure[@]}" && cmake --build "$build" -j "$(nproc)" --target acl_rt oacl-cc oacl-bench; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "bench/run.sh: building oacl-bench failed (log: $log)" >&2
  exit 1
fi
# The OpenCL program exists only where CMake found OpenCL: try to build it.
ocl_bin=""
if [ "$want_ocl" = 1 ] && [ "$only" = 0 ] &&
  cmake --build "$build" -j "$(nproc)" --target oacl-bench-ocl >>"$log" 2>&1; then
  ocl_bin="$build/bin/oacl-bench-ocl"
fi

# ---- the installed sample, for sample_process ----------------------------------
sample_dir="$root/samples/0_simple_zero_copy"
sample_args=()
if [ -d "$prefix/lib64" ] && [ "$(grep -s '^CMAKE_INSTALL_PREFIX:' "$build/CMakeCache.txt" | cut -d= -f2-)" = "$prefix" ]; then
  # keep the install current with the build just made (as run.sh does)
  cmake --install "$build" >>"$log" 2>&1 || true
  if [ ! -x "$sample_dir/build/main" ] || [ ! -f "$sample_dir/out/fatbin/simple_zero_copy_kernel/simple_zero_copy_kernel.o" ]; then
    ASCEND_CANN_PACKAGE_PATH="$prefix" SAMPLE_QUIET=1 bash "$sample_dir/run.sh" >/dev/null 2>>"$log" ||
      echo "bench/run.sh: building the zero-copy sample failed; sample_process skipped" >&2
  fi
  if [ -x "$sample_dir/build/main" ]; then
    sample_args=(--sample "$sample_dir/build/main" --sample-dir "$sample_dir")
  fi
else
  echo "bench/run.sh: no install in $prefix (run 'bash run.sh' first); sample_process skipped" >&2
fi

# ---- run -------------------------------------------------------------------------
csv="$results/latest.csv"
txt="$results/latest.txt"
tmp_csv=$(mktemp)
trap 'rm -f "$tmp_csv"' EXIT
"$build/bin/oacl-bench" --csv "$tmp_csv" "${sample_args[@]}" "$@" | tee "$txt"

if [ -n "$ocl_bin" ]; then
  ocl_args=()
  [ "$quick" = 1 ] && ocl_args+=(--quick)
  ocl_args+=("${reps[@]}")
  ref_csv=$(mktemp)
  cp "$tmp_csv" "$ref_csv"
  echo | tee -a "$txt"
  if ! "$ocl_bin" "${ocl_args[@]}" --csv "$tmp_csv" --ref-csv "$ref_csv" 2>&1 | tee -a "$txt"; then
    echo "bench/run.sh: the OpenCL comparison did not run (no OpenCL CPU platform?)" | tee -a "$txt" >&2
  fi
  rm -f "$ref_csv"
fi
cp "$tmp_csv" "$csv"
chmod 644 "$csv"
# the CSV as a Markdown table (for the README)
awk -F, 'NR == 1 { print "| metric | value | unit | reference | ratio |"; print "| --- | ---: | --- | ---: | ---: |"; next }
  { printf "| `%s` | %s | %s | %s | %s |\n", $1, $2, $3, ($4 == "" ? "-" : $4), ($5 == "" ? "-" : $5) }' \
  "$csv" >"$results/latest.md"
echo "bench/run.sh: wrote $csv, $txt and $results/latest.md"

# ---- plot ------------------------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
  title="oacl-bench $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'))"
  [ "$quick" = 1 ] && title="$title, --quick"
  if gnuplot -e "csv='$csv'; out='$results/latest.png'; title='$title'" "$root/bench/plot.gp"; then
    echo "bench/run.sh: wrote $results/latest.png"
  else
    echo "bench/run.sh: gnuplot failed; no plot" >&2
  fi
else
  echo "bench/run.sh: gnuplot not installed; no plot" >&2
fi
