# scripts/install.sh put everything in place (run.sh ran it at boot): binaries, units, user, socket
# directory, config, catalog, docs. Re-running it keeps an edited config; --uninstall removes what it
# installed and keeps config and state; installing again restores it.
# timeout: 60
. "$WP_REPO/tests/system/lib.sh"
src=$WP_SHARED/src
for f in /usr/local/bin/phoned /usr/local/bin/watchd /usr/local/bin/wcctl \
    /usr/local/lib/systemd/system/phoned.socket /usr/local/lib/systemd/system/phoned.service \
    /usr/local/lib/systemd/system/watchd.socket /usr/local/lib/systemd/system/watchd.service \
    /usr/local/lib/systemd/system/phoned@.socket /usr/local/lib/systemd/system/phoned@.service \
    /usr/local/lib/systemd/system/watchd@.socket /usr/local/lib/systemd/system/watchd@.service \
    /usr/local/lib/sysusers.d/watchpair.conf /usr/local/lib/tmpfiles.d/watchpair.conf \
    /usr/local/lib/systemd/catalog/watchpair.catalog /usr/local/share/doc/watchpair/Systemd.md \
    /etc/watchpair/phoned.json /etc/watchpair/watchd.json \
    /usr/local/share/bash-completion/completions/wcctl /usr/local/share/zsh/site-functions/_wcctl \
    /usr/local/share/fish/vendor_completions.d/wcctl.fish; do
    sx test -e "$f" || fail "missing $f"
done
sx getent passwd watchpair >/dev/null || fail "no user watchpair"
[ "$(sx stat -c %U /run/watchpair)" = watchpair ] || fail "/run/watchpair owner $(sx stat -c %U /run/watchpair)"
[ "$(sx systemctl show -P FragmentPath phoned.service)" = /usr/local/lib/systemd/system/phoned.service ] || fail "FragmentPath"
[ "$(sx systemctl show -P FragmentPath phoned@ci-3.service)" = /usr/local/lib/systemd/system/phoned@.service ] ||
    fail "the template's FragmentPath"
sx journalctl --list-catalog | grep '^5e1d0a3c6f7b4b2a9c1e8d7f60a1b201' >/dev/null || fail "catalog not compiled"

# Idempotent; an edited config is kept and the new default goes beside it.
sx sh -c 'echo "{\"pairId\": \"default\"}" > /etc/watchpair/watchd.json'
sx "$src/scripts/install.sh" --bin-dir "$WP_SHARED/bin" --no-deps >/dev/null || fail "second install"
[ "$(sx cat /etc/watchpair/watchd.json)" = '{"pairId": "default"}' ] || fail "install overwrote an edited config"
sx test -e /etc/watchpair/watchd.json.dist || fail "no watchd.json.dist"
sx cp "$src/Config/watchd.json" /etc/watchpair/watchd.json
sx rm -f /etc/watchpair/watchd.json.dist

# Uninstall and install again.
reset_pair
sx "$src/scripts/install.sh" --uninstall >/dev/null || fail "uninstall"
sx test -e /usr/local/bin/phoned && fail "phoned left after --uninstall"
sx test -e /usr/local/share/bash-completion/completions/wcctl && fail "completion left after --uninstall"
[ "$(sx systemctl show -P LoadState phoned.service)" = not-found ] || fail "phoned.service still loaded"
[ "$(sx systemctl show -P LoadState watchd@ci-3.service)" = not-found ] || fail "watchd@ci-3.service still loaded"
sx test -e /etc/watchpair/phoned.json || fail "--uninstall removed the config"
sx "$src/scripts/install.sh" --bin-dir "$WP_SHARED/bin" --no-deps >/dev/null || fail "reinstall"
[ "$(sx systemctl show -P LoadState phoned.service)" = loaded ] || fail "phoned.service not loaded after reinstall"
# --uninstall disabled the socket units: the apps are "not installed" (docs/Lifecycle.md) until enabled again,
# as the sandbox's install did (without --now: the next scenario starts from stopped units).
[ "$(sx systemctl is-enabled watchd.socket)" = disabled ] || fail "watchd.socket still enabled after --uninstall"
sx systemctl enable phoned.socket watchd.socket 2>/dev/null || fail "enable"
# The test drop-ins live in /run and survive; check they still apply.
[ "$(unit_prop watchd.service TimeoutStopUSec)" = 5s ] || fail "test drop-ins lost"
echo "install layout, idempotence, uninstall"
