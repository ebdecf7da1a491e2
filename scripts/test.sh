#!/usr/bin/env bash
# The README's test command (and CI's): builds once, then runs every test against that build:
# Swift tests (pure tables, engine over in-memory and Unix-socket transports, real daemon processes),
# the system tests under a private systemd as PID 1, a short run of every fuzz target, and a quick
# benchmark run so it never rots.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh || exit 1
logs=.build/test-logs
mkdir -p "$logs"

# Every engine, daemon and `wcctl wait` watches sockets with an inotify instance of its own, and the
# suites run many at once: the kernel's default of 128 instances per user (shared by every process of
# root) runs out ("Too many open files"). Raise it for this machine when we may, and say so.
instances=$(cat /proc/sys/fs/inotify/max_user_instances 2>/dev/null || echo 1024)
if [ "$(id -u)" = 0 ] && [ "$instances" -lt 1024 ]; then
    sysctl -qw fs.inotify.max_user_instances=1024 &&
        echo "note: raised fs.inotify.max_user_instances from $instances to 1024 for the tests"
fi

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

# Count a `swift test` run from its log: its closing "Test run with N tests" line and its failed tests.
count_swift_run() {
    local log=$1 total issues
    total=$(grep -aE "Test run with [0-9]+ tests" "$log" | tail -1 | sed -nE 's/.*Test run with ([0-9]+) tests.*/\1/p')
    # Failed tests only: not their "recorded an issue" lines, nor the run's own closing line.
    issues=$(grep -aE "✘ Test .* failed after" "$log" | grep -avc "Test run with" || true)
    if grep -aqE "Test run with [0-9]+ tests.* passed" "$log"; then
        passed=$((passed + ${total:-0}))
    else
        [ "${issues:-0}" -gt 0 ] || issues=1
        failed=$((failed + issues))
        passed=$((passed + ${total:-0} - issues))
    fi
}

# Count a run that ends with a line "N passed, M failed" (the README test, the system tests); a run
# without that line (killed, crashed) counts as one failure.
count_summary_run() {
    local line run_passed run_failed
    line=$(grep -aE "^[0-9]+ passed, [0-9]+ failed" "$1" | tail -1)
    run_passed=$(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line")
    run_failed=$(sed -nE 's/.* ([0-9]+) failed.*/\1/p' <<<"$line")
    passed=$((passed + ${run_passed:-0}))
    failed=$((failed + ${run_failed:-1}))
}

# The process tests start many daemons; they run on their own so they do not compete for the two
# cores with the in-process suites. The process-state tests (SystemdTests.ProcessStateTests) rewrite
# fd 3 and environment variables of the test process: run beside the other suites, they would swap a
# descriptor or a variable out from under them, so they run on their own too.
# A run starts its tests together, so on two cores a test takes about as long as the whole run (in one
# run of everything, 55 s, the slowest took 50 s; alone, a few): two runs of about half the suite each
# keep every test far inside its time limit and its real-clock safety nets.
echo "== Swift tests: the engine and store (WatchPairCoreTests)"
timeout -s KILL 900 swift test --skip-build --filter '^WatchPairCoreTests\.' 2>&1 \
    | tee "$logs/swift-test-core.log" | grep -aE "Test run with|✘" || true
count_swift_run "$logs/swift-test-core.log"

echo "== Swift tests: wire, transports, systemd, daemon, wcctl, WatchConnectivity, the layers"
timeout -s KILL 900 swift test --skip-build --skip '^ProcessTests\.' --skip 'ProcessStateTests' --skip '^WatchPairCoreTests\.' 2>&1 \
    | tee "$logs/swift-test.log" | grep -aE "Test run with|✘" || true
count_swift_run "$logs/swift-test.log"

echo "== Swift tests: process-wide state (fd 3, environment), alone"
timeout -s KILL 300 swift test --skip-build --filter 'ProcessStateTests' 2>&1 | tee "$logs/process-state-test.log" \
    | grep -aE "Test run with|✘" || true
count_swift_run "$logs/process-state-test.log"

echo "== Swift tests: the real phoned, watchd and wcctl as processes"
timeout -s KILL 900 swift test --skip-build --filter '^ProcessTests\.' 2>&1 | tee "$logs/process-test.log" \
    | grep -aE "Test run with|✘" || true
count_swift_run "$logs/process-test.log"

# Each README block and each check after them counts as one test (its "N passed, M failed" line).
echo "== README: the walkthrough and fault-injection blocks, run as written"
timeout -s KILL 300 bash tests/docs/readme.sh "$bin" 2>&1 | tee "$logs/readme.log" | grep -aE "^(not )?ok -|passed" || true
count_summary_run "$logs/readme.log"

echo "== system tests under a private systemd (PID 1 in new namespaces)"
if [ "$(id -u)" -eq 0 ]; then
    timeout -s KILL 1200 bash tests/system/run.sh "$bin" 2>&1 | tee "$logs/system.log"
    count_summary_run "$logs/system.log"
else
    echo "skipped: the system tests boot systemd in new namespaces and need root"
fi

# Each fuzz target counts as one test (the script's "N passed, M failed" line); docs/Fuzzing.md.
echo "== fuzz: every decoder for 10 s (libFuzzer and AddressSanitizer, a build of its own)"
timeout -s KILL 900 bash scripts/fuzz.sh 10 2>&1 | tee "$logs/fuzz.log" | grep -aE "^(ok|FAIL) |^ {5}|^built|passed" || true
count_summary_run "$logs/fuzz.log"

echo "== benchmark smoke run (wcbench --quick --peers; numbers are reported, never asserted)"
if timeout -s KILL 600 "$bin/wcbench" --quick --peers --json "$logs/bench-quick.json" > "$logs/bench.log" 2>&1; then
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
