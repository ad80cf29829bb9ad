#!/usr/bin/env bash
# check_roundtrip.sh RFDSE FILE: the resolved sweep printed by `rfdse validate FILE`
# must load again and print identically (a fixed point), and must differ from nothing
# but comments of the first print.
set -eu
rfdse=$1 file=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$rfdse" validate "$file" > "$tmp/a.cfg"
"$rfdse" validate "$tmp/a.cfg" > "$tmp/b.cfg"
if ! cmp -s "$tmp/a.cfg" "$tmp/b.cfg"; then
  echo "FAIL: resolved sweep does not round-trip"; diff "$tmp/a.cfg" "$tmp/b.cfg" | head -20; exit 1
fi
grep -q '^techniques = (' "$tmp/a.cfg" || { echo "FAIL: no techniques in the output"; exit 1; }
echo "ok: $(wc -l < "$tmp/a.cfg") lines round-trip"
