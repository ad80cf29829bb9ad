#!/usr/bin/env bash
# check_submit.sh RFDSE SWEEP SOURCE_DIR: `rfdse submit` without a Slurm.
#  - --dry-run scripts for several option sets, checked line by line: the #SBATCH
#    directives, absolute paths, and quoting (a path with spaces, quotes, '$' and '%');
#  - the compiled-in template equals slurm/rfdse.sbatch.in;
#  - bad options and bad sweeps: one line each, exit 2, nothing written or submitted;
#  - submission through a stand-in sbatch: the script is kept, the job id printed.
set -u
rfdse=$1 sweep=$2 src=$3
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# has SCRIPT LINE: SCRIPT holds exactly this line.
has() { grep -qxF -- "$2" <<<"$1" || { echo "FAIL: missing line: $2"; fail=1; }; }
lacks() { ! grep -q -- "$2" <<<"$1" || { echo "FAIL: unexpected line matching: $2"; fail=1; }; }
# value SCRIPT NAME: the value bash gives the variable NAME in SCRIPT.
value() { (eval "$(grep -E "^$2=" <<<"$1")" && printf '%s' "${!2}"); }
is() { [ "$1" = "$2" ] || { echo "FAIL: $3: got [$1], want [$2]"; fail=1; }; }
dry() { "$rfdse" submit "$@" --dry-run; }
# The checkers themselves must be able to fail.
(fail=0; has "a" "b" >/dev/null; [ $fail -eq 1 ]) || { echo "FAIL: has() missed a missing line"; fail=1; }
(fail=0; is "x" "y" "" >/dev/null; [ $fail -eq 1 ]) || { echo "FAIL: is() missed a difference"; fail=1; }

# The template file a cluster admin reads is the one compiled in.
"$rfdse" submit --print-template | cmp -s - "$src/slurm/rfdse.sbatch.in" \
  || { echo "FAIL: --print-template differs from slurm/rfdse.sbatch.in"; fail=1; }

# 1. Defaults, relative sweep path: everything absolute, site defaults left alone.
cp "$sweep" tiny.cfg
s=$(dry tiny.cfg) || { echo "FAIL: dry run with defaults"; exit 1; }
bash -n <<<"$s" || { echo "FAIL: the script is not valid bash"; fail=1; }
is "$(head -n1 <<<"$s")" "#!/bin/bash" "first line"
has "$s" "#SBATCH --job-name=rfdse-tiny_run"
has "$s" "#SBATCH --nodes=1"
has "$s" "#SBATCH --ntasks-per-node=1"
has "$s" "#SBATCH --chdir=$tmp/results"
has "$s" "#SBATCH --output=$tmp/results/tiny_run-%j.out"
has "$s" "#SBATCH --error=$tmp/results/tiny_run-%j.err"
has "$s" "#SBATCH --open-mode=append"
has "$s" "#SBATCH --requeue"
has "$s" "#SBATCH --signal=B:USR1@300"
lacks "$s" "^#SBATCH --time"; lacks "$s" "^#SBATCH --partition"; lacks "$s" "^#SBATCH --account"
# the job runs copies pinned next to its script (issue 19 item 13), made at submission
is "$(value "$s" SWEEP)" "$tmp/results/tiny_run.resolved.cfg" "SWEEP (the job's copy)"
is "$(value "$s" OUT)" "$tmp/results/tiny_run.h5" "OUT (the sweep's output.file, made absolute)"
is "$(value "$s" LAUNCHER)" auto "LAUNCHER"
is "$(value "$s" RFDSE)" "$tmp/results/tiny_run.rfdse" "RFDSE (the job's copy)"
[ "$(grep -c '^#SBATCH' <<<"$s")" -eq 9 ] || { echo "FAIL: expected 9 directives"; fail=1; }
# Directives must come before the first command, or sbatch ignores them.
first_cmd=$(grep -nvE '^(#|$)' <<<"$s" | head -n1 | cut -d: -f1)
last_dir=$(grep -n '^#SBATCH' <<<"$s" | tail -n1 | cut -d: -f1)
[ "$last_dir" -lt "$first_cmd" ] || { echo "FAIL: #SBATCH after the first command"; fail=1; }
[ ! -e results ] || { echo "FAIL: --dry-run created the output directory"; fail=1; }

# 2. Every option, in their usual spellings.
s=$(dry "$tmp/tiny.cfg" --nodes 4 --ntasks-per-node=16 -t 2-12:30 -p gpu -A proj1 -J sweep7 \
      --sbatch-line=--mem=8G --sbatch-line "--constraint=ib&fast" --launcher mpirun \
      -o sub/out.h5 --output-dir logs) || { echo "FAIL: dry run with all options"; exit 1; }
has "$s" "#SBATCH --job-name=sweep7"
has "$s" "#SBATCH --nodes=4"
has "$s" "#SBATCH --ntasks-per-node=16"
has "$s" "#SBATCH --time=2-12:30"
has "$s" "#SBATCH --partition=gpu"
has "$s" "#SBATCH --account=proj1"
has "$s" "#SBATCH --chdir=$tmp/logs"
has "$s" "#SBATCH --output=$tmp/logs/tiny_run-%j.out"
has "$s" "#SBATCH --mem=8G"
has "$s" "#SBATCH --constraint=ib&fast"
has "$s" "#SBATCH --signal=B:USR1@300"
is "$(value "$s" OUT)" "$tmp/sub/out.h5" "OUT from -o"
is "$(value "$s" LAUNCHER)" mpirun "LAUNCHER"

# 2b. --chips/--seed reach the job's `rfdse run`, as separate words; none by default.
options() { (eval "$(grep -E '^OPTIONS=' <<<"$1")" && echo "${#OPTIONS[@]}: ${OPTIONS[*]}"); }
is "$(options "$(dry tiny.cfg --chips 4 --seed 11)")" "4: --chips 4 --seed 11" "OPTIONS"
is "$(options "$(dry tiny.cfg --seed 0)")" "2: --seed 0" "OPTIONS with --seed only"
is "$(options "$(dry tiny.cfg)")" "0: " "OPTIONS without overrides"
has "$(dry tiny.cfg)" '"${launch[@]}" "$RFDSE" run "$SWEEP" -o "$OUT" "${OPTIONS[@]}" "${mode[@]}" &'
# --techniques/--workloads reach it too, checked against the sweep now and written in the
# sweep's order (as `rfdse run` records them); an unknown name is refused, listing the
# accepted ones, before anything is written.
t1=$(sed -n 's/^techniques = ( "\([a-z_0-9]*\)".*/\1/p' tiny.cfg)
w1=$(sed -n 's/^workloads = ( "\([a-z_0-9]*\)".*/\1/p' tiny.cfg)
is "$(options "$(dry tiny.cfg --chips=2 --techniques="$t1" --workloads "$w1")")" \
   "6: --chips 2 --techniques $t1 --workloads $w1" "OPTIONS with a selection"
err=$("$rfdse" submit tiny.cfg --dry-run --techniques "$t1,frob" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [[ "$err" == *"'frob' is not in the sweep, accepted: "*"$t1"* ]] ||
  { echo "FAIL: an unknown --techniques name: status $rc, $err"; fail=1; }

# 3. Quoting: spaces, both quotes, '$', '%', '#' and a backslash where Slurm allows it.
mkdir -p "$tmp/my sweeps"
weird_sweep="$tmp/my sweeps/it's \"tiny\" \$HOME.cfg"
cp "$sweep" "$weird_sweep"
weird_dir="$tmp/logs 'a' \"b\" #1 100%"
weird_out="$tmp/res \$(touch pwned) \`x\` \\n.h5"
s=$(dry "$weird_sweep" --output-dir "$weird_dir" -o "$weird_out" -J "a \"b\" 'c' #d" -A 'x\y') \
  || { echo "FAIL: dry run with awkward paths"; exit 1; }
bash -n <<<"$s" || { echo "FAIL: the script with awkward paths is not valid bash"; fail=1; }
is "$(value "$s" SWEEP)" "$weird_dir/tiny_run.resolved.cfg" "SWEEP with quotes"
is "$(value "$s" RFDSE)" "$weird_dir/tiny_run.rfdse" "RFDSE with quotes"
is "$(value "$s" OUT)" "$weird_out" "OUT with \$(...) and backquotes"
[ ! -e pwned ] || { echo "FAIL: a path was executed"; fail=1; }
has "$s" "#SBATCH --chdir=\"$tmp/logs 'a' \\\"b\\\" #1 100%\""
has "$s" "#SBATCH --output=\"$tmp/logs 'a' \\\"b\\\" #1 100%%/tiny_run-%j.out\""
has "$s" "#SBATCH --job-name=\"a \\\"b\\\" 'c' #d\""
has "$s" "#SBATCH --account=\"x\\\\y\""

# 4. The signal lead: default 300 s, at most half the limit, or as given.
lead() { dry tiny.cfg "$@" | sed -n 's/^#SBATCH --signal=B:USR1@//p'; }
is "$(lead -t 30)" 300 "lead for 30 min"
is "$(lead -t 5)" 150 "lead for 5 min"
is "$(lead -t 1:00)" 30 "lead for 1 min"
is "$(lead -t 0:01)" 1 "lead for 1 s"
is "$(lead -t 10 --signal-before 100)" 100 "--signal-before"
is "$(lead -t UNLIMITED)" 300 "lead without a limit"
for t in 90 90:30 1:30:00 1-0 1-23:59 1-0:0:1 0:1 infinite; do
  dry tiny.cfg -t "$t" | grep -qxF "#SBATCH --time=$t" || { echo "FAIL: --time $t refused"; fail=1; }
done

# 5. Bad input: one line, exit 2, nothing submitted (a stand-in sbatch records calls).
mkdir bin
printf '#!/bin/sh\necho "$@" >>"%s/sbatch.calls"\necho 4242\n' "$tmp" >bin/sbatch
chmod +x bin/sbatch
export PATH="$tmp/bin:$PATH"
bad() { # EXPECTED-SUBSTRING ARGS...
  local want=$1; shift
  err=$("$rfdse" submit "$@" 2>&1 >/dev/null); rc=$?
  if [ $rc -ne 2 ] || [ "$(grep -c . <<<"$err")" -ne 1 ] || [[ "$err" != *"$want"* ]]; then
    echo "FAIL: submit $*: rc=$rc, want 2 and one line with '$want', got: $err"; fail=1
  else echo "ok: $err"; fi
}
bad "--nodes expects an integer in [1, 100000], got '0'" tiny.cfg --nodes 0
bad "--nodes expects an integer" tiny.cfg --nodes two
bad "--ntasks-per-node expects an integer" tiny.cfg --ntasks-per-node 0
for t in 0 0:0 1:2:3:4 1:60 61:61:00 1-24 1-2-3 -5 abc 1h 1-:30 ' 10' 10:; do
  bad "--time '$t' is not a Slurm time limit" tiny.cfg --time "$t"
done
bad "--signal-before 600 is not shorter than --time 10" tiny.cfg --time 10 --signal-before 600
bad "--launcher expects srun, mpirun or auto" tiny.cfg --launcher slurm
bad "--chips expects an integer in [1, 1000000], got '0'" tiny.cfg --chips 0
bad "--seed expects an integer in [0, 9000000000000000000], got '-3'" tiny.cfg --seed -3
printf 'output = { trace_chips = [5]; };\n' >traced.cfg
bad "--chips 5 leaves out traced chip 5 (output.trace_chips)" traced.cfg --chips 5
bad "--sbatch-line expects an sbatch option" tiny.cfg --sbatch-line mem=8G
bad "--job-name must not contain a control character such as a line break" tiny.cfg --job-name $'a\nb'
bad "--output-dir must not contain a backslash" tiny.cfg --output-dir 'a\b'
bad "missing the sweep file" --nodes 2
bad "expected one sweep file" tiny.cfg other.cfg
bad "unknown option '--frobnicate'" tiny.cfg --frobnicate
bad "option '--time' needs a value" tiny.cfg --time
bad "nope.cfg:0: cannot read the sweep file" nope.cfg
bad "unknown_key.cfg:4: key 'variation.phy'" "$src/tests/sweeps/bad/unknown_key.cfg"
bad "syntax_error.cfg:" "$src/tests/sweeps/bad/syntax_error.cfg" --nodes 2
[ ! -e sbatch.calls ] || { echo "FAIL: a bad submission reached sbatch: $(cat sbatch.calls)"; fail=1; }

# 6. Submission through the stand-in: job id on stdout, script kept, sbatch --parsable.
id=$("$rfdse" submit tiny.cfg --output-dir "a dir" 2>info) || { echo "FAIL: submit: $(cat info)"; fail=1; }
is "$id" 4242 "job id"
is "$(cat sbatch.calls 2>/dev/null)" "--parsable $tmp/a dir/tiny_run.sbatch" "sbatch arguments"
[ -f "a dir/tiny_run.sbatch" ] && [ ! -e "a dir/tiny_run.sbatch.partial" ] \
  || { echo "FAIL: the script was not kept"; fail=1; }
cmp -s "a dir/tiny_run.sbatch" <(dry tiny.cfg --output-dir "a dir") \
  || { echo "FAIL: the kept script differs from --dry-run"; fail=1; }
grep -q "rfdse submit: job 4242" info || { echo "FAIL: no job line on stderr: $(cat info)"; fail=1; }
# The pinned copies: this very executable, and the sweep resolved (it validates to the same).
cmp -s "a dir/tiny_run.rfdse" "$rfdse" && [ -x "a dir/tiny_run.rfdse" ] \
  || { echo "FAIL: a dir/tiny_run.rfdse is not a copy of $rfdse"; fail=1; }
cmp -s <("$rfdse" validate "a dir/tiny_run.resolved.cfg") <("$rfdse" validate tiny.cfg) \
  || { echo "FAIL: a dir/tiny_run.resolved.cfg does not resolve to tiny.cfg's sweep"; fail=1; }
[ ! -e "a dir/tiny_run.rfdse.partial" ] || { echo "FAIL: a .partial copy was left"; fail=1; }
# sbatch refusing, and sbatch missing: exit 1, one line of ours, and nothing left behind
# (issue 33 item 9): no script, no copies, no directory it made; an earlier
# submission's files in the same directory stay.
printf '#!/bin/sh\necho "sbatch: error: Invalid account" >&2\nexit 1\n' >bin/sbatch
err=$("$rfdse" submit tiny.cfg --output-dir fresh/sub 2>&1 >/dev/null); rc=$?
{ [ $rc -eq 1 ] && [[ "$err" == *"sbatch refused the job"* ]]; } || { echo "FAIL: refused: rc=$rc $err"; fail=1; }
[ ! -e fresh ] || { echo "FAIL: a refused submission left: $(find fresh)"; fail=1; }
err=$("$rfdse" submit tiny.cfg --output-dir "a dir" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && [ -f "a dir/tiny_run.sbatch" ] && [ -f "a dir/tiny_run.rfdse" ] ||
  { echo "FAIL: a refused submission removed an earlier one's files: rc=$rc $(ls "a dir")"; fail=1; }
nosb=$(mktemp -d)
for p in $(command -v mpirun) $(command -v rm); do ln -s "$p" "$nosb/"; done
err=$(PATH=$nosb "$rfdse" submit tiny.cfg --output-dir fresh/sub 2>&1 >/dev/null); rc=$?
{ [ $rc -eq 1 ] && [[ "$err" == *"sbatch not found"* ]]; } || { echo "FAIL: no sbatch: rc=$rc $err"; fail=1; }
[ ! -e fresh ] || { echo "FAIL: a submission without sbatch left: $(find fresh)"; fail=1; }
err=$(PATH=$nosb "$rfdse" submit tiny.cfg 2>&1 >/dev/null); rc=$?
out_dir=$(dirname "$("$rfdse" validate tiny.cfg | sed -n 's/^ *file = "\(.*\)";.*/\1/p')")
[ $rc -eq 1 ] && [ -z "$(ls "$out_dir"/tiny_run.* 2>/dev/null)" ] ||
  { echo "FAIL: a submission without sbatch left: $(ls "$out_dir")"; fail=1; }
rm -rf "$nosb"
exit $fail
