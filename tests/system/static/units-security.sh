# systemd-analyze security --offline rates both services and both template services "OK" or better:
# exposure below 2.0.
set -uo pipefail
for daemon in phoned watchd phoned@ watchd@; do
    out=$(systemd-analyze security --offline=true --no-pager "$WP_REPO/systemd/$daemon.service" 2>&1)
    line=$(echo "$out" | grep 'Overall exposure level')
    echo "$line"
    exposure=$(echo "$line" | sed -n 's/.*: \([0-9.]*\) .*/\1/p')
    [ -n "$exposure" ] || { echo "$out"; exit 1; }
    awk -v e="$exposure" 'BEGIN { exit !(e < 2.0) }' || { echo "$daemon.service exposure $exposure >= 2.0"; echo "$out" | grep '✗'; exit 1; }
done
