#!/usr/bin/python3
"""check_chip_factor - the chip factor compare-profiles and compare-traces give a capped run.

Usage: check_chip_factor.py REPO_ROOT

A GPGPU-Sim run capped after its last launch's grid was issued stopped with every block
running, so no SM idled at an end; its chip factor is measure.tsv's core_work (the mean
SM's L1D accesses over SM 0's), not the blocks' count (docs/workloads.md, "The last gaps,
measured").  Checks, for both scripts: rows made up here (capped with the grid issued ->
core_work; capped before the grid ran out, complete, or without core_work -> None), and
on the pinned measure.tsv that exactly lavaMD, stencil and matrixMul (the runs capped
with their grid issued) take their core_work.  Exit 0 if all agree, 1 otherwise.
"""
import csv
import importlib.machinery
import os
import sys


def load(root, name):
    path = os.path.join(root, "bench", "gpgpusim", name)
    return importlib.machinery.SourceFileLoader(name.replace("-", "_"), path).load_module()


def row(status, grid, last, core="0.8925"):
    return {"status": status, "grid": str(grid), "last_issued": str(last), "core_work": core}


CASES = (  # (row, expected factor)
    (row("capped", 64, 64), 0.8925),          # stencil's shape: grid issued, then capped
    (row("capped", 93, 90), None),            # pathfinder's: capped before the grid ran out
    (row("complete", 64, 64), None),          # a complete run keeps the blocks' count
    (row("capped", 64, 64, ""), None),        # no loads, no per-core work: blocks' count
    (None, None),
)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    with open(os.path.join(root, "bench", "gpgpusim", "measure.tsv")) as f:
        pinned = {r["bench"]: r for r in csv.DictReader((l for l in f if not l.startswith("#")),
                                                        delimiter="\t") if r["set"] == "none"}
    bad = 0
    for script in ("compare-profiles", "compare-traces"):
        m = load(root, script)
        for r, want in CASES:
            got = m.measured_factor(r)
            if got != want:
                print(f"check_chip_factor: {script}: {r} gives {got}, expected {want}",
                      file=sys.stderr)
                bad += 1
        got = {n for n, r in pinned.items() if m.measured_factor(r) is not None}
        if got != {"lavamd", "stencil", "matrixmul"}:
            print(f"check_chip_factor: {script}: measured factor for {sorted(got)}, expected "
                  "lavamd, matrixmul, stencil", file=sys.stderr)
            bad += 1
        s = pinned["stencil"]
        blocks = m.chip_factor([int(s["grid"])], 8)  # 64 / (15 x 5) = 0.853
        if not abs(m.measured_factor(s) - blocks) > 0.02:
            print(f"check_chip_factor: {script}: stencil's measured factor "
                  f"{m.measured_factor(s)} is the blocks' {blocks:.4f}", file=sys.stderr)
            bad += 1
    print(f"check_chip_factor: {len(CASES)} rows and the pinned measure.tsv, 2 scripts, "
          f"{bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
