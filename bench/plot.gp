# Plots oacl-bench's CSV (metric,value,unit,reference,ratio) into one PNG:
#   gnuplot -e "csv='bench/results/latest.csv'; out='bench/results/latest.png'; title='...'" bench/plot.gp
# Panels: add bandwidth (oacl, same-run reference loop, OpenCL if present),
# latencies, ratios to the same-run references, scaling.
if (!exists("csv")) csv = 'bench/results/latest.csv'
if (!exists("out")) out = 'bench/results/latest.png'
if (!exists("title")) title = 'oacl-bench'

set datafile separator ","
set terminal pngcairo size 1400,1000 font "Sans,10"
set output out
set multiplot layout 2,2 title title font "Sans,12"

# value of column c of the row whose metric starts with prefix p, else NaN
is(p) = strstrt(strcol(1), p) == 1
num(p, c) = is(p) ? column(c) : NaN
# the number after the '=' of the metric name
param = 'real(strcol(1)[strstrt(strcol(1), "=") + 1:])'
xparam(p) = is(p) ? @param : NaN

set grid
set key bottom right

# ---- 1: FP16 add bandwidth ----------------------------------------------
set title "FP16 add z = x + y, zero-copy (GB/s = 3 x bytes / time)"
set logscale xy 2
set xlabel "bytes per array"
set ylabel "GB/s"
set format x "%.0b%B"
plot csv using (xparam("add_bandwidth:")):(num("add_bandwidth:", 2)) with linespoints lw 2 pt 7 title "oacl add\\_f16\\_gm", \
     csv using (xparam("add_bandwidth:")):(num("add_bandwidth:", 4)) with linespoints lw 2 pt 5 title "reference C loop (same threads, interleaved)", \
     csv using (xparam("add_bandwidth_ub:")):(num("add_bandwidth_ub:", 2)) with points pt 9 ps 1.5 title "oacl add\\_f16\\_ub (through UB)", \
     csv using (xparam("pocl_add_bandwidth:")):(num("pocl_add_bandwidth:", 2)) with linespoints lw 1 pt 3 dt 2 title "OpenCL (PoCL), separate run"
unset format x

# ---- 2: latencies --------------------------------------------------------
set title "latencies (median, us, log scale): launch + synchronise of an empty kernel (blockDim 1, 8),\nits hand-off floor, the seed kernel and its serial C loop, OpenCL launch + finish"
unset logscale
set logscale y
set xlabel ""
set ylabel "us"
set style fill solid 0.6 border -1
set boxwidth 0.6
set xtics rotate by -30 font ",9"
# bar i: column cols[i] of the row named names[i] (column 4 = the row's reference)
names = "launch_sync_empty:blockDim=1 launch_sync_empty:blockDim=1 launch_sync_empty:blockDim=8 launch_sync_empty:blockDim=8 seed_workload seed_workload pocl_launch_finish_empty:workgroups=1 pocl_launch_finish_empty:workgroups=8"
cols = "2 4 2 4 2 4 2 2"
# one word per bar
labels = "launch(1) floor(1) launch(8) floor(8) seed serial-loop OpenCL(1) OpenCL(8)"
array lat[words(names)]
do for [i = 1:words(names)] {
    lat[i] = NaN
    c = int(word(cols, i))
    stats csv using (strcol(1) eq word(names, i) ? column(c) : NaN) nooutput
    if (STATS_records > 0 && exists("STATS_max")) { lat[i] = STATS_max }
    undefine STATS_*
}
# arrays are plotted through the whitespace-separated data path
set datafile separator whitespace
plot lat using 1:2:xtic(word(labels, int($1))) with boxes lc rgb "#4477aa" notitle, \
     lat using 1:2:(sprintf("%.3g", $2)) with labels offset 0,0.8 notitle
set datafile separator ","
set xtics norotate font ",10"

# ---- 3: ratios to the same-run references ----------------------------------
set title "ratio to the same-run reference"
set logscale x 2
unset logscale y
set xlabel "bytes"
set ylabel "ratio"
set format x "%.0b%B"
set key top right
plot csv using (xparam("add_bandwidth:")):(num("add_bandwidth:", 5)) with linespoints lw 2 pt 7 title "add\\_bandwidth: oacl / reference GB/s (target >= 0.95)", \
     csv using (xparam("register_cost:")):(num("register_cost:", 5)) with linespoints lw 2 pt 5 title "register\\_cost: register / mlock time (target <= 1.1)", \
     1 with lines dt 2 lc rgb "black" notitle
unset format x

# ---- 4: scaling -------------------------------------------------------------
set title "scaling (ratio to 1 block / 1 stream)"
set logscale x 2
set xlabel "blockDim, or number of streams"
set ylabel "speedup"
set key top left
plot csv using (xparam("scaling:blockDim=")):(num("scaling:blockDim=", 5)) with linespoints lw 2 pt 7 title "blockDim: time(1) / time(N), 64 MiB add", \
     csv using (xparam("scaling:streams=")):(num("scaling:streams=", 5)) with linespoints lw 2 pt 5 title "streams: launches/s(N) / launches/s(1)"

unset multiplot
