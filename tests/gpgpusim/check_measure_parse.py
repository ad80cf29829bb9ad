#!/usr/bin/python3
"""check_measure_parse - bench/gpgpusim/measure's parser on a fixture run directory.

Usage: check_measure_parse.py REPO_ROOT

Copies tests/gpgpusim/measure-fixture/ (trimmed excerpts of a real GPGPU-Sim run of nn,
bank set none: see its README) into a temporary OUTDIR, runs `measure --parse-only` on
it and checks the row it writes against
  1. values worked out by hand from the fixture's log (the PTX-derived columns, listed in
     PTX_COLS, are not in the fixture and must stay empty) (each formula below names
     the lines it uses; nothing here is copied from the parser's output), and
  2. the pinned bench/gpgpusim/measure.tsv row for nn/none, which came from the
     untrimmed log of the same run: trimming to the lines the parser reads must not
     change any column.
Exit 0 if all agree, 1 otherwise (one line per mismatch on stderr).  Needs no GPGPU-Sim.
"""
import os
import shutil
import subprocess
import sys
import tempfile

N_SMS = 15  # GTX480 (SM2_GTX480's -gpgpu_n_clusters 15, one SM per cluster)

# The columns measure derives from the PTX the run executed and GPGPU-Sim's per-line
# counts (gpgpu_inst_stats.txt): the PTX is nvcc's output for Rodinia's kernel, built
# from third-party source, so the fixture leaves both out, and the parser must then
# leave these columns empty rather than guess them.
PTX_COLS = ("f_global", "st_share", "f_shared", "f_sfu", "f_branch", "f_barrier", "f_alu",
            "fp", "fp64", "lat1", "mad", "div", "src_ptx", "reg_skew", "top3",
            "dep_distance", "dep_nearest", "line_requests", "store_sectors", "lu_global",
            "lu_shared", "f_const", "dep_at1")

# log.txt's counters
WARP = 38878          # gpgpu_n_tot_w_icount
CYCLES = 3688         # gpu_sim_cycle (one launch)
GRID, BLOCK = 168, 256  # pushing kernel ... gridDim= (168,1,1) blockDim = (256,1,1)
READS, RCONF = 40166, 7903    # rfdse_rf_read_grants, rfdse_rf_read_conflicts
GLD, GST = 2674, 1337         # rfdse_global_loads, rfdse_global_stores
WW = [12070, 5371, 4789, 1906, 20083]          # rfdse_warp_width
LW = [386391, 171701, 153248, 60952, 642336]   # rfdse_lane_width
OCC = {12: 14, 32: 38864}     # Warp Occupancy Distribution: W12:14 ... W32:38864
L1_HIT, L1_MISS = 2673, 2673  # Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT], [MISS]
L2R_HIT, L2R_MISS = 10691, 1  # L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT], [SECTOR_MISS]
L2W_MISS = 1337 + 4009        # L2_cache_stats_breakdown[GLOBAL_ACC_W][MISS] + [SECTOR_MISS]
PARTIAL = OCC[12] / (OCC[12] + OCC[32])
ST_SHARE_W = GST / (GLD + GST)

EXPECTED = {
    "status": "complete",             # rusage.txt status 0, no "maximum" break line
    "kernels": 1, "grid": GRID, "block": BLOCK,
    "regs": 10,                       # Kernel '_Z6euclid...' : regs=10
    "smem": 0,                        # ... smem=0
    "cycles": CYCLES, "warp_insts": WARP,
    "thread_insts": 1201052,          # gpu_tot_sim_insn
    "main_share": 1.0,
    "ipc": WARP / CYCLES / N_SMS,
    "insts_per_warp": WARP / (GRID * BLOCK // 32),
    "rf_reads": READS, "src_reads": READS / WARP, "conflicts": RCONF / READS,
    "l1_hit": L1_HIT / (L1_HIT + L1_MISS),
    "miss_latency": 353,              # averagemflatency
    "mrq_latency": 10, "icnt2mem": 21, "icnt2sh": 108,  # avg_mrq/icnt2mem/icnt2sh_latency
    # (21 + 0.5) x mf_lat_table's 4501 + 9359 + 2208 replies / the packets into L2,
    # traffic_breakdown_coretomem: 15 CONST_ACC_R + 2673 GLOBAL_ACC_R + 1 + 1336
    # GLOBAL_ACC_W + 30 INST_ACC_R
    "icnt2mem_packet": 21.5 * (4501 + 9359 + 2208) / (15 + 2673 + 1 + 1336 + 30),
    "lanes": (12 * OCC[12] + 32 * OCC[32]) / (OCC[12] + OCC[32]),
    "partial": PARTIAL, "tid_div": PARTIAL,  # 256 threads: no structurally partial warp
    "st_share_w": ST_SHARE_W,
    "dp_ops": 0.0, "bar_wait": 0.0, "g_atomics": 0,
    "l2_hit": (L2R_HIT) / (L2R_HIT + L2R_MISS + L2W_MISS),
    "l2_read_hit": L2R_HIT / (L2R_HIT + L2R_MISS),
    "store_dram": 0.0,                # n_wr_bk=0 on every channel
    # the channels with a number (the others print -nan): 2 of 6
    "row_hit": (0.7 + 1.0) / 2, "dram_eff": (0.1389 + 0.05) / 2,
    "dram_util": (0.004109 + 0.000411) / 6,
    "cpu_s": 1.563,                   # rusage.txt
    # gpu_tot_issued_cta = 168, the one launch's: all of it is the last launch's
    "issued_cta": GRID, "last_issued": GRID,
    # the constant cache's read requests: traffic_breakdown_coretomem's 15 CONST_ACC_R,
    # one cold line per SM
    "l1c_sent": 15,
    # L1D_cache_core[0..14]: Access = 480 400 480 480 440 480 480 403 480 440 400 440 440
    # 400 440: their mean over SM 0's 480
    "core_work": (6 * 480 + 3 * 400 + 5 * 440 + 403) / (15 * 480),
}
# the mix per warp instruction: rfdse_global_loads + rfdse_global_stores (no atomics) over
# rfdse_warp_insts (38878, as gpgpu_n_tot_w_icount); nn has no shared access or barrier
# (rfdse_shared_* = 0, rfdse_barriers = 0)
EXPECTED.update({"f_global_w": (GLD + GST) / WARP, "f_shared_w": 0.0, "f_barrier_w": 0.0})
for i in range(5):
    EXPECTED[f"w{i}"] = WW[i] / sum(WW)
    EXPECTED[f"lw{i}"] = LW[i] / sum(LW)


def read_tsv(path):
    with open(path) as f:
        lines = [ln.rstrip("\n").split("\t") for ln in f if not ln.startswith("#")]
    return {(w[0], w[1]): dict(zip(lines[0], w)) for w in lines[1:]}


def same(got, want):
    if isinstance(want, str):
        return got == want
    if isinstance(want, int):
        return got == str(want)
    try:
        return abs(float(got) - want) <= 0.5e-4 + 1e-9  # measure.tsv prints 4 decimals
    except ValueError:
        return False


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    fixture = os.path.join(root, "tests", "gpgpusim", "measure-fixture")
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(fixture, "runs"), os.path.join(tmp, "runs"))
        subprocess.run([sys.executable, os.path.join(root, "bench", "gpgpusim", "measure"),
                        "--parse-only", tmp, "--only", "nn", "--sets", "none"],
                       check=True, stdout=subprocess.DEVNULL)
        row = read_tsv(os.path.join(tmp, "measure.tsv")).get(("nn", "none"))
    if row is None:
        print("check_measure_parse: no nn/none row parsed from the fixture", file=sys.stderr)
        return 1
    bad = 0
    for k, want in EXPECTED.items():
        if not same(row.get(k, ""), want):
            print(f"check_measure_parse: {k} = {row.get(k)!r}, the fixture's lines give "
                  f"{want:.6g}" if not isinstance(want, str) else
                  f"check_measure_parse: {k} = {row.get(k)!r}, expected {want!r}",
                  file=sys.stderr)
            bad += 1
    pinned = read_tsv(os.path.join(root, "bench", "gpgpusim", "measure.tsv"))[("nn", "none")]
    for k in PTX_COLS:
        if row.get(k) != "":
            print(f"check_measure_parse: {k} = {row.get(k)!r} without the PTX, expected ''",
                  file=sys.stderr)
            bad += 1
    for k, want in pinned.items():
        if k not in PTX_COLS and row.get(k) != want:
            print(f"check_measure_parse: {k} = {row.get(k)!r}, pinned measure.tsv has {want!r}",
                  file=sys.stderr)
            bad += 1
    print(f"check_measure_parse: {len(EXPECTED)} derived values, {len(pinned) - len(PTX_COLS)} "
          f"pinned columns and {len(PTX_COLS)} left empty, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
