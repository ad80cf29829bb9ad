#!/usr/bin/env bash
# check_big_sweep.sh RFDSE [SECONDS]: `rfdse validate` on generated large or wide sweep
# files answers within SECONDS (default 1) each: accepted, or refused with one line
# FILE:LINE: and exit status 2 (issue 20 item 3; the limits are in docs/sweep-format.md).
set -u
rfdse=$1 limit=${2:-1}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fail=0

# check NAME EXPECTED_STATUS TEXT: validates $dir/NAME.cfg
check() {
  local f=$dir/$1.cfg want=$2 text=$3
  local t0 t1 rc err ms
  t0=$(date +%s%N)
  err=$("$rfdse" validate "$f" 2>&1 >/dev/null); rc=$?
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  echo "$1: $(stat -c %s "$f") bytes, exit $rc, ${ms} ms: ${err:0:160}"
  [ "$rc" -eq "$want" ] || { echo "FAIL: $1: exit $rc, expected $want"; fail=1; }
  [ "$ms" -lt $((limit * 1000)) ] || { echo "FAIL: $1: ${ms} ms, limit ${limit} s"; fail=1; }
  if [ "$want" -eq 2 ]; then
    [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || { echo "FAIL: $1: not one line"; fail=1; }
    case "$err" in "$f":[0-9]*:*"$text"*) ;; *) echo "FAIL: $1: expected '$f:LINE: ...$text'"; fail=1;; esac
  fi
}

valid='chips = { count = 3; };'
# 10 MB: a valid sweep followed by blanks
{ echo "$valid"; head -c 10000000 /dev/zero | tr '\0' ' '; } >"$dir/ten_mb.cfg"
check ten_mb 2 "larger than 1048576 bytes"

# just under 1 MiB: a valid sweep and comments, accepted
{ echo "$valid"; yes '# a comment line of some length, repeated to fill the file up' | head -c 1000000; echo; } >"$dir/one_mb_ok.cfg"
check one_mb_ok 0 ""

# a group of 20 000 keys (libconfig's duplicate check made this O(n^2): 6 s before)
{ echo 'sm = {'; seq 0 19999 | sed 's/.*/  k& = 1;/'; echo '};'; } >"$dir/wide_group.cfg"
check wide_group 2 "more than 64 settings in one group"

# 1 MiB of groups of 64 keys in a list: every group within the limit
group="{ $(seq 0 63 | sed 's/.*/k&=1;/' | tr -d '\n') }"
n=$(( 1000000 / (${#group} + 2) ))
{ echo 'techniques = ('; yes "$group," | head -n $((n - 1)); echo "$group"; echo ');'; } >"$dir/many_groups.cfg"
check many_groups 2 "expected 1 to 64 entries"

# a string of 1 MB (libconfig grows strings in 64-byte steps: 10 MB took 110 s before)
{ printf 'output = { file = "'; head -c 1000000 /dev/zero | tr '\0' a; echo '"; };'; } >"$dir/long_string.cfg"
check long_string 2 "a string of more than 8192 bytes"

# adjacent literals are one string to libconfig
chunk=$(head -c 4000 /dev/zero | tr '\0' b)
{ printf 'output = { file = '; for i in 1 2 3; do printf '"%s" ' "$chunk"; done; echo '; };'; } >"$dir/adjacent.cfg"
check adjacent 2 "a string of more than 8192 bytes"

# a device that never ends
ln -s /dev/zero "$dir/zero.cfg"
check zero 2 "larger than"
exit $fail
