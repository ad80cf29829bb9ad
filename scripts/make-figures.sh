#!/usr/bin/env bash
# `make figures`: runs every reference sweep (sweeps/reference/) on all local cores and
# renders every figure of the reference study into results/figures/.
# Usage: scripts/make-figures.sh [BUILD_DIR]          (docs/reproducing.md)
# Environment: NP (MPI processes, default nproc), FIGURES (default results/figures),
# SKIP_RUN=1 re-renders from existing results/*.h5 without re-running the sweeps.
set -euo pipefail
build=${1:-build}
rfdse="$build/dse/rfdse"
np=${NP:-$(nproc 2>/dev/null || echo 2)}
figures=${FIGURES:-results/figures}
cd "$(dirname "$0")/.."

[ -x "$rfdse" ] || { echo "make-figures: $rfdse not built (run make build)" >&2; exit 2; }
# Open MPI refuses to run as root unless told.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mkdir -p results "$figures"

# the premises study (issue 34): one assumption each, figure by scripts/premises-figure.sh
premises=(premises-hold_port premises-pipelined premises-replay premises-stall_collector
          premises-shared_ports premises-physical_ports premises-chip_1to4
          premises-chip_1to4_replay)
sweeps=(frequency ipc performance guardband guardband-pv ltrf sensitivity-1to4 sensitivity-1to1
        sensitivity-4to1 vth_sigma pareto coalesce coalesce-slices coalesce-slices-narrow
        "${premises[@]}")
if [ "${SKIP_RUN:-0}" != 1 ]; then
  for s in "${sweeps[@]}"; do
    echo "== sweep $s ($np processes)"
    start=$SECONDS
    mpirun -n "$np" "$rfdse" run "sweeps/reference/$s.cfg" -o "results/$s.h5" --force --quiet
    echo "   done in $((SECONDS - start)) s"
  done
fi

# One analyze per figure group: each file's own figures, then the three sensitivity files
# together for the sensitivity figure.
for s in frequency ipc performance guardband guardband-pv ltrf vth_sigma pareto coalesce \
    coalesce-slices coalesce-slices-narrow; do
  "$rfdse" analyze "results/$s.h5" --figures "$figures" --csv results/csv
done
"$rfdse" analyze results/sensitivity-1to4.h5 results/sensitivity-1to1.h5 \
  results/sensitivity-4to1.h5 --figures "$figures" --csv results/csv

# The premises study: its CSV files, then one figure over all of them.
for s in "${premises[@]}"; do
  "$rfdse" analyze "results/$s.h5" --csv results/csv >/dev/null
done
scripts/premises-figure.sh results/csv "$figures/premises.png" >/dev/null

# The Vth map of one chip.
rm -f results/chipmap.h5
"$rfdse" chipmap sweeps/reference/frequency.cfg --chip 0 -o results/chipmap.h5
"$rfdse" analyze results/chipmap.h5 --figures "$figures"
echo "figures in $figures/:"
ls "$figures"
