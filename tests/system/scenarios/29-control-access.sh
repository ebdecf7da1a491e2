# The control sockets under systemd, with the units' hardening (PrivateUsers= included): mode 0660 in
# group watchpair; a member of the group uses wcctl without root; a stranger is refused by the file
# mode and, with the mode opened up, by the daemon's own SO_PEERCRED/SO_PEERGROUPS check, which is a
# journal event (controlClientRefused).
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx sh -c 'getent passwd wpmember >/dev/null || useradd --no-create-home --groups watchpair wpmember' || fail "useradd wpmember"
sx sh -c 'getent passwd wpstranger >/dev/null || useradd --no-create-home wpstranger' || fail "useradd wpstranger"
# as USER ARGS...: wcctl on the phone as USER, with its groups from the user database (as at login).
as() {
    local user=$1
    shift
    sx setpriv --reuid="$user" --regid="$user" --init-groups timeout 30 wcctl --side phone "$@"
}
sx systemctl start phoned.service
wait_for 10 phone ready
journal_mark

expect_status 0 as wpmember status
expect_status 0 as wpmember transfers
expect_status 1 as wpstranger status  # EACCES from the file mode
has_event WC_EVENT=controlClientRefused && fail "a refusal by the file mode is not the daemon's"

# The mode opened up, as in issue 13: only the daemon's own check is left.
sx chmod 0666 /run/watchpair/phoned.ctl
expect_status 101 as wpstranger transfers
out=$(as wpstranger status 2>&1) && fail "stranger served: $out"
grep -q 'permission denied: uid [0-9]* is not root' <<<"$out" || fail "stranger's error: $out"
wait_event 10 WC_EVENT=controlClientRefused WC_ROLE=phone
expect_status 0 as wpmember status
expect_clean_stop phoned.service
echo "control access: member served, stranger refused by the mode and by SO_PEERCRED, refusal journaled"
