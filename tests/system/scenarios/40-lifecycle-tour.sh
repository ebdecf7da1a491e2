# The systemd part of `bash scripts/run.sh` (scripts/lifecycle-tour.sh), as run.sh runs it in its own
# sandbox: it must finish, show each step's effect (a background launch, its idle exit, the rejected
# frame, the session's journal), draw the session, and leave every unit stopped.
# timeout: 120
. "$WP_REPO/tests/system/lib.sh"
reset_pair
out=$(scratch)
log=$out/tour.log
sx bash "$WP_SHARED/src/scripts/lifecycle-tour.sh" "$out" >"$log" 2>&1 || { tail -n 30 "$log" >&2; fail "the tour failed"; }
for line in 'watchd launched in the background' 'with nothing to do (background launch)' \
    'rejected a frame from the peer' '{"pong":true}' 'error 7007 (notReachable)' '"channel":"didFinish"'; do
    grep -qF "$line" "$log" || { tail -n 30 "$log" >&2; fail "the tour did not show: $line"; }
done
page=$(cat "$out/session.html") || fail "no session.html"
for kind in message reply userInfo didFinish foregroundLaunch backgroundLaunch idleExit fault; do
    grep -q "data-kind=\"$kind\"" <<<"$page" || fail "the tour's timeline draws no $kind"
done
for unit in phoned.service watchd.service phoned.socket watchd.socket; do
    expect_unit "$unit" inactive
done
sx pgrep -x wcctl >/dev/null && fail "the tour left a wcctl running"
echo "the lifecycle tour runs, shows each step and stops everything"
