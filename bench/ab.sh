#!/usr/bin/env bash
# A/B of two oacl-bench builds on one metric group, runs interleaved (A B,
# B A, ...) so that the drift of a shared machine hits both; prints the
# median over the runs of each CSV value and ratio.
#
#   bash bench/ab.sh <oacl-bench A> <oacl-bench B> [runs=30] [group=launch_sync_empty] [--reps N ...]
#
# e.g. the hooks' cost when profiling is off: A built from the base commit
# (git archive <base> | tar -x -C /tmp/base; cmake ... -DOACL_BUILD_BENCH=ON),
# B from this tree.
set -euo pipefail
a=$1 b=$2 runs=${3:-30} group=${4:-launch_sync_empty}
shift $(( $# < 4 ? $# : 4 ))
extra=("$@")
[ ${#extra[@]} -gt 0 ] || extra=(--reps 50)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 "$runs"); do
  order="a b"
  [ $((i % 2)) = 0 ] && order="b a"
  for side in $order; do
    exe=$a
    [ "$side" = b ] && exe=$b
    "$exe" --only "$group" "${extra[@]}" --csv "$tmp/run.csv" >/dev/null 2>&1
    tail -n +2 "$tmp/run.csv" >>"$tmp/$side.csv"
  done
done
median() { sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
for m in $(cut -d, -f1 "$tmp/a.csv" | sort -u); do
  for side in a b; do
    val=$(awk -F, -v m="$m" '$1==m {print $2}' "$tmp/$side.csv" | median)
    ratio=$(awk -F, -v m="$m" '$1==m && $5!="" {print $5}' "$tmp/$side.csv" | median)
    printf '%-40s %s: %10s %s\n' "$m" "$side" "$val" "${ratio:+(ratio $ratio)}"
  done
done
