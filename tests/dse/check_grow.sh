#!/usr/bin/env bash
# check_grow.sh RFDSE DIR: --resume with a sweep that adds chips, points and techniques
# (DIR/small.cfg -> DIR/big.cfg, under mpirun -n 2) computes only the new units and
# gives the file a fresh run of the grown sweep gives; a plain sweep without aging gains
# workloads the same way; a changed seed, knob value or technique option is refused
# with one line naming the key and both values, leaving the file untouched.
set -u
rfdse=$1 dir=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
units() { sed -n 's/^rfdse: \([0-9]*\) units in.*/\1/p' "$1"; }
"$rfdse" run "$dir/small.cfg" -o "$tmp/g.h5" --quiet || { echo "FAIL: small run"; exit 1; }
cp "$tmp/g.h5" "$tmp/small.h5"
mpiexec -n 2 "$rfdse" run "$dir/big.cfg" -o "$tmp/g.h5" --resume --flush-interval 0 > "$tmp/grow.log" \
  || { echo "FAIL: grow"; cat "$tmp/grow.log"; exit 1; }
"$rfdse" run "$dir/big.cfg" -o "$tmp/full.h5" > "$tmp/full.log" || { echo "FAIL: full run"; exit 1; }
new=$(units "$tmp/grow.log") all=$(units "$tmp/full.log")
# small: 2 points x 2 chips x 2 techniques = 8 units; big: 3 x 3 x 3 = 27
[ "$new" = 19 ] && [ "$all" = 27 ] || { echo "FAIL: grow computed $new units (want 19 of $all)"; fail=1; }
for g in /results /chips /progress; do
  h5diff -r "$tmp/g.h5" "$tmp/full.h5" "$g" "$g" >"$tmp/diff" 2>&1 \
    || { echo "FAIL: $g of the grown file differs from a fresh run"; head "$tmp/diff"; fail=1; }
done
h5diff "$tmp/g.h5" "$tmp/full.h5" /axes/knob/variation.vth_sigma /axes/knob/variation.vth_sigma \
  >/dev/null || { echo "FAIL: knob coordinates differ"; fail=1; }
# Refused: one line naming the key and both values, exit 2, the file untouched.
refuse() { # WANT SWEEP [OPTIONS]
  local want=$1 sweep=$2; shift 2
  cp "$tmp/small.h5" "$tmp/r.h5"
  err=$("$rfdse" run "$sweep" -o "$tmp/r.h5" --resume --quiet "$@" 2>&1 >/dev/null); rc=$?
  { [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] && [[ "$err" == *"$want"* ]]; } \
    || { echo "FAIL: want '$want', got rc=$rc: $err"; fail=1; }
  cmp -s "$tmp/r.h5" "$tmp/small.h5" || { echo "FAIL: a refused grow changed the file"; fail=1; }
}
refuse "key 'chips.seed' is 1 in the file and 9 here" "$dir/big.cfg" --seed 9
sed 's/0.06, 0.09, 0.12/0.06, 0.13/' "$dir/big.cfg" > "$tmp/moved.cfg"
refuse "key 'variation.vth_sigma' is 0.12 in the file and 0.13 here" "$tmp/moved.cfg"
sed 's/"vl_sb" )/{ name = "vl_sb"; base = "vl_sb"; fast_percent = 80.0; } )/' "$dir/big.cfg" > "$tmp/opt.cfg"
refuse "technique 'vl_sb': key 'fast_percent' is 70.0 in the file and 80.0 here" "$tmp/opt.cfg"
sed 's/insts_per_warp = 60; } )/insts_per_warp = 60; }, "nn" )/' "$dir/big.cfg" > "$tmp/wl.cfg"
refuse "an aging sweep cannot gain workloads" "$tmp/wl.cfg"
# Without aging a plain sweep gains workloads.
sed '/^axes/d; s/years = \[0.0, 1.0\]/years = [0.0]/' "$dir/small.cfg" > "$tmp/p1.cfg"
sed 's/insts_per_warp = 60; } )/insts_per_warp = 60; }, { name = "hot"; base = "hotspot"; insts_per_warp = 60; } )/' \
  "$tmp/p1.cfg" > "$tmp/p2.cfg"
"$rfdse" run "$tmp/p1.cfg" -o "$tmp/p.h5" --quiet && "$rfdse" run "$tmp/p2.cfg" -o "$tmp/p.h5" --resume --quiet \
  && "$rfdse" run "$tmp/p2.cfg" -o "$tmp/pf.h5" --quiet || { echo "FAIL: plain workload growth"; fail=1; }
h5diff -r "$tmp/p.h5" "$tmp/pf.h5" /results /results >/dev/null || { echo "FAIL: workloads grown differ"; fail=1; }
[ $fail -eq 0 ] && echo "ok: grew 8 -> 27 units computing 19; refusals name key and values"
exit $fail
