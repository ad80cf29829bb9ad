#!/usr/bin/env bash
# check_design_extremes.sh RFDSE: every technique (each preset, and reg_release at the
# ends of rr_row_groups) on the smallest and largest register files the schema accepts,
# generated from the ranges `rfdse list knobs` prints (issue 33 item 15).  For each
# (floorplan, technique): `rfdse validate` either accepts the sweep, and then `rfdse sm`
# must run it (exit 0: no crash), or refuses it with one FILE:LINE line and exit 2.
set -u
rfdse=$1 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
bad() { echo "FAIL: $*"; fail=1; }

knobs=$("$rfdse" list knobs) || { echo "FAIL: rfdse list knobs"; exit 1; }
range() { # range KEY -> "MIN MAX" from the "; [MIN, MAX]" at the end of KEY's line
  printf '%s\n' "$knobs" | awk -v k="$1" '$1 == k { s = $NF; p = $(NF-1); gsub(/[\[,]/, "", p);
    gsub(/\]/, "", s); print p, s }'
}
read -r b_lo b_hi < <(range floorplan.n_banks)
read -r e_lo e_hi < <(range floorplan.entries_per_bank)
read -r s_lo s_hi < <(range floorplan.sub_banks)
read -r r_lo r_hi < <(range sm.n_registers)
read -r g_lo g_hi < <(range 'techniques[].rr_row_groups')
for v in "$b_lo" "$b_hi" "$e_lo" "$e_hi" "$s_lo" "$s_hi" "$r_lo" "$r_hi" "$g_lo" "$g_hi"; do
  case "$v" in ''|*[!0-9]*) echo "FAIL: could not read a range from rfdse list knobs"; exit 1;; esac
done

# floorplans: name, n_banks, entries_per_bank, sub_banks, n_registers
plans="smallest $b_lo $((r_lo / 32 / b_lo)) $s_lo $r_lo
flat $((b_hi / 2)) $e_lo $s_hi $r_lo
flat_no_room $b_hi $e_lo $s_lo $r_lo
largest $b_hi $e_hi $s_hi $((b_hi * e_hi * 32 < r_hi ? b_hi * e_hi * 32 : r_hi))
too_few_entries $((b_hi / 4)) 9 $s_lo $((r_lo * 16))"
techniques=$("$rfdse" list techniques | awk '{ print $1 }')

# one block of one warp: it fits the smallest register file the schema allows
workload='{ name = "tiny"; base = "nn"; block_threads = 32; regs_per_thread = 32;
            grid_blocks = 4; insts_per_warp = 300; }'
accepted=0 refused=0
while read -r plan nb ne ns nr; do
  for t in $techniques rr_g_lo rr_g_hi; do
    case $t in
      rr_g_lo) tech="{ name = \"$t\"; base = \"reg_release\"; rr_row_groups = $g_lo; }" ;;
      rr_g_hi) tech="{ name = \"$t\"; base = \"reg_release\"; rr_row_groups = $g_hi; }" ;;
      *) tech="\"$t\"" ;;
    esac
    cat > s.cfg <<CFG
chips = { count = 1; };
floorplan = { n_banks = $nb; bank_cols = 1; entries_per_bank = $ne; sub_banks = $ns; };
sm = { n_registers = $nr; };
techniques = ( $tech );
workloads = ( $workload );
CFG
    err=$("$rfdse" validate s.cfg 2>&1 >/dev/null); rc=$?
    if [ $rc -ne 0 ]; then
      refused=$((refused + 1))
      [ $rc -eq 2 ] || bad "$plan/$t: validate exit $rc, expected 0 or 2"
      [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || bad "$plan/$t: refusal is not one line: $err"
      continue
    fi
    accepted=$((accepted + 1))
    # a stand-in map with one slow sub-bank: fast/slow placement without a chip map
    # (drawing the 64 x 256 floorplan's chip takes seconds; validate checked it)
    out=$("$rfdse" sm s.cfg --benchmark tiny --technique "$t" --slow-subbanks 1 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 0 ] || bad "$plan/$t ($nb banks x $ne entries, $ns sub-banks, $nr registers):" \
                         "validated, but rfdse sm exit $rc: $out"
  done
done <<< "$plans"
echo "$accepted accepted and run, $refused refused"
[ "$accepted" -gt 0 ] && [ "$refused" -gt 0 ] || bad "expected both accepted and refused cases"
exit $fail
