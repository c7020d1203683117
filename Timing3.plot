set output 'Timing3.svg
set terminal svg
set multiplot
set grid
set title "Clients end date"
set xlabel "audio cycles"
set ylabel "usec"
plot "/work/me/prof-14472.log" using 1 title "Audio period" with lines, "/work/me/prof-14472.log" using 8 title "Quaver/47" with lines, "/work/me/prof-14472.log" using 16 title "parec/55" with lines
unset multiplot
unset output
