#!/bin/sh
# The ten reference sweeps with two rfdse binaries side by side (docs/performance.md):
# for each round, each sweep runs with binary A then binary B (`mpirun -n RANKS`), and
# the wall time, the CPU time of all ranks (user + system, /usr/bin/time), the SM runs
# simulated / reused, the peak memory per rank and the load average are printed.
# Ends with the medians over the rounds per sweep and binary, and their sum.
# usage: bench/reference_sweeps.sh RFDSE_A RFDSE_B [CHIPS [ROUNDS [RANKS [STORE]]]]
#   CHIPS: --chips for every sweep (default: each sweep's own, 100)
#   STORE: the binaries (A, B or AB) that share one run store (`--run-store`) across
#          the ten sweeps of a round, a fresh (cold) directory per binary each round;
#          its size after each sweep is printed (store_KiB; - without a store).  With
#          A and B the same binary and STORE=B, the store against none.
set -eu
a=$1 b=$2 chips=${3:-} rounds=${4:-3} ranks=${5:-2} store=${6:-}
sweeps="frequency ipc performance sensitivity-1to1 sensitivity-1to4 sensitivity-4to1
        guardband guardband-pv guardband-rr ltrf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
printf 'round binary sweep wall_s cpu_s simulated reused peak_MiB load1 store_KiB\n' | tee "$tmp/rows"
r=1
while [ "$r" -le "$rounds" ]; do
    rm -rf "$tmp/store-A" "$tmp/store-B" # cold at the start of each round
    for sw in $sweeps; do
        for which in A B; do
            bin=$a
            [ "$which" = B ] && bin=$b
            set -- "$bin" run "sweeps/reference/$sw.cfg" --force -o "$tmp/out.h5"
            [ -n "$chips" ] && set -- "$@" --chips "$chips"
            case $store in *$which*) set -- "$@" --run-store "$tmp/store-$which" ;; esac
            t0=$(date +%s.%N)
            /usr/bin/time -f '%U %S' -o "$tmp/cpu" mpirun -n "$ranks" "$@" >"$tmp/log" 2>&1
            t1=$(date +%s.%N)
            runs=$(sed -n 's/.*SM runs simulated \([0-9]*\), reused \([0-9]*\).*/\1 \2/p' "$tmp/log" | tail -1)
            peak=$(sed -n 's/.*peak memory per rank \([0-9.]*\) MiB.*/\1/p' "$tmp/log" | tail -1)
            load=$(cut -d' ' -f1 /proc/loadavg)
            cpu=$(awk '{print $1 + $2}' "$tmp/cpu")
            kib=-
            [ -d "$tmp/store-$which" ] && kib=$(du -sk "$tmp/store-$which" | cut -f1)
            printf '%s %s %s %.1f %.1f %s %s %s %s\n' "$r" "$which" "$sw" "$(echo "$t1 - $t0" | bc -l)" \
                "$cpu" "$runs" "$peak" "$load" "$kib" | tee -a "$tmp/rows"
        done
    done
    r=$((r + 1))
done
# Medians over the rounds, per sweep and binary, and the ten medians' sum.
printf '\nmedians over %s round(s): sweep wall_A wall_B cpu_A cpu_B\n' "$rounds"
awk 'NR > 1 { k = $3; w[$2, k] = w[$2, k] " " $4; c[$2, k] = c[$2, k] " " $5;
              if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
     function med(list,   a, m, i, j, t) {
         m = split(list, a, " ")
         for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
             t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
         return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
     END { for (i = 1; i <= n; i++) { k = order[i]
               wa = med(w["A", k]); wb = med(w["B", k]); ca = med(c["A", k]); cb = med(c["B", k])
               printf "%s %.1f %.1f %.1f %.1f\n", k, wa, wb, ca, cb
               swa += wa; swb += wb; sca += ca; scb += cb }
           printf "the_ten %.1f %.1f %.1f %.1f\n", swa, swb, sca, scb }' "$tmp/rows"
