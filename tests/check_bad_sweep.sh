#!/usr/bin/env bash
# check_bad_sweep.sh RFDSE FILE: `rfdse validate FILE` must fail with exit status 2 and
# exactly one line on stderr that starts with FILE:LINE: and contains the text of the
# file's "# expect: ..." comment.
set -u
rfdse=$1 file=$2
expect=$(sed -n 's/^# expect: //p' "$file" | head -1)
[ -n "$expect" ] || { echo "FAIL: $file has no '# expect:' line"; exit 1; }
err=$("$rfdse" validate "$file" 2>&1 >/dev/null); rc=$?
lines=$(printf '%s\n' "$err" | grep -c .)
fail=0
[ "$rc" -eq 2 ] || { echo "FAIL: exit status $rc, expected 2"; fail=1; }
[ "$lines" -eq 1 ] || { echo "FAIL: $lines lines on stderr, expected 1"; fail=1; }
case "$err" in "$file":[0-9]*:*) ;; *) echo "FAIL: message does not start with $file:LINE:"; fail=1;; esac
case "$err" in *"$expect"*) ;; *) echo "FAIL: message lacks '$expect'"; fail=1;; esac
line=$(sed -n 's/^# line: //p' "$file" | head -1)
if [ -n "$line" ]; then
  case "$err" in "$file:$line:"*) ;; *) echo "FAIL: expected line $line"; fail=1;; esac
fi
echo "stderr: $err"
exit $fail
