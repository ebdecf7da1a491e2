#!/usr/bin/env bash
# Docs that run: executes every shell block of the README's walkthrough and fault-injection sections
# exactly as written, as one script, against the built binaries.
#
# usage: tests/docs/readme.sh BIN_DIR [README]
#   BIN_DIR  holds phoned, watchd and wcctl (e.g. "$(swift build --show-bin-path)")
#   README   the file to take the blocks from (default: the repository's README.md)
#
# How: the blocks are pasted into one script at their README line numbers (every other line blank), so
# the ERR trap's $LINENO is the README line of a failing command. The script runs in a scratch directory
# where `.build/debug` links to BIN_DIR (the README's commands name `.build/debug`), in a process group of
# its own, under a time limit. A command may fail only where its comment says so (`→ 107`), and then it
# must fail with that status. Afterwards a few checks confirm that the fault recipes had their effect.
# Prints `ok - …` / `not ok - …` per block and check, and ends with `N passed, M failed`.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin_dir=$(cd "${1:?usage: $0 BIN_DIR [README]}" 2>/dev/null && pwd) || { echo "readme.sh: no directory $1" >&2; exit 2; }
readme=$(realpath "${2:-$repo/README.md}")
for binary in phoned watchd wcctl; do
    [ -x "$bin_dir/$binary" ] || { echo "readme.sh: $bin_dir/$binary missing" >&2; exit 2; }
done
sections=('Walkthrough with `wcctl`' 'Fault injection with socat')
limit=${README_TEST_TIMEOUT:-180}

work=$(mktemp -d /tmp/wp-readme.XXXXXX)
runner=
cleanup() {
    # Everything the README started in the background is in the runner's process group.
    [ -z "$runner" ] || kill -KILL -- "-$runner" 2>/dev/null
    [ -z "$runner" ] || wait "$runner" 2>/dev/null
    # The walkthrough's own directory (its `mktemp -d /tmp/wp.XXXXXX`) is named in the script's output.
    local dir
    dir=$(sed -n 's/^::dir //p' "$work/out" 2>/dev/null)
    [[ $dir == /tmp/wp.* ]] && rm -rf "$dir"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# blocks: "FIRST LAST" README line numbers of each block's body, for the sections above.
awk -v s1="## ${sections[0]}" -v s2="## ${sections[1]}" '
    /^## / { inside = ($0 == s1 || $0 == s2) }
    inside && /^```sh$/ { start = NR + 1; next }
    inside && start && /^```$/ { print start, NR - 1; start = 0 }
' "$readme" >"$work/blocks"
for section in "${sections[@]}"; do
    grep -qxF "## $section" "$readme" || { echo "not ok - README has no section \"## $section\""; echo "0 passed, 1 failed"; exit 1; }
done
[ -s "$work/blocks" ] || { echo "not ok - no shell blocks in the README's sections"; echo "0 passed, 1 failed"; exit 1; }

# The script: line 1 sets the trap (README line 1 is the title), block lines verbatim, the rest blank.
{
    # shellcheck disable=SC2016 # expanded by the generated script
    echo 'trap '\''echo "::failed $LINENO $?" >&3'\'' ERR'
    awk 'NR == FNR { for (n = $1; n <= $2; n++) keep[n] = 1; next }
         FNR > 1 { print (FNR in keep) ? $0 : "" }' "$work/blocks" "$readme"
    # After the last line: where the walkthrough put its apps, for the checks and the cleanup.
    # shellcheck disable=SC2016
    echo 'echo "::dir ${dir:-}"'
} >"$work/script.sh"

mkdir -p "$work/run/.build"
ln -s "$bin_dir" "$work/run/.build/debug"
(cd "$work/run" && exec setsid bash "$work/script.sh" 3>"$work/failures" >"$work/out" 2>&1 </dev/null) &
runner=$!
timeout_hit=no
if ! timeout "$limit" tail --pid="$runner" -f /dev/null; then timeout_hit=yes; fi

passed=0
failed=0
report() { # NAME OK(0|1) DETAILS
    if [ "$2" = 0 ]; then
        echo "ok - $1"
        passed=$((passed + 1))
    else
        echo "not ok - $1"
        [ -z "$3" ] || sed 's/^/#   /' <<<"$3"
        failed=$((failed + 1))
    fi
}
[ $timeout_hit = no ] || report "the README's blocks finish within ${limit}s" 1 "$(tail -n 20 "$work/out" | tr -d '\000')"

# Each block: its failing lines must be exactly those whose comment ends in `→ STATUS`, with that status.
while read -r first last; do
    problems=
    for ((n = first; n <= last; n++)); do
        line=$(sed -n "${n}p" "$readme")
        want=$(sed -nE 's/.*→ ([0-9]+)[[:space:]]*$/\1/p' <<<"$line")
        got=$(awk -v n="$n" '$1 == "::failed" && $2 == n { print $3 }' "$work/failures" | tr '\n' ' ')
        got=${got% }
        if [ "$got" != "$want" ]; then
            problems+="README line $n: exit status ${got:-0}, expected ${want:-0}: $line"$'\n'
        fi
    done
    report "README lines $first-$last run as written" "$([ -z "$problems" ] && echo 0 || echo 1)" \
        "${problems}output:"$'\n'"$(tail -n 15 "$work/out" | tr -d '\000')"
done <"$work/blocks"

# What the recipes promise, seen from the apps (the walkthrough's directory is still there).
dir=$(sed -n 's/^::dir //p' "$work/out")
if [ -z "$dir" ] || [ $timeout_hit = yes ]; then
    report "the walkthrough's apps can be inspected" 1 "the script did not reach its end"
else
    # The daemons are still running: the events come from the watch app itself.
    watch_events() { WCCTL_RUNTIME_DIR=$dir "$bin_dir/wcctl" --side watch --json events --event "$1" 2>&1; }
    for event in handshakeFailed frameRejected; do
        count=$(watch_events "$event" | grep -c "\"$event\"")
        report "the fault recipes made the watch log $event" "$([ "$count" -ge 1 ] && echo 0 || echo 1)" \
            "$(watch_events "$event")"
    done
    page=$work/run/session.html
    report "wcctl timeline wrote session.html" "$(grep -q 'data-kind="userInfo"' "$page" 2>/dev/null && echo 0 || echo 1)" \
        "$(ls -l "$page" 2>&1)"
    reply=$(grep -cxF '{"ok":true}' "$work/out")
    report 'the watch app answered {"ok":true}' "$([ "$reply" -ge 1 ] && echo 0 || echo 1)" "$(head -n 30 "$work/out" | tr -d '\000')"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
