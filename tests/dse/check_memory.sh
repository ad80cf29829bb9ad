#!/usr/bin/env bash
# check_memory.sh RFDSE: a rank's peak memory does not grow with the chip count (issue 33
# item 18).  A cheap sweep (one technique, one short workload) run for 20 chips, and
# stopped (SIGINT) just after it started on 60 000 chips: the file of 60 000 chips is
# built on disk, not as an image in rank 0's memory (which cost twice the file, 60 MiB
# here), so the two peaks ("peak memory per rank" of the last line) differ by little.
set -u
rfdse=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
cat >"$tmp/cheap.cfg" <<'CFG'
name = "cheap";
chips = { count = 20; seed = 3L; };
techniques = ( "baseline" );
workloads = ( { name = "hot"; base = "hotspot"; insts_per_warp = 200; } );
CFG
peak() { grep -o 'peak memory per rank [0-9.]* MiB' "$1" | grep -o '[0-9.]*'; }
"$rfdse" run "$tmp/cheap.cfg" -o "$tmp/small.h5" >"$tmp/small.out" 2>&1 ||
  { echo "FAIL: 20 chips"; cat "$tmp/small.out"; exit 1; }
"$rfdse" run "$tmp/cheap.cfg" -o "$tmp/big.h5" --chips 60000 --flush-interval 0 >"$tmp/big.out" 2>&1 &
pid=$!
done_count() { /usr/bin/python3 -c "import sys,h5py; print(int(h5py.File(sys.argv[1],'r',locking=False)['/progress/done'][...].sum()))" "$1" 2>/dev/null || echo 0; }
for _ in $(seq 600); do [ "$(done_count "$tmp/big.h5")" -gt 0 ] && break; sleep 0.05; done
kill -INT "$pid"; wait "$pid"; rc=$?
[ "$rc" -eq 3 ] || { echo "FAIL: the stopped run exited with $rc, not 3"; cat "$tmp/big.out"; fail=1; }
small=$(peak "$tmp/small.out") big=$(peak "$tmp/big.out")
size=$(du -m "$tmp/big.h5" | cut -f1)
echo "peak memory per rank: $small MiB at 20 chips, $big MiB at 60000 chips (file ${size} MiB)"
/usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) < 12 else 1)" \
  "${small:-0}" "${big:-999}" || { echo "FAIL: a rank's memory grows with the chip count"; fail=1; }
exit $fail
