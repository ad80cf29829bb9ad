#!/usr/bin/env bash
# `make run`: the default sweep on all local cores, its summary table and figures.
# Usage: run-default.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
rfdse="$build/dse/rfdse"
np=$(nproc 2>/dev/null || echo 2)
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mkdir -p results
mpirun -n "$np" "$rfdse" run sweeps/default.cfg -o results/default.h5 --force
# The run printed the summary table; analyze's own table would repeat it.
"$rfdse" analyze results/default.h5 --figures results/figures >/dev/null
echo "figures: $(ls results/figures/default_*.png | tr '\n' ' ')"
echo "results: results/default.h5 (docs/results-format.md); rfdse analyze results/default.h5 --csv DIR for CSV"
