# dispatch cost as a share of path cost: both case studies
# data: dispatch-share.dat; drawn by scripts/lib/plots.py
datafile = 'dispatch-share.dat'
set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
set title "dispatch: the spread between strategies as a share of the path's time"
set logscale y 10
set format y "%g%%"
set style fill solid 0.8 border -1
set boxwidth 0.6
set xtics rotate by 25 right
set ylabel "spread between strategies / path time (log scale)"
set bmargin 9
unset key
plot datafile using 1:2:xtic(3) with boxes lc rgb '#4477aa'
