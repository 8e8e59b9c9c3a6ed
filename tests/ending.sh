#!/usr/bin/env bash
# ending.sh - ending a game that can no longer be won, for real: nginx,
# buffertime.fcgi and the worker (`buffertime worker`, writing emails to
# a folder) on loopback, driven with curl.
#
#   offered   tests/data/out-of-reach.rec imported with three addresses:
#             every seat's table offers "End the game here" under the
#             "can no longer be won" line, and says playing on is fine.
#   ended     seat 1 ends it: back to the table, which says who ended it
#             and that the crew lost; no record line was added; the
#             history, My games and the Atom feed say so too; the record
#             now has the seed; `admin
#             check` passes; the same form again changes nothing.
#   emails    the game-over email reaches all three, after the review,
#             with who ended it, the review's biggest turning point and
#             the link to play again.
#   refused   a bot's seat, and a game that can still be won, cannot be
#             ended: a clear page, nothing changed.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR,
# TESTDATA.  Skips (77) without nginx, curl or sqlite3.  Prints one line
# per failure and last "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
: "${TESTDATA:=$SRCDIR/tests/data}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start ending nginx curl sqlite3
seed=7
maildir=$tmp/mail
run=$tmp/run

up "$run" --mailer "$maildir" --mail-poll 1 --set review_rollouts=40
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db

# import: the out-of-reach game with three addresses; sets game.
import() {
	game=$(timeout 30 "$BUFFERTIME" admin --db "$db" import \
		--email ann@example.org --email bob@example.org \
		--email cyd@example.org "$TESTDATA/out-of-reach.rec" 2>"$tmp/err")
	check "import the out-of-reach game: $(head -c 200 "$tmp/err")" test -n "$game"
}

# open SEAT: the seat's browser opens its current link (jar[SEAT]).
open() {
	: >"${jar[$1]}"
	req "${jar[$1]}" GET "$(timeout 30 "$BUFFERTIME" admin --db "$db" link \
		"$game" "$1" --key-file "$run/data/server.key" --base-url "$base" 2>/dev/null)"
	expect_code "seat $1 opens its link" 303
}

# end_form SEAT: the seat's table offers to end the game (sets form_url
# and form_body); 1 if not.
end_form() {
	page "$1"
	form pick '' '/end$'
}

# ---- offered -------------------------------------------------------------------
jar=("" "$tmp/jar1" "$tmp/jar2" "$tmp/jar3")
import
for s in 1 2 3; do
	open "$s"
done
moves=$(lines)
for s in 3 2; do
	end_form "$s" || not_ok "seat $s's table offers no way to end the game"
done
end_form 1 || not_ok "seat 1's table offers no way to end the game"
check "the button asks first, then says what it does" sh -c 'grep -q "<summary>End the game here…</summary>" "$1" && grep -q "<button type=\"submit\">Yes, end it: the crew has lost</button>" "$1"' sh "$tmp/b"
check "... and that playing on is fine too" grep -q 'Playing on is fine too' "$tmp/b"
check "... under the line that says it can no longer be won" \
	grep -q 'this game can no longer be won' "$tmp/b"
saved_url=$form_url saved_body=$form_body

# ---- ended ---------------------------------------------------------------------
req "${jar[1]}" POST "$form_url" "$form_body"
expect_code "seat 1 ends the game" 303
check "... back to the table ($loc)" \
	sh -c 'case $1 in *"g/$2") exit 0 ;; esac; exit 1' sh "$loc" "$game"
check "the game is lost" test "$(sql "SELECT status, ended_by FROM games WHERE id = '$game'")" = "lost|1"
check "nobody is to move" test "$(turn_seat)" = 0
check "no record line was added" test "$(lines)" = "$moves"
page 2
expect_code "seat 2's table" 200
check "the table says who ended it, and that the crew lost" \
	grep -q 'The crew lost. Seat 1 ended the game: it could no longer be won.' "$tmp/b"
check "... and offers to end it no more" sh -c "! grep -q 'End the game here' '$tmp/b'"
req "${jar[2]}" GET "${base}g/$game/history"
check "the history says who ended it" \
	grep -q 'class="notice ended" role="status">Seat 1 ended the game: it could no longer be won.' "$tmp/b"
req "${jar[2]}" GET "${base}games"
check "My games says it was ended early" \
	grep -q 'lost: ended early, as it could no longer be won' "$tmp/b"
req "${jar[2]}" GET "${base}g/$game/settings"
feed=$(grep -o "${base}g/$game/feed?s=[0-9]&amp;k=[A-Za-z0-9_-]*" "$tmp/b" |
	head -n 1 | sed 's/&amp;/\&/')
req "" GET "$feed"
check "the Atom feed says who ended it" \
	grep -q 'Seat 1 ended the game: it could no longer be won. The crew lost in round' "$tmp/b"
req "${jar[2]}" GET "${base}g/$game/record"
check "the record now has the seed" grep -q '^seed 72b2598e' "$tmp/b"
check "admin check passes" timeout 60 "$BUFFERTIME" admin --db "$db" check
over_mails=$(sql "SELECT count(*) FROM outbox WHERE game = '$game' AND kind = 'over'")
check "three game-over emails are queued ($over_mails)" test "$over_mails" = 3
req "${jar[1]}" POST "$saved_url" "$saved_body"
expect_code "the same form again" 303
check "... leads to the table, out of date ($loc)" \
	sh -c 'case $1 in *"g/$2?m=stale") exit 0 ;; esac; exit 1' sh "$loc" "$game"
check "... and changes nothing" \
	test "$(sql "SELECT status, ended_by, (SELECT count(*) FROM outbox WHERE game = '$game' AND kind = 'over') FROM games WHERE id = '$game'")" = "lost|1|3"

# ---- emails --------------------------------------------------------------------
for who in ann bob cyd; do
	found=''
	for _ in $(seq 600); do
		found=$(grep -l "^To: .*$who@example.org" "$maildir"/*.eml 2>/dev/null |
			xargs -r grep -l 'Subject: Buffer Time: game lost' 2>/dev/null |
			head -n 1)
		[ -n "$found" ] && break
		sleep 0.2
	done
	if [ -z "$found" ]; then
		not_ok "no game-over email reached $who"
		continue
	fi
	check "$who's game-over email says who ended it" \
		grep -Eq 'is over: (Seat 1|you) ended it, as it could no longer be won' "$found"
	check "$who's game-over email has the review's biggest turning point" \
		grep -q 'The biggest turning point of the review:' "$found"
	check "$who's game-over email links to the review" \
		grep -q "${base}g/$game?t=[A-Za-z0-9_-]*#review" "$found"
	check "$who's game-over email offers to play again" \
		grep -q 'Play again? The same crew, a new deal' "$found"
done
check "the review was done" \
	test "$(sql "SELECT outcome FROM jobs WHERE game = '$game' AND kind = 'review'")" = reviewed

# ---- refused -------------------------------------------------------------------
import
open 2
end_form 2 || not_ok "seat 2's table offers no way to end the game"
sql "UPDATE seats SET bot = 'search' WHERE game = '$game' AND seat = 2"
req "${jar[2]}" POST "$form_url" "$form_body"
expect_code "a bot's seat may not end the game" 403
check "... and it goes on" test "$(sql "SELECT status, ended_by FROM games WHERE id = '$game'")" = "playing|0"

create 1 "Ann:ann%40example.org" "Ben:ben%40example.org" || finish
jar=("" "$tmp/jar4" "$tmp/jar5")
req "${jar[1]}" GET "${links[1]}"
expect_code "Ann opens her link" 303
page 1
check "a game that can still be won offers no end" sh -c "! grep -q 'End the game here' '$tmp/b'"
form pick '' || not_ok "Ann has no move form"
req "${jar[1]}" POST "${base}g/$game/end" "$form_body"
expect_code "a game that can still be won is not ended" 409
check "... with a page that says so" grep -q 'This game can still be won, so it cannot be ended early' "$tmp/b"
check "... and it goes on" test "$(sql "SELECT status, ended_by FROM games WHERE id = '$game'")" = "playing|0"

finish
