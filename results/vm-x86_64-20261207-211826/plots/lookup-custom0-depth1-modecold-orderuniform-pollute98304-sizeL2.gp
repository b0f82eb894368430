# lookup, cold mode, L2 (2048 dentries), 0% custom, uniform order, pollution 98304 B, depth 1
# data: lookup-custom0-depth1-modecold-orderuniform-pollute98304-sizeL2.dat; drawn by scripts/lib/plots.py
datafile = 'lookup-custom0-depth1-modecold-orderuniform-pollute98304-sizeL2.dat'
set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
set title "lookup, cold mode, L2 (2048 dentries), 0% custom, uniform order, pollution 98304 B, depth 1"
set ylabel "ns per lookup: 10th percentile (bars), minimum to median (lines)"
set xlabel "strategy"
set style fill solid 0.6 border -1
set boxwidth 0.6
set yrange [0:*]
set xtics rotate by -30
unset key
plot datafile using 1:3:xtic(2) with boxes lc rgb '#4477aa', \
     datafile using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0
