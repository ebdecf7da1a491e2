#!/bin/bash
# Runs inside the sandbox after install.sh: short timings for the tests, as runtime drop-ins
# (/run/systemd/system/*.service.d), so the installed unit files themselves are what is tested. The
# template units' drop-ins (phoned@.service.d) apply to every pair's instance.
set -euo pipefail
for daemon in phoned watchd phoned@ watchd@; do
    mkdir -p "/run/systemd/system/$daemon.service.d"
    cat > "/run/systemd/system/$daemon.service.d/50-test.conf" <<CONF
[Service]
# Background launches exit after 2 s idle; a hung daemon is killed after 3 s; a silent or stalled
# link is given up after 3 s; reconnection attempts are at most 1 s apart.
Environment=WATCHPAIR_TIMEOUTS_IDLE_EXIT=2
Environment=WATCHPAIR_TIMEOUTS_HANDSHAKE=3
Environment=WATCHPAIR_KEEP_ALIVE_INTERVAL=1
Environment=WATCHPAIR_KEEP_ALIVE_TIMEOUT=3
Environment=WATCHPAIR_BACKOFF_MAXIMUM=1
WatchdogSec=3s
TimeoutAbortSec=1s
RestartSec=200ms
# A daemon that ignores SIGTERM is killed after 5 s (tests check that it never has to be).
TimeoutStopSec=5s
CONF
done
systemctl daemon-reload
