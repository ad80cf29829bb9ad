#!/usr/bin/python3
"""check_code_walk - bench/gpgpusim/code-walk on a hand-written PTX kernel and counts.

Usage: check_code_walk.py REPO_ROOT

tests/gpgpusim/code-walk-fixture/walkme.1.sm_52.ptx (our own text) has two entries:
`small` (2 instructions) and `walkme` (11: 0-3 the start and a forward branch over
instruction 4, an if's body; 5; 6-8 a loop whose last instruction branches back to 6;
9-10 the store and ret).  Two per-line count files of 64 threads, the expected walks
worked out by hand from the rule (docs/workloads.md, "Code size"):

stats-if-loop3.txt: the body runs in 48 threads (taken edge 16/64 = 0.25, fall-through
  0.75: the walk enters it), the loop 192 = 3 a thread (back edge 128/64 = 2, exit 1:
  taken at 2 > 1 and at the tie 1 = 1, a backward branch, then out at 0 < 1):
  0..8, 6..8, 6..10 = 17 instructions, triples 0,9,1 6,3,1 6,5,1; the largest share
  difference at instruction 4: 1/17 - 48/1072 = +0.0140; mean 1072/64 = 16.75.
stats-tie-loop4.txt: the body in 32 threads (0.5 against 0.5, a forward tie: the
  next instruction, the body), the loop 4 a thread: 0..8, 6..8 twice, 6..10 = 20,
  triples 0,9,1 6,3,2 6,5,1; instruction 4: 1/20 - 32/1248 = +0.0244.
The kernel is the entry with the most thread executions (walkme, 1072 against small's
128); --kernel small walks `small`: 0,2,1.
Exit 0 if all agree, 1 otherwise.
"""
import os
import subprocess
import sys

CASES = [  # stats file, --kernel, expected fields of the row
    ("stats-if-loop3.txt", None, {"kernel": "walkme", "code_insts": "11", "threads": "64",
                                  "mean_insts": "16.8", "walk_len": "17", "share_diff": "+0.0140",
                                  "share_at": "4", "runs": "0,9,1,6,3,1,6,5,1"}),
    ("stats-tie-loop4.txt", None, {"kernel": "walkme", "walk_len": "20", "share_diff": "+0.0244",
                                   "share_at": "4", "runs": "0,9,1,6,3,2,6,5,1"}),
    ("stats-if-loop3.txt", "small", {"kernel": "small", "code_insts": "2", "walk_len": "2",
                                     "runs": "0,2,1"}),
]


def main():
    root = sys.argv[1]
    fix = os.path.join(root, "tests", "gpgpusim", "code-walk-fixture")
    bad = 0
    for stats, kernel, want in CASES:
        cmd = [sys.executable, os.path.join(root, "bench", "gpgpusim", "code-walk"),
               "--ptx", os.path.join(fix, "walkme.1.sm_52.ptx"), "--stats", os.path.join(fix, stats)]
        if kernel:
            cmd += ["--kernel", kernel]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()
        row = dict(zip(out[0].split("\t"), out[1].split("\t")))
        for k, v in want.items():
            if row.get(k) != v:
                print(f"check_code_walk: {stats} {kernel or ''}: {k} {row.get(k)}, expected {v}",
                      file=sys.stderr)
                bad += 1
    print(f"check_code_walk: {len(CASES)} cases, {bad} fields differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
