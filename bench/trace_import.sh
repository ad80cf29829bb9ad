#!/usr/bin/env bash
# trace_import.sh RFDSE TRACE N: time `rfdse trace import` on a trace of N blocks made
# from TRACE's first block (grid dim rewritten to (N,1,1), the block repeated with its
# index), and print the text and HDF5 sizes.  docs/performance.md, "Trace import".
set -eu
rfdse=$1 trace=$2 n=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
big=$tmp/big.traceg
sed -n '1,/^#BEGIN_TB/p' "$trace" | sed '$d' | sed "s/^-grid dim = .*/-grid dim = ($n,1,1)/" > "$big"
block=$(sed -n '/^#BEGIN_TB/,/^#END_TB/p' "$trace" | sed '/^thread block = /d; /^#BEGIN_TB/d')
for ((b = 0; b < n; b++)); do
  printf '#BEGIN_TB\n\nthread block = %d,0,0\n%s\n\n' "$b" "$block"
done >> "$big"
start=$(date +%s.%N)
"$rfdse" trace import "$big" -o "$tmp/big.h5" >/dev/null
end=$(date +%s.%N)
t=$(stat -c %s "$big") h=$(stat -c %s "$tmp/big.h5")
awk -v n="$n" -v t="$t" -v h="$h" -v s="$start" -v e="$end" 'BEGIN {
  printf "blocks %d  text %.1f MB  HDF5 %.2f MB (1/%.1f)  import %.2f s\n", n, t / 1e6,
         h / 1e6, t / h, e - s }'
