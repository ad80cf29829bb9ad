#!/usr/bin/env bash
# check_cli.sh RFDSE: --help on the program and every listed command, --version, and
# errors for unknown commands.
set -u
rfdse=$1 fail=0
check() { if ! "$@"; then echo "FAIL: $*"; fail=1; fi; }
check "$rfdse" --help >/dev/null
"$rfdse" --version | grep -Eq '^rfdse [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]+|unknown)\)$' \
  || { echo "FAIL: --version"; fail=1; }
for cmd in $("$rfdse" --help | awk '/^Commands:/{on=1;next} on&&/^  [a-z]/{print $1} /^$/{if(on)exit}'); do
  out=$("$rfdse" "$cmd" --help) || { echo "FAIL: $cmd --help exit status"; fail=1; }
  case "$out" in "Usage: rfdse $cmd"*) ;; *) echo "FAIL: $cmd --help lacks a usage line"; fail=1;; esac
  echo "ok: $cmd --help"
done
"$rfdse" frobnicate 2>/dev/null; [ $? -eq 2 ] || { echo "FAIL: unknown command status"; fail=1; }
exit $fail
