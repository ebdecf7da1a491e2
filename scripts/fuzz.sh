#!/usr/bin/env bash
# Coverage-guided fuzzing of WatchPair's decoders with libFuzzer (docs/Fuzzing.md).
#
# usage: scripts/fuzz.sh [SECONDS] [TARGET…]     (default: 60 s for each target in Fuzz/Sources/fuzz-*)
#
# Builds the fuzz package (Fuzz/, its own package: `swift build` of the root never builds it) once with
# libFuzzer and AddressSanitizer, then runs each target for SECONDS on a fresh copy of its seed corpus
# (Fuzz/Corpus/TARGET) in a temporary directory, so the committed corpus never grows. A crash, a broken
# property (`check` in Fuzz/Sources/FuzzSupport), an input running longer than 10 s, a leak or more than
# 2 GiB of memory is a finding: libFuzzer saves the input as .build/fuzz/artifacts/TARGET-crash-… (or
# -timeout-, -leak-, -oom-), and the target's log is .build/fuzz/logs/TARGET.log.
#
# Prints one line per target (executions, executions per second, coverage: edges and features, the
# corpus it ended with, findings), then "N passed, M failed" (scripts/test.sh counts it). Exit status 0
# when nothing was found, 1 for a finding or a failed build, 2 for a bad argument.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

seconds=${1:-60}
[ $# -gt 0 ] && shift
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/fuzz.sh [SECONDS] [TARGET…]" >&2
    exit 2
fi
known=$(find Fuzz/Sources -maxdepth 1 -name 'fuzz-*' -printf '%f\n' | sed 's/^fuzz-//' | sort)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets <<<"$known"
for target in "${targets[@]}"; do
    if ! grep -qx -- "$target" <<<"$known"; then
        echo "unknown target '$target' (known: $(echo $known))" >&2
        exit 2
    fi
done

out=.build/fuzz
artifacts=$out/artifacts
logs=$out/logs
mkdir -p "$artifacts" "$logs"

bash scripts/deps.sh || exit 1
echo "== build the fuzz targets (debug, -sanitize=fuzzer,address)"
start=$(date +%s)
if ! swift build --package-path Fuzz --scratch-path "$out/build" -c debug \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$logs/build.log" 2>&1; then
    # The gold linker warns about every ASan symbol; only errors matter.
    grep -E "error" "$logs/build.log" | grep -v "ld.gold: warning" | head -40
    echo "fuzz build failed (log: $logs/build.log)"
    echo "0 passed, ${#targets[@]} failed"
    exit 1
fi
echo "built in $(($(date +%s) - start)) s"
bin=$out/build/debug

work=$(mktemp -d "${TMPDIR:-/tmp}/watchpair-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
echo "== fuzz each target for $seconds s"
for target in "${targets[@]}"; do
    corpus=$work/$target
    mkdir -p "$corpus"
    cp Fuzz/Corpus/"$target"/* "$corpus"/ 2>/dev/null
    seeds=$(find "$corpus" -type f | wc -l)
    log=$logs/$target.log
    before=$(find "$artifacts" -name "$target-*" ! -name "$target-slow-unit-*" | wc -l)
    # The Swift runtime's backtracer would catch the crash before libFuzzer saves the input.
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=4096 -print_final_stats=1 -artifact_prefix="$artifacts/$target-" "$corpus" >"$log" 2>&1
    status=$?
    findings=$(($(find "$artifacts" -name "$target-*" ! -name "$target-slow-unit-*" | wc -l) - before))
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
    coverage=$(grep -aoE "cov: [0-9]+ ft: [0-9]+ corp: [0-9]+" "$log" | tail -1 | sed -E 's/cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)/cov \1, ft \2, corpus \3/')
    if [ "$status" -eq 0 ] && [ "$findings" -eq 0 ]; then
        verdict=ok
        passed=$((passed + 1))
    else
        verdict=FAIL
        failed=$((failed + 1))
        [ "$findings" -gt 0 ] || findings=1  # a failure without an artifact (it died starting) is one too
    fi
    printf '%-4s %-16s %9s execs %7s/s  %s (from %s seeds)  %s finding(s)\n' "$verdict" "$target" \
        "${execs:-?}" "${rate:-?}" "${coverage:-cov ?}" "$seeds" "$findings"
    if [ "$verdict" = FAIL ]; then
        grep -aE "fuzz finding:|Fatal error|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|SUMMARY:" "$log" | head -5 | sed 's/^/     /'
        grep -aE "Test unit written to" "$log" | sed 's/^/     /'
        echo "     log: $log"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
