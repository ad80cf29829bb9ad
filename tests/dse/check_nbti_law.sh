#!/usr/bin/env bash
# check_nbti_law.sh RFDSE: the two readings of the NBTI law and lifetime performance
# (model.md sections 7 and 8, docs/nbti.md) on a 3-chip aging sweep.
# - aging.initial_shift = "pv" reproduces the results of the code before the source's law
#   (commit 1a2d4dd) bit for bit: a sha256 of every result dataset is pinned below; the
#   time-zero performance was /results/performance then and is /results/performance_t0 now.
#   (The pin assumes this platform's libm; regenerate it from 1a2d4dd's binary, running
#   the sweep without the initial_shift line, if cbrt/exp/pow ever round differently.)
#   Re-pinned once since, at the kernel's one program (model/gen.c, docs/model.md "One
#   program per kernel"), which changes every drawn stream and so the IPC datasets; the
#   aging code was not touched (was 8f673300adb38d6d2ca86a1d9ebb27aeb75266fa151d30891daac35ccc3d7ca7).
# - the default ("accumulated") gives other numbers;
# - performance = IPC x end-of-schedule frequency and performance_t0 = IPC x time-zero
#   frequency, bit for bit from the file's own datasets, under both laws; without aging
#   the two are the same.
set -u
rfdse=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pin=2ce552eedea3f32c7e2cf3b5b2f8df104bffbf25b46b8125ae216b01480e843a
cat > "$tmp/acc.cfg" <<'CFG'
chips = { count = 3; seed = 5L; };
techniques = ( "ideal", "baseline", "vl_rf", "rf_bro", "pv_opt",
  { name = "nbti_lw"; base = "nbti_opt"; nbti_rename_order = "last_warp"; },
  { name = "pvnbti_aw"; base = "pv_opt_nbti_opt"; nbti_rename_order = "all_warps"; } );
# nn and hotspot inline as shipped until issue 15 (the pin is of results on these
# profiles; the shipped ones are now measured, docs/workloads.md); "hot" is hotspot with
# 300 instructions per warp and weight 3, as `base = "hotspot"` gave then.
workloads = (
  { name = "nn"; grid_blocks = 168; block_threads = 169; regs_per_thread = 14; insts_per_warp = 300; frac_sfu = 0.03; frac_mem = 0.15; frac_shared = 0.00; frac_fp = 0.90; frac_mad = 0.30; frac_div = 0.00; src_operands = 1.80; reg_skew = 0.60; dep_distance = 3.0; l1_hit_rate = 0.50; partial_warps = 0.00; partial_lanes = 9; tid_divergence = 0.00; seed = 279779465L; },
  { name = "hot"; grid_blocks = 1849; block_threads = 256; regs_per_thread = 28; insts_per_warp = 300; weight = 3.0; frac_sfu = 0.01; frac_mem = 0.08; frac_shared = 0.15; frac_fp = 0.90; frac_mad = 0.40; frac_div = 0.00; src_operands = 2.20; reg_skew = 0.25; dep_distance = 4.0; l1_hit_rate = 0.70; partial_warps = 0.00; partial_lanes = 32; tid_divergence = 0.05; seed = 1219724051L; } );
output = { trace_chips = [1]; };
aging = {
  years = [0.0, 1.0, 3.0, 7.0];
};
CFG
sed 's/^aging = {/&\n  initial_shift = "pv";/' "$tmp/acc.cfg" > "$tmp/pv.cfg"
sed 's/^  years = .*/  years = [0.0];/' "$tmp/acc.cfg" > "$tmp/none.cfg"
for s in acc pv none; do
  "$rfdse" run "$tmp/$s.cfg" -o "$tmp/$s.h5" --quiet || { echo "FAIL: run $s"; exit 1; }
done
/usr/bin/python3 - "$tmp" "$pin" <<'PY'
import sys, hashlib, h5py, numpy as np
d, pin = sys.argv[1], sys.argv[2]
names = ["/results/frequency", "/results/frequency_min", "/results/ipc",
         "/results/performance_t0", "/results/guardband", "/results/guardband_raw",
         "/chips/sm_frequency", "/chips/within_sm_ratio", "/chips/sm_to_sm_ratio",
         "/chips/trace/sub_bank_delay", "/chips/trace/sub_bank_slow",
         "/chips/trace/sub_bank_utilisation"]
def digest(f):
    h = hashlib.sha256()
    for n in names:
        a = f[n][...]
        h.update(n.encode())
        h.update(np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes())
    return h.hexdigest()
ok = True
pv, acc = h5py.File(d + "/pv.h5", "r"), h5py.File(d + "/acc.h5", "r")
got = digest(pv)
print(f"pv law digest {got} ({'ok' if got == pin else 'FAIL: pinned ' + pin})")
ok &= got == pin
raw_pv, raw_acc = pv["/results/guardband_raw"][...], acc["/results/guardband_raw"][...]
print(f"mean raw guardband of the baseline: pv {raw_pv[:, 1].mean():.4f}, accumulated "
      f"{raw_acc[:, 1].mean():.4f}")
ok &= not np.array_equal(raw_pv, raw_acc)
for name in ("acc", "pv", "none"):
    f = h5py.File(f"{d}/{name}.h5", "r")
    ipc, fr = f["/results/ipc"][...], f["/results/frequency"][...]
    perf, perf0 = f["/results/performance"][...], f["/results/performance_t0"][...]
    life = np.array_equal(perf, ipc * fr[:, :, -1:])
    t0 = np.array_equal(perf0, ipc * fr[:, :, :1])
    aged = fr.shape[2] > 1
    print(f"{name}: performance = IPC x f(end) {life}, performance_t0 = IPC x f(0) {t0}, "
          f"lifetime below t0 where aged {bool(aged and (perf[:, 1:] < perf0[:, 1:]).all())}")
    ok &= life and t0 and (np.isfinite(perf).all() and np.isfinite(perf0).all())
    ok &= (perf[:, 1:] < perf0[:, 1:]).all() if aged else np.array_equal(perf, perf0)
    assert f["/results/performance_t0"].attrs["normalised_to"] is not None
sys.exit(0 if ok else 1)
PY
