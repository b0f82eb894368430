# ns/lookup against working-set size
# data: working-set.dat; drawn by scripts/lib/plots.py
datafile = 'working-set.dat'
set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
set arrow from 49152,graph 0 to 49152,graph 1 nohead dt 2 lc rgb '#888888'
set label 'L1 48 KiB' at 49152,graph 0.97 right rotate by 90 tc rgb '#555555'
set arrow from 1048576,graph 0 to 1048576,graph 1 nohead dt 2 lc rgb '#888888'
set label 'L2 1024 KiB' at 1048576,graph 0.97 right rotate by 90 tc rgb '#555555'
set title "ns per lookup against working set (0% custom, uniform, no pollution)"
set logscale x 2
set format x "%.0b %BB"
set offsets graph 0.02, graph 0.1, 0, 0
set xlabel "dentries x (object + 64 bucket) bytes (log scale); dashed lines: cache sizes from CPUID"
set ylabel "ns per lookup (10th percentile)"
plot datafile index 0 using 1:2 with linespoints lw 2 title 'parent_ops', datafile index 1 using 1:2 with linespoints lw 2 title 'flag_gated', datafile index 2 using 1:2 with linespoints lw 2 title 'direct', datafile index 3 using 1:2 with linespoints lw 2 title 'icall_wrapper', datafile index 4 using 1:2 with linespoints lw 2 title 'null_tested', datafile index 5 using 1:2 with linespoints lw 2 title 'flag_hoisted', datafile index 6 using 1:2 with linespoints lw 2 title 'embedded', datafile index 7 using 1:2 with linespoints lw 2 title 'default_ops', datafile index 8 using 1:2 with linespoints lw 2 title 'static_call', datafile index 9 using 1:2 with linespoints lw 2 title 'static_call_tramp'
