#!/bin/bash
# check_docs_tables.sh RFDSE DOCS_DIR: docs/sweep-format.md's preset table is the preset
# registry (dse/sweep/technique.c) as `rfdse list techniques` prints it: the same names, in
# the same order, with the same one-line descriptions; and every register-file design
# of the model's registry is a technique key that `rfdse list knobs` describes.
set -u
rfdse=$1 docs=$2
fail=0
want=$("$rfdse" list techniques | sed -E 's/^([^ ]+) +(.*)$/| `\1` | \2 |/')
# the table that follows "rfdse list techniques` prints it:", header rows left out
have=$(awk '/list techniques` prints it:/ {on = 1; next} on && /^\|/ {seen = 1; print; next}
            on && seen {exit}' "$docs/sweep-format.md" | grep -vE '^\| ?(preset|-)')
if [ "$want" != "$have" ]; then
  echo "FAIL: docs/sweep-format.md's preset table differs from the registry:"
  diff <(echo "$want") <(echo "$have")
  fail=1
fi
for d in $(sed -n 's/^ *X(\([a-z_0-9]*\)).*/\1/p' "$docs/../model/sm_designs.h"); do
  "$rfdse" list knobs | grep -q "^techniques\[\]\.$d " ||
    { echo "FAIL: design $d is not a technique knob"; fail=1; }
done
exit $fail
