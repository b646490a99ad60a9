# Charts of results.tsv (run.sh): time against contact count, one line per system and path, as
# the seed drew them. Run in the folder holding results.tsv.
set datafile separator "\t"
set logscale xy
# A fixed range: a path without rows for an operation (saves run once per system) would
# otherwise leave gnuplot without an x range and stop the loop.
set xrange [40:16000]
set yrange [1:1e7]
set xlabel "contacts"
set key left top
set grid
paths = "quarry:embedded quarry:store quarry:store_auto quarry:store_fd quarry:store_dbus quarry:direct tracker3.4:local"
# Rows of one system, path and operation: "count micros".
sel(p, op) = sprintf("< awk -F'\\t' -v s=%s -v p=%s -v op=%s '$1==s && $2==p && $4==op {print $3, $5}' results.tsv", \
                     substr(p, 1, strstrt(p, ":") - 1), substr(p, strstrt(p, ":") + 1, 99), op)
do for [op in "save_batch save_one fetch_all fetch_one fetch_10 fetch_100 prefix_short prefix_long suffix email phone_suffix fetch_one_unprepared email_unprepared prefix_short_uids prefix_long_uids suffix_uids email_uids phone_suffix_uids search_prefix_short search_prefix_long search_suffix search_email search_phone_suffix"] {
  set terminal svg size 800,500 dynamic
  set output op.".svg"
  set title op.(op eq "save_batch" || op eq "save_one" ? " (µs per contact)" : " (µs per query)")
  set ylabel "µs"
  plot for [p in paths] sel(p, op) using 1:2 with linespoints title p
  set terminal pngcairo size 800,500
  set output op.".png"
  replot
}
