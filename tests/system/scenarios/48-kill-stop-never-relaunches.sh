# An idle peer never relaunches an app that went away (docs/Design.md): with both apps running and idle (the
# phone holds a presence link to the watch), `systemctl kill -s KILL watchd.service` followed at once by
# `systemctl stop watchd.service` leaves watchd stopped. Repeated 10 times: the phone's link to the killed
# app closes while systemd still processes the kill, and a reconnect then would be queued on watchd.socket
# and start watchd again (a background launch) after the stop. Only content owed or a watch message may
# launch an app; the phone here owes nothing.
# timeout: 150
. "$WP_REPO/tests/system/lib.sh"
reset_pair
sx systemctl start phoned.service watchd.service
wait_unit phoned.service active
wait_unit watchd.service active
rounds=10
# After a kill and a stop the unit is "failed" (its last run was killed) or "inactive"; never running.
stopped() { case $(unit_prop watchd.service ActiveState) in failed | inactive) return 0 ;; *) return 1 ;; esac; }
for i in $(seq 1 $rounds); do
    wait_for 20 phone reachable
    journal_mark
    sx systemctl kill -s KILL watchd.service
    sx systemctl stop watchd.service
    wait_until 10 "watchd.service to stop" stopped
    # The phone has seen the link go. The relaunch this guards against came about 90 ms after the kill,
    # and reconnect attempts are at most 1 s apart (timings drop-in): 2 s covers both.
    wait_event 10 WC_EVENT=peerDisconnected WC_ROLE=phone
    sleep 2
    expect_no_event WC_EVENT=backgroundLaunch WC_ROLE=watch
    stopped || fail "round $i: watchd.service is $(unit_prop watchd.service ActiveState) after kill and stop"
    expect_unit watchd.socket active
    sx systemctl start watchd.service
    wait_unit watchd.service active
done
echo "$rounds kills followed by a stop: watchd stayed stopped each time"
