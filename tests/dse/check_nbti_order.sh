#!/usr/bin/env bash
# check_nbti_order.sh RFDSE: what the NBTI-aware techniques win back (docs/nbti.md section 5),
# on 8 chips x 14 workloads over the default 7-year schedule, under the default (source's)
# NBTI law.  Paired per (chip, workload), a claim "A < B" holds when the mean of B - A
# exceeds twice its standard error.
# - kernel-level reorganisation alone lowers pv_opt's guardband;
# - with the all-warps renaming order (the presets'), pv_opt_nbti_opt's guardband is below
#   pv_opt's and nbti_opt's below rf_bro's (the issue's pv_opt >= pv_opt_nbti_opt);
# - the all-warps order relieves the near-boundary fast sub-banks: their share of the
#   accesses at time zero is below rf_bro's on SM 0 of the traced chip.
# The paper's last-warp order (*_lw) and baseline vs pv_opt are printed, not asserted: the
# last-warp order reverses the claims, and baseline > pv_opt is within noise on 8 chips
# (it holds by 2.9 SE on the 100-chip reference sweep; docs/nbti.md section 5).
set -u
rfdse=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/o.cfg" <<'CFG'
chips = { count = 8; seed = 7L; };
techniques = ( "baseline", "rf_bro", "pv_opt",
  { name = "nbti_opt_lw"; base = "nbti_opt"; nbti_rename_order = "last_warp"; },
  { name = "pv_opt_nbti_opt_lw"; base = "pv_opt_nbti_opt"; nbti_rename_order = "last_warp"; },
  { name = "nbti_opt_aw"; base = "nbti_opt"; nbti_rename_order = "all_warps"; },
  { name = "pv_opt_nbti_opt_aw"; base = "pv_opt_nbti_opt"; nbti_rename_order = "all_warps"; },
  { name = "pv_opt_reorg"; base = "pv_opt"; nbti_reorg = true; } );
output = { trace_chips = [0]; };
CFG
"$rfdse" run "$tmp/o.cfg" -o "$tmp/o.h5" --quiet || { echo "FAIL: run"; exit 1; }
/usr/bin/python3 - "$tmp/o.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
t = [x.decode() for x in f["/axes/technique"][...]]
gb = f["/results/guardband"][...]
def g(name): return gb[:, t.index(name)].ravel()
def below(a, b):
    d = g(b) - g(a)
    se = d.std(ddof=1) / np.sqrt(d.size)
    ok = d.mean() > 2 * se
    print(f"  {a:18s} {g(a).mean():.3f} < {b:14s} {g(b).mean():.3f}  (diff {d.mean():.3f}, 2 SE {2 * se:.3f}) {'ok' if ok else 'FAIL'}")
    return ok
print("normalised guardband, mean over chips x workloads:")
ok = below("pv_opt_reorg", "pv_opt") & below("pv_opt_nbti_opt_aw", "pv_opt") & below("nbti_opt_aw", "rf_bro")
for name in ("baseline", "pv_opt", "nbti_opt_lw", "pv_opt_nbti_opt_lw"):
    print(f"  (info) {name:16s} {g(name).mean():.3f}")
D, U = f["/chips/trace/sub_bank_delay"][0], f["/chips/trace/sub_bank_utilisation"][0]
slow = f["/chips/trace/sub_bank_slow"][0]
def near_share(name):
    k = t.index(name)
    order = np.argsort(D[k, 0], kind="stable")
    n_fast = int((slow[k, 0] == 0).sum())
    near = order[n_fast - 6:n_fast]          # the six slowest fast sub-banks
    return np.mean([U[k, b, 0, near].mean() / U[k, b, 0].mean() for b in range(U.shape[1])])
a, r = near_share("nbti_opt_aw"), near_share("rf_bro")
print(f"near-boundary fast sub-banks' duty / SM mean: nbti_opt_aw {a:.3f}, rf_bro {r:.3f}, "
      f"(info) nbti_opt_lw {near_share('nbti_opt_lw'):.3f}")
ok &= a < 0.8 * r
sys.exit(0 if ok else 1)
PY
