#!/bin/bash
# check_kernel_traces.sh RFDSE REPO [LIMIT]: the committed traces of the 14 kernels
# (sweeps/workloads/traces/, issue 30) each stay under LIMIT bytes (4 MB, the issue's
# bound), read as PTX traces (binary version 1000) whose registers fit their -nregs,
# carry their predicates (the trace writer's P<n> tokens: each kernel has a branch), and
# have a provenance row; sweeps/reference/traces.cfg names every one of them.
set -u
rfdse=$1 repo=$2 limit=${3:-4194304}
dir=$repo/sweeps/workloads/traces
fail=0 n=0
for f in "$dir"/*.h5; do
  name=$(basename "$f" .h5)
  n=$((n + 1))
  size=$(stat -c %s "$f")
  [ "$size" -lt "$limit" ] || { echo "FAIL: $name: $size bytes, not under $limit"; fail=1; }
  info=$("$rfdse" trace info "$f" 2>&1) || { echo "FAIL: $name: rfdse trace info: $info"; fail=1; continue; }
  grep -q "^binary version 1000," <<<"$info" || { echo "FAIL: $name: not a PTX trace"; fail=1; }
  grep -q "predicates (scoreboard only): [1-9]" <<<"$info" ||
    { echo "FAIL: $name: no predicates (a trace from before the writer had them?)"; fail=1; }
  awk -F'\t' -v b="$name" '$1 == b {found = 1} END {exit !found}' "$dir/provenance.tsv" ||
    { echo "FAIL: $name: no row in provenance.tsv"; fail=1; }
  grep -q "trace = \"sweeps/workloads/traces/$name.h5\"" "$repo/sweeps/reference/traces.cfg" ||
    { echo "FAIL: $name: not in sweeps/reference/traces.cfg"; fail=1; }
done
[ "$n" -gt 0 ] || { echo "FAIL: no trace in $dir"; fail=1; }
[ "$fail" = 0 ] && echo "ok: $n kernel traces, each under $limit bytes"
exit $fail
