#!/usr/bin/env bash
# `make run`: the default sweep on all local cores.  Usage: run-default.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
rfdse="$build/dse/rfdse"
if ! "$rfdse" --help | grep -q '^  run '; then
  # Until the driver lands, show the resolved default sweep.
  "$rfdse" validate sweeps/default.cfg
  exit 0
fi
np=$(nproc 2>/dev/null || echo 2)
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mkdir -p results
mpirun -n "$np" "$rfdse" run sweeps/default.cfg -o results/default.h5 --force
if "$rfdse" --help | grep -q '^  analyze '; then
  "$rfdse" analyze results/default.h5 --figures results/figures
fi
