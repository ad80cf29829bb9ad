#!/usr/bin/env bash
# Installs the Debian packages rfdse needs, and only those that are missing.
# Idempotent and silent when everything is present, so `make test` and `make run`
# can call it every time.  Needs root (or sudo) only when something is missing.
set -euo pipefail

# Build and test dependencies (clang: libFuzzer for `make fuzz`, run briefly by CI).  R is optional (bench/ compares against RandomFields
# when it is there) and Slurm is installed by the Slurm test itself.
PACKAGES=(
  build-essential cmake pkg-config
  openmpi-bin libopenmpi-dev
  libhdf5-openmpi-dev hdf5-tools
  libconfig-dev libgsl-dev libcmocka-dev libfftw3-dev librandom123-dev
  gnuplot-nox
  clang
  python3-h5py python3-numpy python3-pandas python3-xarray python3-h5netcdf
)
if [ "$#" -gt 0 ]; then PACKAGES+=("$@"); fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
