#!/usr/bin/env bash
# deb.sh - the Debian package, from its build to its purge, in a clean
# Debian 12 root.
#
# Builds buffertime_VERSION_amd64.deb from this tree (dpkg-buildpackage,
# the unit tests in the build) and runs lintian on it: no error, no
# warning.  Builds the package of the commit before (it must have a
# debian/ folder), with a lower version.  Then, in a Debian 12 root made
# by debootstrap and booted with systemd by systemd-nspawn (its network
# is the host's: apt reaches Debian's mirror, and the test reaches the
# root's nginx on a free port of 127.0.0.1):
#   1. `apt-get install ./old.deb`: the user, /var/lib/buffertime, the
#      server key, the settings file's owner, the units enabled and
#      started;
#   2. the README's short setup (base_url, a mail setting, the invitation
#      code; the nginx snippets in a site), and a game of two people and
#      a bot started through nginx and the socket, played partway (the
#      worker moves the bot and writes the emails);
#   3. `apt-get install ./new.deb` over it: the game, the key and the
#      settings kept, the database at the new version, the services up
#      again; the game played to its end on the new version, the
#      database checked (`buffertime admin check`);
#   4. `apt-get remove`: the services stopped, the programs gone, the
#      games and settings kept;
#   5. `apt-get purge`: the games and settings gone, after saying so.
# After each step it prints what is on disk of the package's.
#
# Needs root, the network (Debian's mirror), and dpkg-dev, debhelper,
# lintian, debootstrap, systemd-container, curl and sqlite3
# (scripts/install-deps).  Not a make check test: scripts/test runs it
# once, as its own stage.  Anything missing is a failure, not a skip.
#
# Environment: SRCDIR (default: this file's tree, a git checkout);
# BT_DEB_MIRROR (default http://deb.debian.org/debian);
# BT_DEB_ROOT_CACHE, a file: if set, the fresh root is kept there as a
# tarball after its first debootstrap and unpacked from it later (for a
# developer's repeated runs on one machine; CI sets none);
# BT_DEB_UNIT_TESTS=skip: the package of this tree is built without its
# unit tests (DEB_BUILD_OPTIONS=nocheck), for scripts/test, whose two
# builds have just run them (it takes the package build from about 200 s
# to 40 s beside the fuzzers).
# Prints one line per failure and last "N passed, M failed".
# shellcheck disable=SC2317  # cleanup runs from the EXIT trap
set -u

SRCDIR=${SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
SRCDIR=$(cd "$SRCDIR" && pwd)
mirror=${BT_DEB_MIRROR:-http://deb.debian.org/debian}
# shellcheck source=tests/testlib.sh
. "$SRCDIR/tests/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$SRCDIR/tests/weblib.sh"

# A step that cannot run is a failure.
die() {
	not_ok "$*"
	finish
}

for t in dpkg-buildpackage dh lintian debootstrap systemd-nspawn nsenter \
	setpriv curl sqlite3 git; do
	command -v "$t" >/dev/null 2>&1 ||
		die "$t is not installed (scripts/install-deps installs it)"
done
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, systemd-nspawn)"
git -C "$SRCDIR" rev-parse --git-dir >/dev/null 2>&1 ||
	die "$SRCDIR is not a git checkout: the commit before is built from its history"
git -C "$SRCDIR" cat-file -e HEAD~1:debian/rules 2>/dev/null ||
	die "the commit before HEAD has no debian/rules: nothing to upgrade from"

tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/bt-deb.XXXXXX") || exit 1
# The root's user buffertime reads its database from here too (sql).
chmod 711 "$tmp"
root=$tmp/root
nspawn_pid=''
cleanup() {
	[ "$BASHPID" = "$$" ] || return 0
	if [ -n "$nspawn_pid" ] && kill -0 "$nspawn_pid" 2>/dev/null; then
		kill -TERM "$nspawn_pid" 2>/dev/null
		for _ in $(seq 50); do
			kill -0 "$nspawn_pid" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$nspawn_pid" 2>/dev/null
	fi
	[ -z "${debootstrap_pid:-}" ] || kill "$debootstrap_pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# ---- the root, made while the packages build ---------------------------------
# systemd and dbus to boot it, ca-certificates for apt.
make_root() {
	if [ -n "${BT_DEB_ROOT_CACHE:-}" ] && [ -f "$BT_DEB_ROOT_CACHE" ]; then
		mkdir -p "$root" && tar -xpf "$BT_DEB_ROOT_CACHE" -C "$root"
		return
	fi
	debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus \
		bookworm "$root" "$mirror" || return 1
	if [ -n "${BT_DEB_ROOT_CACHE:-}" ]; then
		tar -cpf "$BT_DEB_ROOT_CACHE.tmp" -C "$root" . &&
			mv "$BT_DEB_ROOT_CACHE.tmp" "$BT_DEB_ROOT_CACHE"
	fi
}
make_root >"$tmp/debootstrap.log" 2>&1 &
debootstrap_pid=$!

# ---- the packages --------------------------------------------------------------
upstream=$(sed -n 's/^AC_INIT(\[buffertime\], \[\([^]]*\)\].*/\1/p' "$SRCDIR/configure.ac")
new_version="$upstream+git$(git -C "$SRCDIR" rev-list --count HEAD)"
old_version="$upstream+git$(git -C "$SRCDIR" rev-list --count HEAD~1)"
# The highest migration of this tree: the database's version after the
# upgrade.
latest=$(find "$SRCDIR/db/schema" -name '[0-9]*-*.sql' -printf '%f\n' |
	sed 's/^0*\([0-9][0-9]*\)-.*/\1/' | sort -n | tail -n 1)

# stamp DIR VERSION WHAT: a changelog entry of VERSION on top of DIR's.
stamp() {
	{
		printf 'buffertime (%s) bookworm; urgency=medium\n\n' "$2"
		printf '  * Built by tests/deb.sh from %s.\n\n' "$3"
		printf ' -- Buffer Time Online developers <buffertime@example.org>  %s\n\n' \
			"$(date -R)"
		cat "$1/debian/changelog"
	} >"$1/debian/changelog.new" && mv "$1/debian/changelog.new" "$1/debian/changelog"
}

# build DIR OPTIONS: dpkg-buildpackage in DIR; its log in DIR.log.
build() {
	(cd "$1" && DEB_BUILD_OPTIONS="$2" dpkg-buildpackage -us -uc -b) \
		>"$1.log" 2>&1
}

# This tree as it is (its tracked files, with their changes), and the
# commit before as it was.
mkdir -p "$tmp/new/buffertime" "$tmp/old/buffertime"
git -C "$SRCDIR" ls-files -z | (cd "$SRCDIR" && xargs -0 cp --parents -t "$tmp/new/buffertime") ||
	die "copying the tree"
git -C "$SRCDIR" archive HEAD~1 | tar -x -C "$tmp/old/buffertime" ||
	die "unpacking the commit before"
stamp "$tmp/new/buffertime" "$new_version" "this tree ($(git -C "$SRCDIR" rev-parse --short HEAD) and its changes)"
stamp "$tmp/old/buffertime" "$old_version" "$(git -C "$SRCDIR" rev-parse --short HEAD~1)"

jobs=$(nproc 2>/dev/null || echo 2)
new_options="parallel=$jobs"
unit_tests="with its unit tests"
if [ "${BT_DEB_UNIT_TESTS:-}" = skip ]; then
	new_options="nocheck $new_options"
	unit_tests="without its unit tests: BT_DEB_UNIT_TESTS=skip"
fi
t0=$(date +%s)
if build "$tmp/new/buffertime" "$new_options"; then ok; else
	tail -n 40 "$tmp/new/buffertime.log"
	die "dpkg-buildpackage of this tree"
fi
t1=$(date +%s)
# The old one's tests ran when it was the new one.
if build "$tmp/old/buffertime" "nocheck parallel=$jobs"; then ok; else
	tail -n 40 "$tmp/old/buffertime.log"
	die "dpkg-buildpackage of the commit before"
fi
t2=$(date +%s)
new_deb=$tmp/new/buffertime_${new_version}_amd64.deb
old_deb=$tmp/old/buffertime_${old_version}_amd64.deb
check "the package is $new_deb" test -f "$new_deb"
check "the old package is $old_deb" test -f "$old_deb"
if [ "${BT_DEB_UNIT_TESTS:-}" != skip ]; then
	check "the unit tests ran in the build" \
		grep -q '^# PASS: *[1-9]' "$tmp/new/buffertime.log"
fi
echo "built in $((t1 - t0)) s ($unit_tests), the commit before in $((t2 - t1)) s"
echo "package size: $(stat -c %s "$new_deb") bytes; installed size:" \
	"$(dpkg-deb -f "$new_deb" Installed-Size) KiB"

# lintian: every error and warning tag is a failure (info lines shown).
lintian --pedantic -I "$tmp/new/buffertime_${new_version}_amd64.changes" \
	>"$tmp/lintian.out" 2>&1
sed 's/^/lintian: /' "$tmp/lintian.out"
check "lintian: no error, no warning" \
	bash -c '! grep -Eq "^[EW]: " "$1"' _ "$tmp/lintian.out"

# ---- boot the root ---------------------------------------------------------------
wait "$debootstrap_pid" || {
	tail -n 20 "$tmp/debootstrap.log"
	debootstrap_pid=''
	die "debootstrap of Debian 12 from $mirror"
}
debootstrap_pid=''
ok

# nginx's own start on install would take port 80 of the host's network,
# which the root shares: its package does not start it; this test starts
# it with a site of its own.
cat >"$root/usr/sbin/policy-rc.d" <<'EOF'
#!/bin/sh
case "$1" in nginx|nginx.service) exit 101 ;; esac
exit 0
EOF
chmod 755 "$root/usr/sbin/policy-rc.d"
echo "bt-deb" >"$root/etc/hostname"

setsid systemd-nspawn --quiet --boot --register=no --keep-unit \
	--machine="bt-deb-$$" --console=read-only -D "$root" \
	</dev/null >"$tmp/boot.log" 2>&1 &
nspawn_pid=$!

# in_root COMMAND...: COMMAND in the booted root, as root.
leader=''
in_root() {
	nsenter -t "$leader" -a env -i \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$@"
}
for _ in $(seq 300); do
	leader=$(pgrep -P "$nspawn_pid" -x systemd 2>/dev/null | head -n 1)
	[ -n "$leader" ] && break
	kill -0 "$nspawn_pid" 2>/dev/null || break
	sleep 0.1
done
[ -n "$leader" ] || { tail -n 20 "$tmp/boot.log"; die "booting the root"; }
state=''
for _ in $(seq 120); do
	state=$(in_root systemctl is-system-running 2>/dev/null) || true
	case $state in running|degraded) break ;; esac
	sleep 0.5
done
[ "$state" != degraded ] || in_root systemctl --failed --no-pager
check "the root booted ($state)" test "$state" = running -o "$state" = degraded

# apt TARGETS...: apt-get install in the root; the log in $tmp/apt.log.
apt_in_root() {
	in_root apt-get -y -q -o Dpkg::Options::=--force-confdef \
		-o Dpkg::Options::=--force-confold "$@" >"$tmp/apt.log" 2>&1
	local rc=$?
	[ "$rc" -eq 0 ] || tail -n 30 "$tmp/apt.log"
	return "$rc"
}
check "apt-get update in the root" apt_in_root update

# on_disk TITLE: what of the package's is on the root's disk.
on_disk() {
	local p
	echo "--- on disk after $1:"
	(cd "$root" && for p in etc/buffertime etc/buffertime/* \
		etc/nginx/snippets/buffertime* var/lib/buffertime \
		var/lib/buffertime/* usr/bin/buffertime usr/sbin/buffertime.fcgi \
		usr/share/buffertime usr/share/doc/buffertime \
		lib/systemd/system/buffertime* etc/systemd/system/*/buffertime*; do
		if [ -d "$p" ] && [ ! -L "$p" ]; then
			echo "  $(stat -c '%A %u:%g' "$p") $(du -sk "$p" | cut -f1) KiB," \
				"$(find "$p" | wc -l) entries: $p"
		elif [ -e "$p" ] || [ -L "$p" ]; then
			echo "  $(stat -c '%A %u:%g %s' "$p") $p"
		fi
	done)
	grep '^buffertime:' "$root/etc/passwd" | sed 's/^/  user: /' ||
		echo "  (no user buffertime)"
}

# active UNIT: the unit's state in the root.
active() {
	in_root systemctl is-active "$1" 2>/dev/null
}

# ---- 1. install the previous version ---------------------------------------
cp "$old_deb" "$root/root/old.deb"
cp "$new_deb" "$root/root/new.deb"
check "apt-get install ./old.deb" apt_in_root install /root/old.deb nginx
on_disk "installing $old_version"
uid=$(in_root id -u buffertime 2>/dev/null)
gid=$(in_root id -g buffertime 2>/dev/null)
check "the system user buffertime ($uid:$gid)" test -n "$uid" -a "$uid" -lt 1000
key=$root/var/lib/buffertime/server.key
check "the server key: 32 bytes, mode 600, the user's" \
	test "$(stat -c '%s %a %u' "$key" 2>/dev/null)" = "32 600 $uid"
check "the state folder: mode 750, the user's" \
	test "$(stat -c '%a %u' "$root/var/lib/buffertime" 2>/dev/null)" = "750 $uid"
conf=$root/etc/buffertime/buffertime.conf
check "the settings file: root:buffertime, mode 640" \
	test "$(stat -c '%a %u %g' "$conf" 2>/dev/null)" = "640 0 $gid"
for u in buffertime-fcgi.socket buffertime-worker.service buffertime-backup.timer; do
	check "$u is active after the install" test "$(active "$u")" = active
done
check "the FastCGI service waits for its socket" \
	test "$(active buffertime-fcgi.service)" = inactive
key_sum=$(sha256sum <"$key")

# ---- 2. the README's setup, and a game partway ------------------------------
port=$(free_port) || die "no free port"
invite=deb-test-invitation
base=http://127.0.0.1:$port/buffertime/
origin=http://127.0.0.1:$port
cat >>"$conf" <<EOF

# tests/deb.sh: the README's short setup
base_url = $base
mail_dir = /var/lib/buffertime/mail
invite_code = $invite
take_back_grace = 0
bot_wait = 0
mail_poll = 1
review_rollouts = 40
EOF
rm -f "$root/etc/nginx/sites-enabled/default"
cat >"$root/etc/nginx/sites-enabled/buffertime" <<EOF
include snippets/buffertime-http.conf;
server {
	listen 127.0.0.1:$port;
	server_name localhost;
	include snippets/buffertime.conf;
}
EOF
check "nginx -t with the snippets" in_root nginx -t -q
check "nginx starts" in_root systemctl start nginx
check "the worker restarts on the new settings" \
	in_root systemctl restart buffertime-worker

db=$root/var/lib/buffertime/buffertime.db
# sql QUERY: one answer from the root's database, as its owner (a file
# root made beside it would lock the services out).
sql() {
	setpriv --reuid="$uid" --regid="$gid" --clear-groups \
		sqlite3 -batch "$db" "$1" 2>"$tmp/sql.err"
}

req "" GET "$base"
expect_code "the home page through nginx and the socket" 200
req "" POST "${base}new" "players=3&first=1&invite=$invite&name1=Ann&email1=ann%40example.org&name2=Ben&email2=ben%40example.org&bot3=1"
expect_code "a game with a bot, made with the invitation code" 200
mapfile -t links < <(grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" \
	"$tmp/b" | awk '!seen[$0]++')
check "two seat links on the created page (${#links[@]})" test "${#links[@]}" = 2
links=("" "${links[@]}")
game=${links[1]#"${base}g/"}
game=${game%%\?*}
jar=("" "$tmp/jar1" "$tmp/jar2")
for s in 1 2; do
	req "${jar[$s]}" GET "${links[$s]}"
	expect_code "seat $s opens its link" 303
done
seed=1

# advance: one move, a person's through the table, or the bot's by the
# worker (waited for); 1 if none was made.
advance() {
	local s n
	s=$(turn_seat)
	n=$(lines)
	case $s in
	1|2) step ;;
	3)
		for _ in $(seq 150); do
			[ "$(lines)" -gt "$n" ] && return 0
			sleep 0.2
		done
		return 1 ;;
	*) return 1 ;;
	esac
}

# stuck: what a game that stopped short shows (the seat to move, its
# page's forms, the last answer, the worker's journal), so that a failure
# says why.
stuck() {
	local s
	s=$(turn_seat)
	echo "  stopped at $(lines) lines, seat $s to move; last answer $code ${loc:-}"
	echo "  the store (seq, turn, status, sweep seq and card, snapshot seq and format): $(sql "SELECT seq, turn_seat, status, sweep_seq, sweep_card, snapshot_seq, snapshot_format FROM games WHERE id = '$game'")"
	if [ "$s" = 1 ] || [ "$s" = 2 ]; then
		page "$s"
		echo "  seat $s's page: status $code, its forms:"
		grep -o '<form[^>]*>' "$tmp/b" | sed 's/^/    /' | head -n 20
		echo "  the states its forms were chosen in:" \
			"$(grep -o 'name="seq" value="[0-9]*"' "$tmp/b" | sort | uniq -c | tr -s ' \n' ' ')"
		grep -o '<p class="[a-z ]*error[^<]*' "$tmp/b" | sed 's/^/    /' | head -n 5
	fi
	echo "  the worker's journal:"
	in_root journalctl -q --no-pager -n 15 -u buffertime-worker | sed 's/^/    /'
}

# moves_by_bot: the bot's moves in the game so far.
moves_by_bot() {
	sql "SELECT count(*) FROM actions WHERE game = '$game' AND seat = 3"
}

for _ in $(seq 400); do
	[ "$(moves_by_bot)" -ge 2 ] 2>/dev/null && break
	advance || break
done
before=$(lines)
if [ "$(moves_by_bot)" -ge 2 ] && [ "$(turn_seat)" != 0 ]; then ok; else
	not_ok "a game in progress: $before moves, the bot's among them"
	stuck
fi
mails_before=$(find "$root/var/lib/buffertime/mail" -name '*.eml' 2>/dev/null | wc -l)
check "the worker wrote the emails ($mails_before)" test "$mails_before" -ge 2
version_before=$(sql 'PRAGMA user_version')
on_disk "a game partway"

# ---- 3. the upgrade --------------------------------------------------------------
check "apt-get install ./new.deb over $old_version" apt_in_root install /root/new.deb
check "the package is now $new_version" \
	test "$(in_root dpkg-query -W -f '${Version}' buffertime)" = "$new_version"
for u in buffertime-fcgi.socket buffertime-worker.service buffertime-backup.timer; do
	check "$u is active after the upgrade" test "$(active "$u")" = active
done
check "the upgrade kept the server key" test "$(sha256sum <"$key")" = "$key_sum"
check "the upgrade kept the settings" grep -q "^invite_code = $invite\$" "$conf"
check "the upgrade kept the game ($(lines) moves, $before before)" test "$(lines)" -ge "$before"
page 1
expect_code "the game's table after the upgrade" 200
check "the database is at this tree's version after the upgrade: $(sql 'PRAGMA user_version') ($version_before before, $latest in this tree)" \
	test "$(sql 'PRAGMA user_version')" = "$latest"
for _ in $(seq 600); do
	[ "$(turn_seat)" = 0 ] && break
	advance || break
done
if [ "$(turn_seat)" = 0 ]; then ok; else
	not_ok "the game played to its end on the new version"
	stuck
fi
check "buffertime admin check passes" \
	in_root runuser -u buffertime -- buffertime admin check
mails_after=$(find "$root/var/lib/buffertime/mail" -name '*.eml' | wc -l)
check "the new worker wrote more emails ($mails_after)" test "$mails_after" -gt "$mails_before"
on_disk "upgrading to $new_version and the game's end"

# ---- 4. remove ---------------------------------------------------------------------
check "apt-get remove buffertime" apt_in_root remove buffertime
grep 'buffertime:' "$tmp/apt.log"
check "remove says where the games are kept" \
	grep -q "kept /var/lib/buffertime" "$tmp/apt.log"
for u in buffertime-fcgi.socket buffertime-fcgi.service buffertime-worker.service \
	buffertime-backup.timer; do
	check "$u is stopped after remove" test "$(active "$u")" != active
done
check "remove took the programs" test ! -e "$root/usr/bin/buffertime" -a \
	! -e "$root/usr/sbin/buffertime.fcgi" -a ! -e "$root/lib/systemd/system/buffertime-worker.service"
check "remove kept the games" test -s "$db"
check "remove kept the server key" test "$(sha256sum <"$key")" = "$key_sum"
check "remove kept the settings" grep -q "^invite_code = $invite\$" "$conf"
on_disk "apt-get remove"

# ---- 5. purge ------------------------------------------------------------------------
check "apt-get purge buffertime" apt_in_root purge buffertime
grep 'buffertime:' "$tmp/apt.log"
check "purge says what it removes" grep -q "purging: removing /var/lib/buffertime" "$tmp/apt.log"
check "purge removed the games" test ! -e "$root/var/lib/buffertime"
check "purge removed the settings" test ! -e "$root/etc/buffertime"
check "purge removed the nginx snippets" \
	test ! -e "$root/etc/nginx/snippets/buffertime.conf"
check "purge left no override" \
	bash -c '! grep -q buffertime "$1"' _ "$root/var/lib/dpkg/statoverride"
check "purge left no unit enabled" \
	bash -c '! find "$1/etc/systemd/system" -name "buffertime*" | grep -q .' _ "$root"
on_disk "apt-get purge"

finish
