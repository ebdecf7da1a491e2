# The sandbox runs nothing but journald and what the tests start: every unit of masks.list is
# masked, no timer, path or unexpected service or socket is active, the journal is volatile.
. "$WP_REPO/tests/system/lib.sh"

while read -r unit; do
    [[ "$(sx systemctl is-enabled "$unit" 2>/dev/null)" == masked* ]] || fail "$unit is not masked"
done < <(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$WP_REPO/scripts/sandbox/masks.list")

allowed='^(systemd-journald\.service|systemd-journald\.socket|systemd-journald-dev-log\.socket|watchpair-sandbox\.target|phoned\.(socket|service)|watchd\.(socket|service))$'
active=$(sx systemctl list-units --no-legend --plain --all --state=active,activating,reloading,failed \
    --type=service,socket,timer,path,automount,swap,target | awk '{print $1}')
unexpected=$(echo "$active" | grep -Ev "$allowed" | grep -Ev '^(sysinit|sockets|local-fs|local-fs-pre|swap|cryptsetup|veritysetup|integritysetup|paths|timers|slices)\.target$' || true)
[ -z "$unexpected" ] || fail "unexpected units running in the sandbox: $unexpected"
# A timer may be loaded (a host package's unit that pulls in basic.target loads timers.target and its
# wants, e.g. avahi-daemon), but only masked: none can be scheduled, and none is.
unmasked=$(sx systemctl list-units --type=timer --all --no-legend --plain | awk '$2 != "masked" {print $1}')
[ -z "$unmasked" ] || fail "timers that could run in the sandbox: $unmasked"
sx systemctl list-timers --no-legend | grep . >/dev/null && fail "timers are scheduled: $(sx systemctl list-timers --no-legend)"

sx journalctl --header | grep 'File path: /run/log/journal/'>/dev/null || fail "the journal is not volatile"
[ "$(sx systemctl is-system-running)" = running ] || fail "system state: $(sx systemctl is-system-running); $(sx systemctl --failed --no-legend)"
# The root is the overlay: writing it never reaches the host.
sx touch /wp-overlay-probe
[ ! -e /wp-overlay-probe ] || { rm -f /wp-overlay-probe; fail "a write to the sandbox's / reached the host"; }
sx rm -f /wp-overlay-probe
echo "clean"
