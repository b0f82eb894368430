# ns/lookup and misses/lookup against the custom-ops share
# data: custom-share.dat; drawn by scripts/lib/plots.py
datafile = 'custom-share.dat'
set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
set multiplot layout 1,2
set key below horizontal
set title 'measured: L1-sized tree, uniform order'
set xlabel 'directories with custom ops (%)'
set ylabel 'ns per lookup (10th percentile)'
plot datafile index 0 using 1:2 with linespoints lw 2 title 'parent_ops', datafile index 1 using 1:2 with linespoints lw 2 title 'flag_gated', datafile index 2 using 1:2 with linespoints lw 2 title 'direct', datafile index 3 using 1:2 with linespoints lw 2 title 'icall_wrapper', datafile index 4 using 1:2 with linespoints lw 2 title 'null_tested', datafile index 5 using 1:2 with linespoints lw 2 title 'flag_hoisted', datafile index 6 using 1:2 with linespoints lw 2 title 'embedded', datafile index 7 using 1:2 with linespoints lw 2 title 'default_ops', datafile index 8 using 1:2 with linespoints lw 2 title 'static_call', datafile index 9 using 1:2 with linespoints lw 2 title 'static_call_tramp'
unset multiplot
