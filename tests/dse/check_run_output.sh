#!/usr/bin/env bash
# check_run_output.sh RFDSE SWEEP: what `rfdse run` prints (issue 33 item 5).
# - the progress line's last elapsed time and rate agree with the closing line's (they
#   once disagreed, 3 s against 1.1 s: one counted the set-up, the other did not);
# - --quiet hides the progress lines only: the closing line and the table still print.
set -u
rfdse=$1 sweep=$2
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" # MPI's allocations
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

out=$("$rfdse" run "$sweep" -o "$tmp/a.h5" --chips 2) || bad "run failed"
prog=$(grep -E '^rfdse: \[' <<<"$out" | tail -1)
last=$(grep -E '^rfdse: [0-9]+ units in' <<<"$out")
[ -n "$prog" ] && [ -n "$last" ] || bad "missing lines: $out"
p_el=$(sed -E 's/.* elapsed ([0-9.]+) s .*/\1/' <<<"$prog")
p_rate=$(sed -E 's/.* ([0-9.]+) units\/s .*/\1/' <<<"$prog")
l_el=$(sed -E 's/.* units in ([0-9.]+) s .*/\1/' <<<"$last")
l_rate=$(sed -E 's/.* then ([0-9.]+) units\/s.*/\1/' <<<"$last")
# The same instant and start, printed to 0.1 s and 0.1 units/s (0.01 in the closing line:
# the two roundings differ by at most 0.05 + 0.005).
awk -v a="$p_el" -v b="$l_el" -v r="$p_rate" -v s="$l_rate" \
  'BEGIN { d = r - s; exit !(a == b && d * d <= 0.055 * 0.055) }' ||
  bad "progress says elapsed $p_el s at $p_rate units/s, the closing line $l_el s at $l_rate units/s"
echo "ok: elapsed $p_el s / $l_el s, $p_rate / $l_rate units/s"

out=$("$rfdse" run "$sweep" -o "$tmp/b.h5" --chips 2 --quiet) || bad "quiet run failed"
! grep -qE '^rfdse: \[' <<<"$out" || bad "--quiet printed a progress line"
grep -qE '^rfdse: [0-9]+ units in' <<<"$out" || bad "--quiet hid the closing line"
grep -qE '^technique ' <<<"$out" || bad "--quiet hid the summary table"
echo "ok: --quiet"
exit $fail
