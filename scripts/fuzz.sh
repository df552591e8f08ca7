#!/usr/bin/env bash
# The fuzz targets (docs/fuzzing.md): builds them with clang, libFuzzer and
# ASan/UBSan in build/sanitized (scripts/sanitized-build.sh), runs each on a
# copy of its seed corpus and prints one line per target. Fails when any target finds a crash; the input that
# caused it is left in build/sanitized/findings/<target>/.
#   scripts/fuzz.sh                    every target, 60 s each
#   scripts/fuzz.sh --seconds 5        the quick run scripts/sanitize.sh makes
#   scripts/fuzz.sh --seconds 3600 config emulator
#                                      a long run of the targets named
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("${1#fuzz_}"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  for dir in tests/fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi

scripts/setup.sh sanitize
. scripts/sanitized-build.sh
sanitized_configure
build=$sanitized_build_dir
meson compile -C "$build" "${targets[@]/#/fuzz_}" >/dev/null

# Inputs are a few KB at most (a config, an HNS object); longer ones only
# slow the fuzzer down.
fuzzer_options=(-max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
# The emulator target's store fsyncs every write: on tmpfs that costs
# nothing, and it runs ten times as many inputs.
if [ -z "${TMPDIR:-}" ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

mkdir -p "$build/logs"
failed=0
printf '%-12s %8s %10s %8s %8s  %s\n' target seconds runs cov corpus result
for target in "${targets[@]}"; do
  # The fuzzer adds what it finds to its first corpus directory: a copy,
  # so that tests/fuzz/corpus only changes when someone means it to.
  work="$build/corpus-work/$target"
  findings="$build/findings/$target"
  log="$build/logs/$target.log"
  rm -rf "$work"
  mkdir -p "$work" "$findings"
  cp -r "tests/fuzz/corpus/$target/." "$work/"
  start=$(date +%s)
  result=ok
  "$build/tests/fuzz/fuzz_$target" "$work" "${fuzzer_options[@]}" -max_total_time="$seconds" \
    -artifact_prefix="$findings/" >"$log" 2>&1 || result=FAILED
  elapsed=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corpus=$(find "$work" -type f | wc -l)
  if [ "$result" = FAILED ]; then
    failed=1
    finding=$(ls -t "$findings" 2>/dev/null | head -1)
    result="FAILED: $findings/${finding:-?} (log $log)"
  fi
  printf '%-12s %8s %10s %8s %8s  %s\n' "$target" "$elapsed" "${runs:-?}" "${cov:-?}" "$corpus" "$result"
done
exit $failed
