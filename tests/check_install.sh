#!/usr/bin/env bash
# check_install.sh BUILD_DIR: `cmake --install` puts the program, the shipped sweeps, the
# docs and a help page per command under the prefix, and the installed program runs.
set -u
build=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
cmake --install "$build" --prefix "$tmp" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
for f in bin/rfdse share/rfdse/sweeps/default.cfg share/rfdse/sweeps/workloads/hotspot.cfg \
         share/doc/rfdse/README.md share/doc/rfdse/results-format.md \
         share/doc/rfdse/slurm/README.md share/doc/rfdse/help/rfdse-run.txt; do
  [ -s "$tmp/$f" ] || { echo "FAIL: $f not installed"; fail=1; }
done
for cmd in $("$tmp/bin/rfdse" --help | awk '/^Commands:/{on=1;next} on&&/^  [a-z]/{print $1} /^$/{if(on)exit}'); do
  cmp -s <("$tmp/bin/rfdse" help "$cmd") "$tmp/share/doc/rfdse/help/rfdse-$cmd.txt" ||
    { echo "FAIL: help page of $cmd missing or stale"; fail=1; }
done
"$tmp/bin/rfdse" validate "$tmp/share/rfdse/sweeps/default.cfg" >/dev/null ||
  { echo "FAIL: the installed rfdse on the installed default sweep"; fail=1; }
[ $fail -eq 0 ] && echo "ok: installed $(find "$tmp" -type f | wc -l) files"
exit $fail
