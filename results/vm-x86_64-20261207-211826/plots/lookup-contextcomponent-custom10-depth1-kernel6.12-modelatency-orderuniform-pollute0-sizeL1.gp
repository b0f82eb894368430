# lookup, latency mode, L1 (96 dentries), 10% custom, uniform order, pollution 0 B, depth 1
# data: lookup-contextcomponent-custom10-depth1-kernel6.12-modelatency-orderuniform-pollute0-sizeL1.dat; drawn by scripts/lib/plots.py
datafile = 'lookup-contextcomponent-custom10-depth1-kernel6.12-modelatency-orderuniform-pollute0-sizeL1.dat'
set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
set title "lookup, latency mode, L1 (96 dentries), 10% custom, uniform order, pollution 0 B, depth 1"
set ylabel "ns per lookup: 10th percentile (bars), minimum to median (lines)"
set xlabel "strategy"
set style fill solid 0.6 border -1
set boxwidth 0.6
set yrange [0:*]
set xtics rotate by -30
unset key
plot datafile using 1:3:xtic(2) with boxes lc rgb '#4477aa', \
     datafile using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0
