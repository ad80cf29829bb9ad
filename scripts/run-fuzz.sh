#!/usr/bin/env bash
# run-fuzz.sh BUILD SECONDS: runs each libFuzzer target (built in BUILD with
# -DRFDSE_FUZZ=ON) for SECONDS, seeded from sweeps/, tests/sweeps/ and
# tests/fuzz/regress/; the corpus grows in BUILD/fuzz-corpus/ from run to run.  A crash
# leaves its input in BUILD/fuzz-artifacts/ and fails: fix it, then copy the input to
# tests/fuzz/regress/fuzz_TARGET/ so `ctest -L fuzz` replays it ever after.
set -u
build=$(cd "$1" && pwd) seconds=$2
src=$(cd "$(dirname "$0")/.." && pwd)
# Run from the build tree: the shipped sweeps name their traces relative to the
# repository's root, and decoding all 14 for one mutated sweep costs about 10 CPU-s
# under the sanitizers, near the per-input timeout.  From here those paths fail at the
# first open, one line, as any missing trace must; fuzz_trace covers the trace reader.
cd "$build" || exit 2
mkdir -p "$build/fuzz-corpus/sweep" "$build/fuzz-corpus/results" "$build/fuzz-corpus/trace" \
  "$build/fuzz-artifacts" "$src/tests/fuzz/regress/fuzz_trace"
find "$src/sweeps" "$src/tests/sweeps" -name '*.cfg' -exec cp -t "$build/fuzz-corpus/sweep" {} +
cp -t "$build/fuzz-corpus/trace" "$src"/tests/traces/*.traceg
export LSAN_OPTIONS="suppressions=$src/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
for target in sweep results trace; do
  echo "fuzz_$target: ${seconds} s"
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$target-" \
    "$build/fuzz-corpus/$target" "$src/tests/fuzz/regress/fuzz_$target" \
    >"$build/fuzz-$target.log" 2>&1
  rc=$?
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^Done' "$build/fuzz-$target.log"
  if [ $rc -ne 0 ]; then
    echo "fuzz_$target: FAILED (exit $rc); input in $build/fuzz-artifacts/, log $build/fuzz-$target.log"
    grep -E 'ERROR|SUMMARY|fuzz_(sweep|results|trace):' "$build/fuzz-$target.log" | head -5
    status=1
  fi
done
exit $status
