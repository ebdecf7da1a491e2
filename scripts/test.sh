#!/usr/bin/env bash
# The README's test command (and CI's): builds once, then runs every test against that build:
# Swift tests (pure tables, engine over in-memory and Unix-socket transports, real daemon processes),
# the system tests under a private systemd as PID 1, and a quick benchmark run so it never rots.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh || exit 1
logs=.build/test-logs
mkdir -p "$logs"

echo "== build (debug, everything including tests)"
if ! swift build --build-tests 2>&1 | tee "$logs/build.log" | grep -E "error|warning: unre|Compiling|Build complete" | grep -vE "^\[[0-9]+/[0-9]+\] Compiling" ; then :; fi
if ! grep -q "Build complete" "$logs/build.log"; then
    grep -E "error" "$logs/build.log" | head -40
    echo "build failed"
    exit 1
fi
bin=$(swift build --show-bin-path)

passed=0
failed=0

echo "== Swift tests (unit, component, process)"
swift test --skip-build 2>&1 | tee "$logs/swift-test.log" | grep -E "^(✔|✘|􀟈|􀢄)? ?(Test run|Suite .* failed|Test .* (failed|recorded an issue))|✘" || true
swift_counts=$(grep -E "Test run with [0-9]+ tests" "$logs/swift-test.log" | tail -1)
swift_total=$(echo "$swift_counts" | sed -nE 's/.*Test run with ([0-9]+) tests.*/\1/p')
swift_issues=$(grep -cE "✘ Test .* failed" "$logs/swift-test.log" || true)
if echo "$swift_counts" | grep -q "passed"; then
    passed=$((passed + ${swift_total:-0}))
else
    failed=$((failed + ${swift_issues:-1}))
    passed=$((passed + ${swift_total:-0} - ${swift_issues:-1}))
fi

echo "== system tests under a private systemd (PID 1 in new namespaces)"
if [ "$(id -u)" -eq 0 ]; then
    bash tests/system/run.sh "$bin" 2>&1 | tee "$logs/system.log"
    system_line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$logs/system.log" | tail -1)
    passed=$((passed + $(echo "$system_line" | sed -nE 's/^([0-9]+) passed.*/\1/p')))
    failed=$((failed + $(echo "$system_line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')))
    [ -n "$system_line" ] || failed=$((failed + 1))
else
    echo "skipped: the system tests boot systemd in new namespaces and need root"
fi

echo "== benchmark smoke run (wcbench --quick; numbers are reported, never asserted)"
if "$bin/wcbench" --quick --json "$logs/bench-quick.json" > "$logs/bench.log" 2>&1; then
    tail -30 "$logs/bench.log"
    passed=$((passed + 1))
else
    tail -30 "$logs/bench.log"
    echo "wcbench --quick failed"
    failed=$((failed + 1))
fi

echo
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
