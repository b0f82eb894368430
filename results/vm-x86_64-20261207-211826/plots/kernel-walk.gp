# the running kernel's path walk against depth, beside the model
# data: kernel-walk.dat; drawn by scripts/lib/plots.py
datafile = 'kernel-walk.dat'
set termoption noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key outside right top
set title "the running kernel: fstatat() against path depth (6.18.44-fc-v1272)"
set xlabel "path depth (components)"
set ylabel "ns per fstatat() (median over repetitions)"
set key inside left top
plot datafile index 0 using 1:2 with points pt 7 ps 1.2 lc 1 title 'cold: live kernel', 2638.6613 + 532.0596 * x with lines lc 1 title 'cold: fit, 532.1 ns per component', datafile index 1 using 1:2 with points pt 7 ps 1.2 lc 2 title 'hot: live kernel', 1635.8022 + 44.8577 * x with lines lc 2 title 'hot: fit, 44.9 ns per component', 1635.8022 + 27.4719 * x with lines dt 2 lw 2 title 'model direct, Linux 6.1: 27.5 ns per component', 1635.8022 + 18.1133 * x with lines dt 2 lw 2 title 'model direct, Linux 6.12: 18.1 ns per component'
