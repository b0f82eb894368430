# pointer-chase latency against working set
# data: calibration.dat; drawn by scripts/lib/plots.py
datafile = 'calibration.dat'
set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
set arrow from 49152,graph 0 to 49152,graph 1 nohead dt 2 lc rgb '#888888'
set label 'L1 48 KiB' at 49152,graph 0.97 right rotate by 90 tc rgb '#555555'
set arrow from 1048576,graph 0 to 1048576,graph 1 nohead dt 2 lc rgb '#888888'
set label 'L2 1024 KiB' at 1048576,graph 0.97 right rotate by 90 tc rgb '#555555'
set title "pointer chase: one dependent load per step, random cycle, one pointer per line"
set logscale xy 2
set format x "%.0b %BB"
set offsets graph 0.02, graph 0.1, 0, 0
set xlabel "working set (log scale); dashed lines: cache sizes from CPUID"
set ylabel "ns per load (median, 95% CI; log scale)"
unset key
plot datafile using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb '#aa3377'
