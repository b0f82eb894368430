# sorted versus uniform order in each timing mode
# data: order-modes.dat; drawn by scripts/lib/plots.py
datafile = 'order-modes.dat'
set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
set title "lookup order and timing mode (L1-sized tree, 0% custom)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.7 border -1
set xtics rotate by -30
set ylabel "ns per lookup (10th percentile)"
set xlabel "strategy"
set yrange [0:*]
plot datafile using 2:xtic(1) title columnheader, '' using 3 title columnheader, '' using 4 title columnheader
