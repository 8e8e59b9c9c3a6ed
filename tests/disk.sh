#!/usr/bin/env bash
# disk.sh - a full disk under the running servers: nginx and
# buffertime.fcgi on loopback (scripts/web), driven with curl, and
# `buffertime worker` writing each email as a file.
#
# The data folder (database and server key) is a small tmpfs of its own,
# and so is the mailer's folder; the test mounts both and always
# unmounts them.  A 2-player game with emails is made, joined and
# played a little.  Then:
#   - the data folder is filled (the database's write-ahead log is
#     emptied first, so the next write must grow a file: the test does
#     not depend on what SQLite happened to allocate before): a move and
#     a new game get 503 with a plain page and a Retry-After header, the
#     table page still shows, nothing is half-written (admin check, the
#     game's record as it was);
#   - the mailer starts with every email due: each claim is a database
#     write, refused; it says the disk is full, runs on without spinning,
#     writes and marks nothing;
#   - the mail folder is filled and the data folder gets its space back:
#     the same move is taken and the game goes on (more moves, more
#     emails); the mailer now fails to write each email, leaves no
#     half-written file, marks nothing sent, and runs on;
#   - the mail folder gets its space back: the operator retries the
#     failed emails (admin mail retry all: each failure put its email
#     off for a while) and every queued email is delivered exactly once:
#     as many files as outbox rows, each Message-ID once, every row
#     marked sent.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR,
# TESTDATA.  Needs root (mount); skips (77) without it, or without
# nginx, curl or sqlite3: scripts/test counts a skip as a failure.
set -u
LC_ALL=C
export LC_ALL

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start disk nginx curl sqlite3 mount umount
seed=1

run=$tmp/run
data=$run/data
db=$data/buffertime.db
mails=$tmp/mail
mounted=()
mailer_pid=

# mount_small DIR SIZE: a tmpfs of SIZE at DIR (made), unmounted on exit.
mount_small() {
	mkdir -p "$1" || return 1
	mount -t tmpfs -o "size=$2,mode=700" tmpfs "$1" 2>"$tmp/mount.err" ||
		return 1
	mounted+=("$1")
}

# shellcheck disable=SC2317  # run by the trap
disk_cleanup() {
	local m
	# The test's own shell only: a subshell that a signal reaches before
	# it drops the traps runs them, and must not stop the servers and
	# remove the folder while the test goes on (seen once in CI).
	[ "$BASHPID" = "$$" ] || return 0
	if [ -n "$mailer_pid" ]; then
		kill -TERM "$mailer_pid" 2>/dev/null
		wait "$mailer_pid" 2>/dev/null
	fi
	for m in "${runs[@]}"; do
		bash "$SRCDIR/scripts/web" down "$m" >/dev/null 2>&1 ||
			echo "FAIL: could not stop the servers of $m"
	done
	for m in "${mounted[@]}"; do
		umount "$m" || umount -l "$m" || echo "FAIL: could not unmount $m"
	done
	rm -rf "$tmp"
}
trap disk_cleanup EXIT

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: mounting a small file system needs root"
	exit 77
fi
if ! mount_small "$data" 4m || ! mount_small "$mails" 1m; then
	echo "SKIP: cannot mount a tmpfs here: $(cat "$tmp/mount.err")"
	exit 77
fi

# fill DIR: takes every free block of DIR's file system (DIR/FILL).
# shellcheck disable=SC2317  # run by check
fill() {
	dd if=/dev/zero of="$1/FILL" bs=64k 2>/dev/null
	dd if=/dev/zero of="$1/FILL" bs=4k oflag=append conv=notrunc 2>/dev/null
	[ "$(df -P "$1" | awk 'NR == 2 { print $4 }')" -eq 0 ]
}

# join LINK JARFILE: opens a seat link into a new cookie jar.
join() {
	: >"$2"
	req "$2" GET "$1"
	expect_code "open a seat link" 303
}

# move_form: the first move form of a seat that has one; sets $mover,
# $form_url and $form_body, 1 if no seat has one.
move_form() {
	page_url=${base}g/$game
	for mover in "$jar1" "$jar2"; do
		req "$mover" GET "$page_url"
		[ "$code" = 200 ] && form pick "" && return 0
	done
	return 1
}

# play N: N moves through the web, each must be taken (303).
play() {
	local i
	for i in $(seq "$1"); do
		move_form || { not_ok "no move form"; return 1; }
		req "$mover" POST "$form_url" "$form_body"
		expect_code "move $i" 303 || return 1
		accepted=$((accepted + 1))
	done
}

# history: the game's record as the program's tool shows it.
history() {
	timeout 30 "$BUFFERTIME" admin --db "$db" show "$game" 2>/dev/null | md5sum
}

# moves_in_record: the game's actions in the database.
moves_in_record() {
	sql "SELECT count(*) FROM actions WHERE game = '$game' AND seat > 0"
}

# unsent / sent_rows / all_rows: the outbox's rows.
unsent() { sql "SELECT count(*) FROM outbox WHERE sent IS NULL"; }
sent_rows() { sql "SELECT count(*) FROM outbox WHERE sent IS NOT NULL"; }

# emails: the whole email files in the mail folder; parts: half-written.
emails() { find "$mails" -maxdepth 1 -name '*.eml' | wc -l; }
parts() { find "$mails" -maxdepth 1 -name '.tmp-*' | wc -l; }

# mailer_alive: the mailer daemon still runs.
# shellcheck disable=SC2317  # run by check
mailer_alive() { [ -n "$mailer_pid" ] && kill -0 "$mailer_pid" 2>/dev/null; }

# full_page NAME: a 503 in the layout, in plain words, with Retry-After.
full_page() {
	expect_code "$1" 503
	check "$1: the program's page, in the layout" grep -q 'static/style.css' "$tmp/b"
	check "$1: no database words for players" \
		sh -c "! grep -qi 'sqlite\|STORE_\|disk is full:\|errno' '$tmp/b'"
	check "$1: a Retry-After header" [ -n "$(header Retry-After)" ]
}

# ============================================================================
up "$run"
base=$url
origin=$(origin_of "$base")
accepted=0

create 1 Ann:ann%40example.org Bob:bob%40example.org || finish
jar1=$tmp/jar1
jar2=$tmp/jar2
join "${links[1]}" "$jar1"
join "${links[2]}" "$jar2"
play 4
queued=$(sql "SELECT count(*) FROM outbox")
check "the game queued emails ($queued)" [ "${queued:-0}" -gt 0 ]

# ---- the data folder full ------------------------------------------------------
move_form || { not_ok "no move form"; finish; }
before=$(history)
moves_before=$(moves_in_record)
# The write-ahead log emptied, the next commit must grow a file.
check "emptying the write-ahead log" \
	[ "$(sql 'PRAGMA wal_checkpoint(TRUNCATE)')" = "0|0|0" ]
check "filling the data folder" fill "$data"
req "$mover" POST "$form_url" "$form_body"
echo "a move on a full disk: $code, $(grep -o '<h1>[^<]*' "$tmp/b" | head -n 1), Retry-After: $(header Retry-After)"
full_page "a move on a full disk"
req "" POST "${base}new" "players=2&first=1&name1=Cy&email1=&minutes1=10&name2=Di&email2=&minutes2=20"
full_page "a new game on a full disk"
for i in 1 2 3; do
	req "$mover" GET "${base}g/$game"
	expect_code "table page $i on a full disk (reads work)" 200
done
check "the refused move changed nothing" [ "$(history)" = "$before" ]
check "the record holds the $accepted moves taken" [ "$(moves_in_record)" -eq "$moves_before" ]
run admin --db "$db" check
expect_rc "admin check on a full disk" 0

# The mailer starts with every email due: each claim is a database write.
"$BUFFERTIME" worker --config "$run/buffertime.conf" --mail-dir "$mails" \
	--poll 1 >>"$tmp/mailer.log" 2>&1 &
mailer_pid=$!
sleep 3
echo "the mailer on a full database says: $(grep -m 1 -i 'full' "$tmp/mailer.log")"
check "the mailer runs on with the database full" mailer_alive
check "the mailer says the disk is full" grep -qi 'disk.*full' "$tmp/mailer.log"
check "the mailer does not spin ($(wc -l <"$tmp/mailer.log") log lines in 3 s)" \
	[ "$(wc -l <"$tmp/mailer.log")" -lt 20 ]
check "no email written ($(emails)), none half-written ($(parts))" \
	[ "$(emails)$(parts)" = 00 ]
check "every email still queued ($(unsent) of $queued)" [ "$(unsent)" -eq "$queued" ]

# ---- the mail folder full, space back in the data folder ------------------------
check "filling the mail folder" fill "$mails"
rm -f "$data/FILL"
lines=$(wc -l <"$tmp/mailer.log")
req "$mover" POST "$form_url" "$form_body"
if expect_code "the same move once space is back" 303; then
	accepted=$((accepted + 1))
fi
check "the move once space is back changed the game" [ "$(history)" != "$before" ]
play 3
check "the record holds exactly the $accepted moves taken" \
	[ "$(moves_in_record)" -eq "$accepted" ]
req "" POST "${base}new" "players=2&first=1&name1=Cy&email1=&minutes1=10&name2=Di&email2=&minutes2=20"
expect_code "a new game once space is back" 200
queued=$(sql "SELECT count(*) FROM outbox")
sleep 2
tail -n +"$((lines + 1))" "$tmp/mailer.log" >"$tmp/mailer.folder"
echo "the mailer on a full folder says: $(grep -m 1 'attempt' "$tmp/mailer.folder")"
check "the mailer tried to write into its full folder" \
	grep -q 'No space left' "$tmp/mailer.folder"
check "the mailer runs on with its folder full" mailer_alive
check "no email written into a full folder ($(emails))" [ "$(emails)" -eq 0 ]
check "no half-written email left ($(parts))" [ "$(parts)" -eq 0 ]
check "every email still queued ($(unsent) of $queued)" [ "$(unsent)" -eq "$queued" ]

# ---- space back in the mail folder ------------------------------------------------
rm -f "$mails/FILL"
run admin --db "$db" mail retry all
expect_rc "admin mail retry all" 0
for _ in $(seq 100); do
	[ "$(unsent)" = 0 ] && break
	sleep 0.2
done
kill -TERM "$mailer_pid"
wait "$mailer_pid"
rc=$?
mailer_pid=
check "the mailer stopped when asked (exit $rc)" [ "$rc" -eq 0 ]
ids=$(find "$mails" -maxdepth 1 -name '*.eml' -exec grep -h '^Message-ID: ' {} + | sort)
dups=$(uniq -d <<<"$ids" | grep -c .)
echo "emails queued $queued, files $(emails), sent rows $(sent_rows), unsent $(unsent), duplicates $dups, moves $accepted"
check "every email delivered: $(emails) files for $queued rows" [ "$(emails)" -eq "$queued" ]
check "every row marked sent" [ "$(unsent)/$(sent_rows)" = "0/$queued" ]
check "each email once ($dups Message-IDs twice)" [ "$dups" -eq 0 ]
check "no half-written email" [ "$(parts)" -eq 0 ]
run admin --db "$db" check
expect_rc "admin check at the end" 0
grep -v '^[A-Z]* /' "$run/log/fcgi.log" | tail -n 4

finish
