set output 'Timing4.svg
set terminal svg
set multiplot
set grid
set title "Clients scheduling latency"
set xlabel "audio cycles"
set ylabel "usec"
plot "/work/me/prof-14472.log" using 9 title "Quaver/47" with lines, "/work/me/prof-14472.log" using 17 title "parec/55" with lines
unset multiplot
unset output
