set output 'Timing5.svg
set terminal svg
set multiplot
set grid
set title "Clients duration"
set xlabel "audio cycles"
set ylabel "usec"
plot "/work/me/prof-14472.log" using 10 title "Quaver/47" with lines, "/work/me/prof-14472.log" using 18 title "parec/55" with lines
unset multiplot
unset output
