#!/usr/bin/env bash
# The figure of the premises study (issue 34, docs/reproducing.md "Where rfdse and the core
# paper disagree, and why"): lifetime performance and IPC of vl_rf, vl_sb, rf_bro and
# pv_opt under each assumption of sweeps/reference/premises-*.cfg, from the CSV files that
# `rfdse analyze results/premises-NAME.h5 --csv CSV_DIR` wrote.  Also prints the numbers
# as a Markdown table.
# Usage: scripts/premises-figure.sh [CSV_DIR] [OUT.png]
#        (defaults: results/csv, results/figures/premises.png); needs gnuplot.
set -euo pipefail
csv=${1:-results/csv}
out=${2:-results/figures/premises.png}
cd "$(dirname "$0")/.."
command -v gnuplot >/dev/null || { echo "premises-figure: gnuplot not found" >&2; exit 2; }

# Assumption order: the defaults first, then the SM side, then the frequency side.
names=(hold_port pipelined replay stall_collector shared_ports physical_ports chip_1to4
       chip_1to4_replay)
labels=("defaults\\n(hold port)" "pipelined" "replay" "stall collector" "shared\\nports"
        "physical\\nBRO ports" "domain chip,\\n1:4" "domain chip, 1:4,\\nreplay")
techs=(vl_rf vl_sb rf_bro pv_opt)
colours=("#a1caf1" "#604e97" "#008856" "#be0032") # analysis/gnuplot.c's

# mean and 95 % CI of view $2 (chip_performance, chip_ipc) of technique $3 in the
# statistics table $1 (STEM_stats.csv of `rfdse analyze --csv`: view, technique, ...,
# mean in column 7, the interval in 9 and 10)
row() { awk -F, -v v="$2" -v t="$3" '$1 == v && $2 == t { print $7, $9, $10 }' "$1"; }

# vl_rf minus pv_opt, chip by chip (same chips: a paired difference), of a chip's
# performance (the mean over workloads) from the per-chip CSV: mean, 95 % CI half-width,
# chips where vl_rf is ahead
paired() {
  awk -F, '$5 == "performance" && ($2 == "vl_rf" || $2 == "pv_opt") {
             s[$2 "," $1] += $6; n[$2 "," $1]++; chip[$1] = 1 }
           END { for (c in chip) { d = s["vl_rf," c] / n["vl_rf," c] - s["pv_opt," c] / n["pv_opt," c]
                                   k++; sum += d; sq += d * d; win += d > 0 }
                 m = sum / k; sd = sqrt((sq - k * m * m) / (k - 1))
                 printf "%+.4f ± %.4f (%d of %d)", m, 1.96 * sd / sqrt(k), win, k }' "$1"
}

data=$(mktemp)
trap 'rm -f "$data"' EXIT
n=0 xt=""
printf '| assumption | metric | %s | vl_rf - pv_opt, paired (chips vl_rf ahead) |\n|---|---|---|---|---|---|---|\n' \
  "$(IFS='|'; echo "${techs[*]}" | sed 's/|/ | /g')"
for i in "${!names[@]}"; do
  s=${names[$i]}
  stats="$csv/premises-${s}_stats.csv"
  [ -f "$stats" ] || { echo "premises-figure: $stats missing, skipped" >&2; continue; }
  line="$n"
  xt="$xt${xt:+, }\"${labels[$i]}\" $n"
  pl="| ${s} | lifetime performance" il="| | IPC"
  for t in "${techs[@]}"; do
    read -r pm plo phi < <(row "$stats" chip_performance "$t")
    read -r im ilo ihi < <(row "$stats" chip_ipc "$t")
    line="$line $pm $plo $phi $im $ilo $ihi"
    pl="$pl | $(printf '%.3f' "$pm")" il="$il | $(printf '%.3f' "$im")"
  done
  echo "$line" >>"$data"
  per="$csv/premises-${s}_per_chip.csv"
  echo "$pl | $([ -f "$per" ] && paired "$per" || echo -) |"
  echo "$il | |"
  n=$((n + 1))
done
# the chip count: column n (5) of a chip_performance row of the first statistics table
chips=$(awk -F, '$1 == "chip_performance" { print $5; exit }' "$csv/premises-${names[0]}_stats.csv" 2>/dev/null)
chips=${chips:-?}
[ "$n" -gt 0 ] || { echo "premises-figure: no premises-*_stats.csv in $csv" >&2; exit 2; }
mkdir -p "$(dirname "$out")"

plot() { # column offset (0: performance, 3: IPC)
  local off=$1 sep=""
  for k in "${!techs[@]}"; do
    local c=$((2 + 6 * k + off))
    printf '%s$d using ($1+%.3f):%d:%d:%d:(0.095) with boxerrorbars lc rgb "%s" fs solid 0.85 border lc rgb "#333333" title "%s"' \
      "$sep" "$(echo "0.2 * ($k - 1.5)" | bc -l)" "$c" "$((c + 1))" "$((c + 2))" "${colours[$k]}" \
      "${techs[$k]//_/\\\\_}"
    sep=", "
  done
  echo
}

gnuplot <<EOF
set terminal pngcairo size 1500,1000 font 'Sans,11'
set output '$out'
\$d << EOD
$(cat "$data")
EOD
set style data boxerrorbars
set grid ytics
set xtics ($xt)
set xrange [-0.6:$n - 0.4]
set key outside right top
set bmargin 4
set multiplot layout 2,1 title "{/:Bold=15 Which assumptions decide vl\\\\_rf against the sub-bank techniques}  {/=11 ($chips chips, 14 workloads, mean over chips, 95 % CI; the y axes do not start at 0)}"
set title "{/:Bold Lifetime performance (IPC x frequency after 7 years of NBTI)}"
set ylabel "normalised to ideal"
set yrange [0.4:*]
plot $(plot 0)
set title "{/:Bold IPC (mean over workloads)}"
set ylabel "normalised to ideal"
set yrange [0.5:1.02]
plot $(plot 3)
unset multiplot
EOF
echo "premises-figure: $out"
