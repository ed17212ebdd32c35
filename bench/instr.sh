#!/usr/bin/env bash
# Instructions the seed workload executes per launch (by function) and the
# reference loop per call (and the seed kernel without its checks, for the
# floor under them), counted by callgrind: unlike timings on a shared
# machine, the counts repeat (within a few hundred instructions per launch,
# the threads' hand-offs), so a change to kernel-side code or to the launch
# path can be judged before the timed benchmark.
#
#   bash bench/instr.sh [build-dir]     (default build-test; needs valgrind)
#
# OACL_INSTR_KERNEL=<add_custom.o> counts another build of the kernel (one
# compiled against older headers, say) on this build's runtime.
# Each side runs twice, N and 3N times, and the difference is divided by 2N:
# loading, initialisation and teardown cancel out. One worker thread and no
# spinning, so that idle threads add no instructions of their own.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-test}
exe=$build/bin/oacl-bench-instr
command -v valgrind >/dev/null || { echo "bench/instr.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
[ -x "$exe" ] || { echo "bench/instr.sh: $exe not built (cmake --build $build --target oacl-bench-instr)" >&2; exit 1; }
n=${OACL_INSTR_N:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OACL_WORKERS=1 OACL_SPIN_US=0 OACL_SYNC_SPIN_US=0 OACL_DEVICE_MEMORY=${OACL_DEVICE_MEMORY:-1G}
for mode in kernel unchecked ref; do
  for k in 1 3; do
    extra=()
    [ "$mode" = kernel ] && [ -n "${OACL_INSTR_KERNEL:-}" ] && extra=("$OACL_INSTR_KERNEL")
    valgrind --tool=callgrind --callgrind-out-file="$tmp/$mode.$k" "$exe" "$mode" $((k * n)) "${extra[@]}" \
      >"$tmp/$mode.$k.log" 2>&1 ||
      { cat "$tmp/$mode.$k.log" >&2; exit 1; }
  done
done
python3 - "$tmp" "$n" <<'PY'
import re, subprocess, sys
tmp, n = sys.argv[1], int(sys.argv[2])
def counts(f):
    out = subprocess.run(["callgrind_annotate", "--inclusive=no", f], capture_output=True, text=True, check=True).stdout
    d = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S.*)$", line)
        if m:
            name = re.sub(r"^(\?\?\?|\S*\.(c|h|S|cpp|hpp)):", "", m.group(2).split(" [")[0])
            d[name] = d.get(name, 0) + int(m.group(1).replace(",", ""))
    return d
per = {}
for mode in ("kernel", "unchecked", "ref"):
    a, b = counts(f"{tmp}/{mode}.1"), counts(f"{tmp}/{mode}.3")
    per[mode] = {k: (b.get(k, 0) - a.get(k, 0)) / (2 * n) for k in set(a) | set(b)}
k, u, r = per["kernel"], per["unchecked"], per["ref"]
total_k, total_u, total_r = k.pop("PROGRAM TOTALS"), u.pop("PROGRAM TOTALS"), r.pop("PROGRAM TOTALS")
print(f"seed workload, instructions per launch (launch + synchronise, 8 blocks, 16384 FP16 adds): {total_k:,.0f}")
for name, v in sorted(k.items(), key=lambda kv: -kv[1])[:12]:
    if v >= 0.005 * total_k:
        print(f"  {v:10,.0f}  {100 * v / total_k:5.1f} %  {name}")
print(f"reference loop, instructions per call: {total_r:,.0f}")
print(f"ratio: {total_k / total_r:.2f}")
print(f"unchecked kernel (the same work, no queue bookkeeping, no range checks), per launch: {total_u:,.0f}, "
      f"ratio to the loop {total_u / total_r:.2f}")
PY
