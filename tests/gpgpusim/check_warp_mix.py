#!/usr/bin/python3
"""check_warp_mix - the mix per warp instruction of set-profiles and compare-profiles
--warp-mix (docs/workloads.md, "Why nw's profile ran faster than its trace").

Usage: check_warp_mix.py REPO_ROOT

1. set-profiles' warp_mix() on a row made up here: frac_mem, frac_shared, frac_barrier
   are the row's f_global_w, f_shared_w, f_barrier_w, and line_requests and
   store_sectors are rescaled by f_global / f_global_w (the traffic per warp
   instruction kept); a row without the columns gives nothing.
2. compare-profiles --warp-mix's configuration: the profile's three shares are replaced
   by the pinned measure.tsv's warp-level columns, every other key is as shipped.
3. On the pinned measure.tsv, nw's warp-level shares are the ones its committed trace
   shows (`rfdse trace info`: global 3.28 + 2.76 %, shared 24.14 + 8.62 %, barriers
   5.86 % of 1740 warp instructions), not the per-thread ones.
Exit 0 if all agree, 1 otherwise.  Needs no GPGPU-Sim.
"""
import importlib.machinery
import os
import re
import sys


def load(root, name):
    path = os.path.join(root, "bench", "gpgpusim", name)
    return importlib.machinery.SourceFileLoader(name.replace("-", "_"), path).load_module()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    bad = []
    sp = load(root, "set-profiles")
    row = {"f_global": "0.0800", "f_global_w": "0.0400", "f_shared_w": "0.3000",
           "f_barrier_w": "0.0500", "line_requests": "2.0000", "store_sectors": "3.0000"}
    want = {"frac_mem": "0.040", "frac_shared": "0.300", "frac_barrier": "0.050",
            "line_requests": "4.00", "store_sectors": "6.00"}  # x 0.08 / 0.04
    got = sp.warp_mix(row)
    if got != want:
        bad.append(f"set-profiles warp_mix: {got}, expected {want}")
    if sp.warp_mix({"f_global": "0.08"}):
        bad.append("set-profiles warp_mix: values from a row without f_global_w")

    cp = load(root, "compare-profiles")
    meas = cp.gpgpusim_side(os.path.join(root, "bench", "gpgpusim", "measure.tsv"))
    nw = meas[("nw", "none")]
    cp.REPLACE["nw"] = sp.warp_mix(nw)
    cfg = cp.config("gpgpusim", "fixed", "hold_port")
    try:
        text = open(cfg).read()
    finally:
        os.unlink(cfg)
    group = re.search(r'\{\s*name = "nw";.*?\n\s*seed = \d+L;\s*\}', text, re.S).group(0)
    shipped = open(os.path.join(root, "sweeps", "workloads", "nw.cfg")).read()
    for key, col in (("frac_mem", "f_global_w"), ("frac_shared", "f_shared_w"),
                     ("frac_barrier", "f_barrier_w")):
        m = re.search(rf"\b{key} = ([0-9.]+);", group)
        if not m or m.group(1) != f"{float(nw[col]):.3f}":
            bad.append(f"compare-profiles --warp-mix: nw's {key} {m and m.group(1)}, "
                       f"measure.tsv's {col} {nw[col]}")
        if len(re.findall(rf"\b{key}\s*=", group)) != 1:
            bad.append(f"compare-profiles --warp-mix: nw's {key} set more than once")
    for key in ("dep_distance", "insts_per_warp", "smem_ways"):
        a = re.search(rf"\b{key} = ([^;]*);", group).group(1)
        b = re.search(rf"\b{key} = ([^;]*);", shipped).group(1)
        if a != b:
            bad.append(f"compare-profiles --warp-mix: nw's {key} {a}, shipped {b}")

    trace = {"f_global_w": (57 + 48) / 1740, "f_shared_w": (420 + 150) / 1740,
             "f_barrier_w": 102 / 1740}  # rfdse trace info sweeps/workloads/traces/nw.h5
    for col, t in trace.items():
        if abs(float(nw[col]) - t) > 0.01:
            bad.append(f"measure.tsv nw {col} {nw[col]}, its trace {t:.4f}")
    for line in bad:
        print("check_warp_mix: " + line, file=sys.stderr)
    print(f"check_warp_mix: {len(bad)} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
