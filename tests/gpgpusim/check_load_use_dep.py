#!/usr/bin/python3
"""check_load_use_dep - bench/gpgpusim/load-use --dep on a hand-written trace.

Usage: check_load_use_dep.py REPO_ROOT

One warp of six instructions in Accel-Sim's text format (PTX opcodes, as
bench/gpgpusim/trace writes them), its nearest-producer distances worked out by hand:
  0  add.s32  R1 <- R2 R3    no writer in the warp: the cap, 16    32 lanes
  1  and.b32  R4 <- R1       1 (add.s32, not latency 1)            32 lanes
  2  shl.b32  R5 <- R4 R1    1 (and.b32, latency 1; R1 is at 2)    32 lanes
  3  st.global   <- R5 R1    1 (shl.b32, latency 1)                16 lanes
  4  mov.u32  R6             no register source: not counted       32 lanes
  5  bar.sync                no register source                    32 lanes
Per warp instruction: mean (16 + 1 + 1 + 1) / 4 = 4.75, at 1 3 / 4; per thread (lanes
32, 32, 32, 16): (16 x 32 + 32 + 32 + 16) / 112 = 5.29, at 1 80 / 112 = 0.714; ALU
producers at distance 1: add.s32, and.b32, shl.b32, 2 of 3 at latency 1 under GPGPU-Sim
4.0's table; ALU instructions: add, and, shl, mov, 3 of 4 at latency 1.  Exit 0 if the
printed row agrees, 1 otherwise.  Needs no GPGPU-Sim.
"""
import os
import subprocess
import sys
import tempfile

TRACE = """-kernel name = test
-grid dim = (1,1,1)
-block dim = (32,1,1)
-accelsim tracer version = 4
#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]

#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 6
0000 ffffffff 1 R1 add.s32 2 R2 R3 0
0008 ffffffff 1 R4 and.b32 1 R1 0
0010 ffffffff 1 R5 shl.b32 2 R4 R1 0
0018 0000ffff 0 st.global.u32 2 R5 R1 4 1 0x1000 4
0020 ffffffff 1 R6 mov.u32 0 0
0028 ffffffff 0 bar.sync 0 0

#END_TB
"""
WANT = (4, 4.75, 0.75, 592 / 112, 80 / 112, 2 / 3, 3 / 4)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    tool = os.path.join(sys.argv[1], "bench", "gpgpusim", "load-use")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernel-1.traceg")
        with open(path, "w") as f:
            f.write(TRACE)
        out = subprocess.run([sys.executable, tool, "--dep", path], capture_output=True,
                             text=True, check=True).stdout
    rows = [ln.split() for ln in out.splitlines() if ln.rstrip().endswith(tuple("0123456789"))
            and "kernel-1.traceg" in ln]
    if len(rows) != 1:
        print(f"check_load_use_dep: expected one row, got:\n{out}", file=sys.stderr)
        return 1
    got = [float(x) for x in rows[0][1:]]
    bad = [(w, g) for w, g in zip(WANT, got) if abs(w - g) > 0.006] or len(got) != len(WANT)
    if bad:
        print(f"check_load_use_dep: got {got}, worked out by hand {list(WANT)}", file=sys.stderr)
        return 1
    print("check_load_use_dep: 7 values agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
