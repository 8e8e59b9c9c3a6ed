#!/bin/bash
# answers.sh - what replies written in a seat's name can make the real
# `buffertime inbound` mail that seat's address, with the settings file
# as a server has it:
#   talk     45 replies of table talk (one each 13 s, under the talk's
#            rate limit: BUFFERTIME_NOW moves on) get at most 40 answers
#            (they got 45: talk was always answered);
#   budget   with address_mails_per_hour = 5, at most 5 emails are queued
#            to the address, whatever their kind; the rest are kept in
#            the outbox, dropped, saying why;
#   none     a seat set to no email gets no answer at all;
#   subject  no answer has the Subject the sender wrote.
# BT_TEST_ENGINE=postgres: on a PostgreSQL server (testlib.sh).
set -u
LC_ALL=C
export LC_ALL

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
unset BUFFERTIME_DB BUFFERTIME_NOW

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-answers.XXXXXX") || exit 1
trap 'db_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
engine_init
[ "$test_engine" != sqlite ] || command -v sqlite3 >/dev/null ||
	{ echo "SKIP: no sqlite3"; exit 77; }

drive=$(dirname "$BUFFERTIME")/tests/replydrive
[ -x "$drive" ] || { echo "FAIL: $drive is not built (make check builds it)"; exit 1; }

db_new db "$tmp/games.db"
key=$tmp/server.key
head -c 32 /dev/urandom >"$key" && chmod 600 "$key"
settings() {
	cat >"$tmp/settings" <<EOF
db = $db
key_file = $key
base_url = http://bt.example/
reply_address = play@bt.example
synchronous = normal
$1
EOF
}

T0=$(date +%s)
# replies N TAG [SUBJECT]: N replies of talk by the seat to move of the
# first game, from its own address, 13 s apart from T0.
replies() {
	local n=$1 tag=$2 subject=${3:-Re: Your turn} i
	"$drive" next "$db" "$key" "$tag" "$tmp/turn" >/dev/null ||
		not_ok "replydrive next"
	sed -n '/^$/q;/^Subject:/d;/^Message-ID:/d;p' "$tmp/turn" >"$tmp/head"
	for i in $(seq "$n"); do
		{ cat "$tmp/head"
		  echo "Subject: $subject"
		  echo "Message-ID: <$tag.$i@answers.example>"
		  echo
		  echo "say: line $i"; } >"$tmp/msg"
		BUFFERTIME_NOW=$((T0 + 13 * i)) "$BUFFERTIME" inbound \
			--config "$tmp/settings" <"$tmp/msg" 2>>"$tmp/log" ||
			not_ok "reply $tag $i: exit $?"
	done
}
queued() {
	sql "SELECT count(*) FROM outbox WHERE kind = 'answer' AND
	     dropped IS NULL AND recipient LIKE '$1'"
}

# ---- talk: at most 40 answers ------------------------------------------------
settings ""
"$drive" new "$db" 1 >/dev/null || not_ok "creating a game"
replies 45 talk 'Re: Buy cheap pills at evil.example'
answered=$(queued 'g0.s1@%')
echo "answers to one address from 45 say-replies: $answered"
check "$answered answers to 45 replies of talk" [ "$answered" -le 40 ]
check "no answer" [ "$answered" -gt 0 ]
check "talk did not reach the table" \
	[ "$(sql "SELECT count(*) FROM chat")" -gt 40 ]
check "an answer has the sender's Subject" \
	[ "$(sql "SELECT count(*) FROM outbox WHERE subject LIKE '%pills%'")" = 0 ]

# ---- budget: 5 an hour, the rest dropped with why ------------------------------
db_drop "$db"
db_new db "$tmp/games.db"
settings "address_mails_per_hour = 5"
"$drive" new "$db" 1 >/dev/null || not_ok "creating a game"
replies 10 budget
answered=$(queued 'g0.s1@%')
check "$answered answers with a budget of 5 an hour" [ "$answered" -le 5 ]
check "no answer" [ "$answered" -gt 0 ]
check "no answer over the budget is kept (dropped, with why)" \
	[ "$(sql "SELECT count(*) FROM outbox WHERE dropped IS NOT NULL AND
	         last_error LIKE '%budget%'")" -gt 0 ]

# ---- none: no answer at all ------------------------------------------------------
db_drop "$db"
db_new db "$tmp/games.db"
settings ""
"$drive" new "$db" 1 >/dev/null || not_ok "creating a game"
sql "UPDATE seats SET notify = 'none' WHERE seat = 1"
replies 2 none
check "a seat set to no email was answered" [ "$(queued 'g0.s1@%')" = 0 ]
finish
