#!/usr/bin/env bash
# faults.sh - the database file taken away under the running servers:
# nginx and buffertime.fcgi on loopback (scripts/web), driven with curl.
#
# A 2-player game is made and joined through the web.  Then the data
# folder and every file in it are made immutable (chattr +i: root, who
# runs the tests, ignores file modes): a move must get a clear error page
# (500 or 503, the layout, no change to the game), the workers keep
# serving (the table page still shows), and "buffertime worker --once"
# says what is wrong and exits non-zero, not by a signal.  Once the
# folder is writable again the same move is taken and the mailer runs.
# Then the database file is deleted under the running program: a move
# gets an error page, never a 200 or a crash, and the workers still
# answer.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR,
# TESTDATA.  Skips (77) without nginx, curl or chattr, or where chattr
# +i does not work (not root, or a file system without it).
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start faults nginx curl chattr
seed=1

run=$tmp/run
data=$run/data
locked=no

# lock / unlock: the data folder and its files immutable, or not.
lock() {
	chattr +i "$data"/* "$data" 2>"$tmp/err" && locked=yes
}
unlock() {
	chattr -i "$data" "$data"/* 2>/dev/null
	locked=no
}
# The servers cannot be stopped, nor $tmp removed, while it is locked.
# shellcheck disable=SC2317  # run by the trap
faults_cleanup() {
	# The test's own shell only: a subshell that a signal reaches before
	# it drops the traps runs them, and must not stop the servers and
	# remove the folder while the test goes on (seen once in CI).
	[ "$BASHPID" = "$$" ] || return 0
	[ "$locked" = yes ] && unlock
	web_test_cleanup
}
trap faults_cleanup EXIT

# join LINK JARFILE: opens a seat link into a new cookie jar.
join() {
	: >"$2"
	req "$2" GET "$1"
	expect_code "open a seat link" 303
}

# move JAR: the first move form of the seat's table page; sets
# $form_url and $form_body, 1 if there is none.
move_form() {
	page_url=${base}g/$game
	req "$1" GET "$page_url"
	[ "$code" = 200 ] || return 1
	form pick ""
}

# history: the game's record as the program's tool shows it.
history() {
	timeout 30 "$BUFFERTIME" admin --db "$data/buffertime.db" show "$game" 2>/dev/null |
		md5sum
}

# mailer: one pass of the mailer into $tmp/mail; sets $rc.
mailer() {
	mkdir -p "$tmp/mail"
	timeout 60 "$BUFFERTIME" worker --config "$run/buffertime.conf" --once \
		--mail-dir "$tmp/mail" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# error_page NAME: a clear error page in the layout, not a 200 or a
# gateway error of nginx.
error_page() {
	case $code in
	500|503) ok ;;
	*) not_ok "$1: status $code, want 500 or 503" ;;
	esac
	check "$1: the program's page, in the layout" grep -q '</html>' "$tmp/b"
	check "$1: the layout's stylesheet" grep -q 'static/style.css' "$tmp/b"
}

# ============================================================================
up "$run"
base=$url
origin=$(origin_of "$base")

create 1 Ann Bob || finish
jar1=$tmp/jar1
join "${links[1]}" "$jar1"
join "${links[2]}" "$tmp/jar2"

if ! lock; then
	echo "SKIP: chattr +i does not work here: $(cat "$tmp/err")"
	exit 77
fi
unlock

# ---- a read-only folder -----------------------------------------------------
move_form "$jar1" || { not_ok "no move form on seat 1's page"; finish; }
before=$(history)
lock
req "$jar1" POST "$form_url" "$form_body"
error_page "a move while the database is read-only"
echo "a move while read-only: $code, $(grep -o '<h1>[^<]*' "$tmp/b" | head -n 1)"
check "the refused move changed nothing" [ "$(history)" = "$before" ]
for i in 1 2 3; do
	req "$jar1" GET "${base}g/$game"
	expect_code "table page $i while read-only (the workers serve on)" 200
done
mailer
check "mailer --once on a read-only database: not a crash (exit $rc)" [ "$rc" -lt 128 ]
check "mailer --once on a read-only database: a non-zero exit" [ "$rc" -ne 0 ]
echo "the mailer on a read-only database says: $(head -c 300 "$tmp/err")"
check "mailer --once on a read-only database: says why" grep -qi 'read.only\|readonly\|permi\|denied' "$tmp/err"
unlock

req "$jar1" POST "$form_url" "$form_body"
if [ "$code" = 303 ]; then ok; else not_ok "the move once writable: status $code, want 303"; fi
check "the move once writable changed the game" [ "$(history)" != "$before" ]
mailer
expect_rc "mailer --once once writable" 0

# ---- the database file deleted under the program -----------------------------
mover=$tmp/jar2
move_form "$mover" || { mover=$jar1; move_form "$mover"; } ||
	{ not_ok "no move form"; finish; }
before=$(history)
mv "$data/buffertime.db" "$tmp/gone.db"
req "$mover" POST "$form_url" "$form_body"
echo "a move after the database was deleted: $code"
error_page "a move after the database was deleted"
req "" GET "$base"
expect_code "the home page after the database was deleted" 200
pid=$(cat "$run/fcgi.pid")
check "the program still runs" kill -0 "${pid%% *}"
mv "$tmp/gone.db" "$data/buffertime.db"
check "the database back: the game as it was" [ "$(history)" = "$before" ]
req "$mover" POST "$form_url" "$form_body"
if [ "$code" = 303 ]; then ok; else not_ok "the move once the database is back: status $code, want 303"; fi
check "the move once the database is back changed the game" [ "$(history)" != "$before" ]
tail -n 12 "$run/log/fcgi.log" | grep -v '^[A-Z]* /' | head -n 6

finish
