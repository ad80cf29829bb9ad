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
# Messages quote the command line escaped: one line whatever it holds (issue 20 item 2).
# (`rfdse run` starts MPI, whose allocations LeakSanitizer would report in the ASan
# build: as for the MPI tests, no leak detection there.)
one_line() {
  local err rc
  err=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$rfdse" "$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] \
    || { echo "FAIL: $(printf '%q ' "$@"): exit $rc, message: $err"; fail=1; }
}
one_line $'fro\nb'
one_line validate $'no\nsuch.cfg'
one_line validate $'--x\e[2J'
one_line validate a.cfg $'b\n.cfg'
one_line run --chips $'1\n2'
one_line run $'--x\ny'
one_line sm $'--x\ny'
one_line chipmap $'--x\ny'
exit $fail
