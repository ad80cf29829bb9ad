#!/bin/sh
# bench/run_store_check.sh RFDSE DIR [CHIPS [REF]]: the run store never changes a result
# (docs/performance.md).  frequency then ipc at --chips CHIPS (default 10): no store, a
# store cold then warm (runs and chips kept), -n 1 and -n 2, and each rank count warm
# from the other's store; every /results and /chips compared with `h5diff -c` against
# the one-rank run without a store.  REF: another rfdse binary (e.g. main's, copied
# before a change) that makes the runs without a store instead of RFDSE.
set -u
R=$1 T=$2 C=${3:-10} REF=${4:-$1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$T"; mkdir -p "$T"
run() { # NAME RANKS SWEEP [STORE]
  name=$1 n=$2 sw=$3; shift 3
  bin=$R
  [ -z "${1:-}" ] && bin=$REF
  set -- mpirun -n "$n" "$bin" run "sweeps/reference/$sw.cfg" --chips "$C" -o "$T/$name-$sw.h5" --quiet ${1:+--run-store "$T/$1"}
  "$@" | sed -n "s/.*\(SM runs.*\); peak.*/$name $sw -n $n: \1/p"
}
for sw in frequency ipc; do run none1 1 $sw; run none2 2 $sw; done
for sw in frequency ipc; do run cold1 1 $sw s1; done
for sw in frequency ipc; do run warm1 1 $sw s1; done
for sw in frequency ipc; do run cold2 2 $sw s2; done
for sw in frequency ipc; do run warm2 2 $sw s2; done
for sw in frequency ipc; do run x21 2 $sw s1; run x12 1 $sw s2; done
fail=0
for sw in frequency ipc; do
  for v in none2 cold1 warm1 cold2 warm2 x21 x12; do
    if h5diff -c "$T/none1-$sw.h5" "$T/$v-$sw.h5" /results /results >"$T/diff" 2>&1 &&
       h5diff -c "$T/none1-$sw.h5" "$T/$v-$sw.h5" /chips /chips >>"$T/diff" 2>&1; then
      echo "$sw $v: /results and /chips identical to none -n 1"
    else echo "$sw $v: DIFFERS"; head -5 "$T/diff"; fail=1; fi
  done
done
du -sk "$T/s1" "$T/s2"
exit $fail
