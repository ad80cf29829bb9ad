#!/usr/bin/env bash
# check_run_store.sh RFDSE SWEEP: rfdse run --run-store (dse/smrun/run_store.c) never
# changes a result: a store cold, then warm on 2 ranks and on 1 (from RFDSE_RUN_STORE),
# then with a damaged file in it, all give /results bit-identical to a run without;
# the chips are kept beside the runs and read back, within the cap (--store-chips);
# the warm runs simulate nothing and say how many runs came from the store; the damaged
# file is named in one warning; a directory that cannot be made is a bad input (2).
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
runs() { sed -n 's/.*SM runs \(simulated [0-9]*, reused [0-9]*[^;]*\);.*/\1/p' "$1"; }
"$rfdse" run "$sweep" -o "$tmp/none.h5" --quiet >"$tmp/none.log" || { echo "FAIL: run"; exit 1; }
mpirun -n 2 "$rfdse" run "$sweep" -o "$tmp/cold.h5" --quiet --run-store "$tmp/store" >"$tmp/cold.log" ||
  { echo "FAIL: cold run"; exit 1; }
mpirun -n 2 "$rfdse" run "$sweep" -o "$tmp/warm2.h5" --quiet --run-store "$tmp/store" >"$tmp/warm2.log" ||
  { echo "FAIL: warm run"; exit 1; }
RFDSE_RUN_STORE=$tmp/store "$rfdse" run "$sweep" -o "$tmp/warm1.h5" --quiet >"$tmp/warm1.log" ||
  { echo "FAIL: warm run, 1 rank"; exit 1; }
for r in none cold warm2 warm1; do echo "$r: $(runs "$tmp/$r.log")"; done
grep -q 'simulated [1-9][0-9]*, reused [0-9]* (0 from the run store)' "$tmp/cold.log" ||
  { echo "FAIL: the cold run should simulate and find nothing stored"; fail=1; }
for r in warm2 warm1; do
  grep -q 'simulated 0, reused [0-9]* ([1-9][0-9]* from the run store)' "$tmp/$r.log" ||
    { echo "FAIL: $r should take every run from the store"; fail=1; }
done
ls "$tmp"/store/*-r0-*.runs "$tmp"/store/*-r1-*.runs >/dev/null ||
  { echo "FAIL: one file per rank expected"; fail=1; }
# a damaged file: one warning naming it, the run goes on, the results do not change
victim=$(ls "$tmp"/store/*.runs | head -1)
printf 'not a segment header, and not 48 bytes long either; but longer than that' >>"$victim"
"$rfdse" run "$sweep" -o "$tmp/damaged.h5" --quiet --run-store "$tmp/store" \
  >"$tmp/damaged.log" 2>"$tmp/damaged.err" || { echo "FAIL: run with a damaged store"; exit 1; }
cat "$tmp/damaged.err"
[ "$(grep -c "warning: run store .*$(basename "$victim")" "$tmp/damaged.err")" = 1 ] ||
  { echo "FAIL: one warning naming the damaged file expected"; fail=1; }
for r in cold warm2 warm1 damaged; do
  h5diff "$tmp/none.h5" "$tmp/$r.h5" /results /results >"$tmp/diff" 2>&1 ||
    { echo "FAIL: /results of $r differ from a run without the store"; head "$tmp/diff"; fail=1; }
done
# chips kept beside the runs: the cold run kept all 6 (below the cap, 256), the warm
# ones read them; --store-chips and RFDSE_STORE_CHIPS cap them, results unchanged
grep -q 'chips from the run store 0, kept 6;' "$tmp/cold.log" ||
  { echo "FAIL: the cold run should keep its 6 chips"; fail=1; }
for r in warm2 warm1; do
  grep -q 'chips from the run store 6, kept 0;' "$tmp/$r.log" ||
    { echo "FAIL: $r should read its 6 chips from the store"; fail=1; }
done
[ "$(ls "$tmp"/store/*.chip | wc -l)" = 6 ] || { echo "FAIL: 6 chip files expected"; fail=1; }
"$rfdse" run "$sweep" -o "$tmp/cap2.h5" --quiet --run-store "$tmp/cap" --store-chips 2 \
  >"$tmp/cap2.log" || { echo "FAIL: --store-chips 2 run"; fail=1; }
RFDSE_STORE_CHIPS=0 "$rfdse" run "$sweep" -o "$tmp/cap0.h5" --quiet --run-store "$tmp/cap" \
  >"$tmp/cap0.log" || { echo "FAIL: RFDSE_STORE_CHIPS=0 run"; fail=1; }
grep -q 'chips from the run store 0, kept 2;' "$tmp/cap2.log" &&
  grep -q 'chips from the run store 0, kept 0;' "$tmp/cap0.log" &&
  [ "$(ls "$tmp"/cap/*.chip | wc -l)" = 2 ] ||
  { echo "FAIL: cap 2 should keep chips 0 and 1 only, cap 0 none"; fail=1; }
for r in cap2 cap0; do
  h5diff "$tmp/none.h5" "$tmp/$r.h5" /results /results >"$tmp/diff" 2>&1 ||
    { echo "FAIL: /results of $r differ from a run without the store"; head "$tmp/diff"; fail=1; }
done
RFDSE_STORE_CHIPS=many "$rfdse" run "$sweep" -o "$tmp/badcap.h5" --quiet --run-store "$tmp/cap" \
  2>"$tmp/badcap.err"
rc=$?
cat "$tmp/badcap.err"
[ "$rc" = 2 ] && [ ! -e "$tmp/badcap.h5" ] ||
  { echo "FAIL: exit $rc for RFDSE_STORE_CHIPS=many, 2 and no file expected"; fail=1; }
# --no-reuse: no store either
"$rfdse" run "$sweep" -o "$tmp/noreuse.h5" --quiet --no-reuse --run-store "$tmp/store" >"$tmp/nr.log" ||
  { echo "FAIL: --no-reuse run"; fail=1; }
grep -q 'from the run store' "$tmp/nr.log" && { echo "FAIL: --no-reuse used the store"; fail=1; }
# a store that cannot be made: bad input, nothing written
touch "$tmp/file"
"$rfdse" run "$sweep" -o "$tmp/bad.h5" --quiet --run-store "$tmp/file/sub" 2>"$tmp/bad.err"
rc=$?
cat "$tmp/bad.err"
[ "$rc" = 2 ] || { echo "FAIL: exit $rc for an impossible store, 2 expected"; fail=1; }
[ -e "$tmp/bad.h5" ] && { echo "FAIL: a results file was made"; fail=1; }
[ "$fail" = 0 ] && echo "ok"
exit $fail
