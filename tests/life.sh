#!/usr/bin/env bash
# life.sh - the table page between moves, for real: nginx and
# buffertime.fcgi on loopback (scripts/web), driven with curl, the store
# looked at with sqlite3, the clock set with BUFFERTIME_NOW in the
# program's environment (restarting it moves the clock).
#
# A 3-seat game (Ann and Cyd with an email, Bob without):
#   table talk: shown escaped (<script> stays text, a line break stays),
#     1..500 bytes (500 two-byte letters pass, 501 bytes do not, an empty
#     message does not), the 6th message in a minute gets "slow down",
#     a line over the game's cap (2000) is refused in words, not stored,
#     the controls that turn text around are dropped, a stale or missing
#     CSRF token and a missing cookie are refused;
#   waiting: "Waiting on Ann (seat 1) for less than a minute", then for
#     2 days once the clock moved;
#   nudge: one a day per nudging seat (the outbox gets exactly one row
#     per nudge, for the seat to move), none on one's own turn (409),
#     none to a seat without email (said on the table), a new one once
#     the clock moved a day;
#   history: every move numbered and linking to ?at=N, the talk in its
#     place; ?at=N from a seat shows the very table that seat saw live
#     after move N (round, totals, decks, its hand, the piles), read-only;
#     a move that never was, or no number, is a 400 that says so;
#   spectator: the link on every seat's table opens a page without a
#     cookie that shows no hand (no card of any hand), no email address,
#     no form; a wrong or missing key is a 403;
#   play again: offered once the game is over (played to its end with
#     log/work forms); two presses (two seats) make one new game, whose
#     seat emails are queued once, and each lead to the presser's seat of
#     it; the first player passes left; a CSRF token of another game or
#     seat is refused; "again" on a game in play is a 409.
# Every page of these kinds is also checked with tidy (valid HTML5).
#
# Environment (set by "make check"): BUFFERTIME_FCGI, SRCDIR.  Skips (77)
# without nginx, curl or sqlite3.  Prints one line per failure and last
# "N passed, M failed".
set -u

: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start life nginx curl sqlite3
seed=7

T0=1700000000          # 2023-11-14 22:13:20 UTC: the clock of the test
DAY=86400

# ---- helpers ------------------------------------------------------------------

# field NAME: the value of the first hidden field NAME of the page.
field() {
	grep -o "name=\"$1\" value=\"[^\"]*\"" "$tmp/b" | head -n 1 |
		sed 's/.*value="//; s/"$//'
}

# say SEAT TEXT: the seat posts TEXT (raw bytes) to the table talk with
# the CSRF token of its page.
say() {
	local csrf
	page "$1"
	csrf=$(field csrf)
	req "${jar[$1]}" POST "${base}g/$game/say" \
		"csrf=$csrf&text=$(printf '%s' "$2" | urlenc)"
}

# urlenc: stdin percent-encoded, every byte.
urlenc() {
	od -An -v -tx1 | tr -d ' \n' | sed 's/\(..\)/%\1/g'
}

# post SEAT PATH-REGEX [WANT]: sends the seat's table form whose action
# matches the regex; sets $code and $loc.
post() {
	page "$1"
	if ! form pick "${3-}" "$2"; then
		not_ok "seat $1: no form for $2 on the table"
		code=none loc=''
		return 1
	fi
	req "${jar[$1]}" POST "$form_url" "$form_body"
}

# print_of: what a table page shows of the game (R10 for its seat): the
# round, the big numbers, the decks, every card id drawn as a card (the
# hand and the piles, in order), one a line; not the forms or the moves.
print_of() {
	{
		grep -o 'Round [0-9]*' "$tmp/b" | head -n 1
		grep -o '<strong>[0-9%.]*</strong>' "$tmp/b"
		grep -o '<dd>[0-9]*</dd>' "$tmp/b"
		sed -n '/class="panel hand"/,/<\/section>/p' "$tmp/b" |
			grep -o 'class="card-id">[A-Z][0-9]*<' | sed 's/^/hand /'
		sed -n '/class="panel tableau"/,/<\/section>/p' "$tmp/b" |
			grep -o 'class="card-id">[A-Z][0-9]*<' | sed 's/^/pile /'
	}
}

# hand_ids: the card ids of the hand section of the page, one a line.
hand_ids() {
	sed -n '/class="panel hand"/,/<\/section>/p' "$tmp/b" |
		grep -o 'class="card-id">[A-Z][0-9]*<' | sed 's/.*">//; s/<$//'
}


# ============================================================================
run=$tmp/run
BUFFERTIME_NOW=$T0 up "$run"
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db
prefix=/
declare -a jar links

# ---- a game: Ann and Cyd have an email, Bob none -------------------------------
req "" POST "${base}new" \
	"players=3&first=1&name1=Ann&email1=ann@example.org&name2=Bob&email2=&name3=Cyd&email3=cyd@example.org"
expect_code "create a game" 200 || finish
mapfile -t links < <(grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" \
	"$tmp/b" | awk '!seen[$0]++')
[ "${#links[@]}" -eq 3 ] || { not_ok "the created page has ${#links[@]} seat links"; finish; }
links=("" "${links[@]}")
game=${links[1]#"${base}g/"}
game=${game%%\?*}
for s in 1 2 3; do
	jar[$s]=$tmp/jar.$s
	req "${jar[$s]}" GET "${links[$s]}"
	expect_code "seat $s opens its link" 303
done

# ---- waiting, and the table's links ----------------------------------------------
page 2
expect_code "seat 2's table" 200
check "seat 2 waits on Ann" grep -q 'Waiting on Ann (seat 1) for less than a minute' "$tmp/b"
check "seat 2 may nudge Ann" grep -q '<button type="submit">Nudge Ann</button>' "$tmp/b"
for p in history settings record; do
	check "the table links to $p" grep -q "href=\"/g/$game/$p\"" "$tmp/b"
done
check "the table links to my games" grep -q 'href="/games"' "$tmp/b"
watch=$(grep -o "${base}g/$game/watch?k=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
check "the table shows the spectator link" [ -n "$watch" ]
check "the table offers no play again while playing" [ -z "$(grep '/again"' "$tmp/b")" ]
check "no email address on a seat's table" [ -z "$(grep 'example.org' "$tmp/b")" ]
valid "seat 2's table"
page 1
check "seat 1: your turn" grep -q 'Your turn, Ann' "$tmp/b"
check "seat 1 has no nudge for itself" [ -z "$(grep '/nudge"' "$tmp/b")" ]
page 3
check "every seat shows the same spectator link" grep -qF "$watch" "$tmp/b"

# ---- table talk ------------------------------------------------------------------
say 2 "$(printf '<script>alert(1)</script> & "quotes"\nsecond line')"
expect_code "say something" 303
case $loc in *"/g/$game#talk") ok ;; *) not_ok "say: Location '$loc'" ;; esac
page 1
check "talk: no raw <script> (but live.js and app.js)" [ -z "$(grep -i '<script' "$tmp/b" |
	grep -v '^<script src="[^"]*/static/live\.js?v=[^"]*" data-tag="[^"<>]*" defer></script>$' |
	grep -v '^<script src="[^"]*/static/app\.js?v=[^"]*" defer></script>$')" ]
check "talk: the text escaped" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;' "$tmp/b"
check "talk: the line break kept" grep -q '^second line</p>' "$tmp/b"
check "talk: who said it" grep -q '<span class="who">Bob</span>' "$tmp/b"
valid "a table with talk"

say 2 "$(printf 'é%.0s' $(seq 250))"
expect_code "talk: 500 bytes (250 two-byte letters)" 303
say 2 "$(printf 'é%.0s' $(seq 250))x"
expect_code "talk: 501 bytes" 400
check "talk: the 400 says how long" grep -q 'at most 500 bytes' "$tmp/b"
say 2 "$(printf '  \n\n ')"
expect_code "talk: nothing but blanks" 400
say 2 "$(printf 'a\001b')"
expect_code "talk: a control character" 400
say 2 "$(printf 'left \342\200\256right')"
expect_code "talk: a right-to-left override" 303
check "talk: the override is dropped" \
	[ "$(sql "SELECT count(*) FROM chat WHERE game = '$game' AND text = 'left right'")" = 1 ]
check "talk: three messages stored" \
	[ "$(sql "SELECT count(*) FROM chat WHERE game = '$game'")" = 3 ]

page 2
csrf2=$(field csrf)
page 3
csrf3=$(field csrf)
req "${jar[3]}" POST "${base}g/$game/say" "csrf=$csrf2&text=hello"
expect_code "talk: another seat's CSRF token" 403
req "${jar[3]}" POST "${base}g/$game/say" "text=hello"
expect_code "talk: no CSRF token" 403
req "" POST "${base}g/$game/say" "csrf=$csrf3&text=hello"
expect_code "talk: no cookie" 403
req "${jar[3]}" GET "${base}g/$game/say"
expect_code "talk: GET" 405

# The store's clock stands still: five messages pass, the sixth waits.
for i in 1 2 3 4 5; do
	say 3 "message $i"
	case "$code $loc" in
	"303 "*"/g/$game#talk") ok ;;
	*) not_ok "talk: message $i of seat 3: $code '$loc'" ;;
	esac
done
say 3 "message 6"
expect_code "talk: a sixth message in a minute" 303
case $loc in *"?m=slow#talk") ok ;; *) not_ok "talk: the sixth message: Location '$loc'" ;; esac
req "${jar[3]}" GET "$origin$loc"
check "talk: slow down" grep -q 'Slow down' "$tmp/b"
check "talk: the sixth message was not stored" \
	[ "$(sql "SELECT count(*) FROM chat WHERE game = '$game' AND text = 'message 6'")" = 0 ]

# A game's talk has a cap (talk_per_game, 2000 lines by default): at it,
# a line is refused in plain words and not stored.  The filler is said an
# hour ago and taken out again after.
n=$(sql "SELECT count(*) FROM chat WHERE game = '$game'")
sql "PRAGMA busy_timeout = 5000; WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL
	SELECT i + 1 FROM c WHERE i + 1 < 2000 - $n) INSERT INTO chat (game,
	seq, seat, text, created, at_seq) SELECT '$game', $n + i, 1,
	'filler ' || i, $((T0 - 3600)), 0 FROM c" >/dev/null
say 2 "one line too many"
expect_code "talk: a line over the game's cap" 303
case $loc in *"?m=full#talk") ok ;; *) not_ok "talk: over the cap: Location '$loc'" ;; esac
req "${jar[2]}" GET "$origin$loc"
check "talk: the table says the talk is full" \
	grep -q "has had all the table talk one game may have" "$tmp/b"
check "talk: the line over the cap was not stored" \
	[ "$(sql "SELECT count(*) FROM chat WHERE game = '$game'")" = 2000 ]
sql "PRAGMA busy_timeout = 5000; DELETE FROM chat WHERE game = '$game'
	AND text LIKE 'filler %'" >/dev/null

# ---- nudges ---------------------------------------------------------------------
nudges() {
	sql "SELECT count(*) FROM outbox WHERE game = '$game' AND kind = 'nudge' AND seat = $1"
}
post 2 '/nudge$'
expect_code "seat 2 nudges Ann" 303
case $loc in *"?m=nudged") ok ;; *) not_ok "nudge: Location '$loc'" ;; esac
req "${jar[2]}" GET "$origin$loc"
check "nudge: the table says so" grep -q 'Ann has been nudged' "$tmp/b"
check "nudge: one email queued for Ann" [ "$(nudges 1)" = 1 ]
check "nudge: to Ann's address" \
	[ "$(sql "SELECT recipient FROM outbox WHERE game = '$game' AND kind = 'nudge'")" = ann@example.org ]
check "nudge: the table says when the next one may go" grep -q 'next one can go in 1 day' "$tmp/b"
# again the same day: refused, said, nothing queued
post 2 '/nudge$'
case "$code $loc" in
"303 "*"?m=nudge_again") ok ;;
*) not_ok "a second nudge the same day: $code '$loc'" ;;
esac
req "${jar[2]}" GET "$origin$loc"
check "a second nudge: 'You nudged Ann today already'" grep -q 'You nudged Ann today already' "$tmp/b"
check "a second nudge: nothing queued" [ "$(nudges 1)" = 1 ]
# a nudge from another seat is its own
post 3 '/nudge$'
case "$code $loc" in "303 "*"?m=nudged") ok ;; *) not_ok "seat 3 nudges Ann: $code '$loc'" ;; esac
check "seat 3's nudge queued" [ "$(nudges 1)" = 2 ]
# one's own turn
page 1
req "${jar[1]}" POST "${base}g/$game/nudge" "csrf=$(field csrf)&seq=$(field seq)"
expect_code "a nudge on one's own turn" 409
req "${jar[3]}" POST "${base}g/$game/nudge" "csrf=$csrf2&seq=$(lines)"
expect_code "a nudge with another seat's CSRF token" 403

# Ann moves: Bob, who has no email, is to move.
step || not_ok "seat 1 could not move"
page 1
check "Bob has no email: the table says so" grep -q 'Bob has no email address' "$tmp/b"
check "Bob has no email: no nudge button" [ -z "$(grep '/nudge"' "$tmp/b")" ]
req "${jar[1]}" POST "${base}g/$game/nudge" "csrf=$(field csrf)&seq=$(field seq)"
case "$code $loc" in "303 "*"?m=nudge_none") ok ;; *) not_ok "nudging Bob: $code '$loc'" ;; esac
check "nudging Bob queues nothing" [ "$(nudges 2)" = 0 ]
# a nudge form from before the move: stale
req "${jar[3]}" POST "${base}g/$game/nudge" "csrf=$csrf3&seq=0"
case "$code $loc" in "303 "*"?m=stale") ok ;; *) not_ok "an outdated nudge: $code '$loc'" ;; esac
step || not_ok "seat 2 could not move"

# ---- the clock moves on two days and three hours ------------------------------------
restart "$run" $((T0 + 2 * DAY + 3 * 3600))
page 1
check "two days later: waiting on Cyd for 2 days" \
	grep -q 'Waiting on Cyd (seat 3) for 2 days' "$tmp/b"
post 2 '/nudge$'
case "$code $loc" in "303 "*"?m=nudged") ok ;; *) not_ok "seat 2 nudges again after two days: $code '$loc'" ;; esac
check "the nudge after two days is queued, for Cyd" [ "$(nudges 3)" = 1 ]
req "${jar[2]}" GET "${base}g/$game"
check "talk: two days ago" grep -q '2 days ago</time>' "$tmp/b"

# ---- history, and the table as it was ------------------------------------------------
# Seat 2's live table after each move, to compare with ?at=N later.
page 2
print_of >"$tmp/print.$(lines)"
for i in $(seq 8); do
	step || { not_ok "move $i after the clock moved"; break; }
	page 2
	print_of >"$tmp/print.$(lines)"
done
m=$(lines)
req "${jar[2]}" GET "${base}g/$game/history"
expect_code "history" 200
valid "the history page"
check "history: every move numbered" \
	[ "$(grep -o "href=\"/g/$game?at=[0-9]*\">[0-9]*</a>" "$tmp/b" | wc -l)" = "$m" ]
check "history: the moves in words" grep -q 'Ann got to work' "$tmp/b"
check "history: the talk, escaped" grep -qF '&lt;script&gt;alert(1)' "$tmp/b"
check "history: no raw <script> (but app.js)" [ -z "$(grep -i '<script' "$tmp/b" |
	grep -v '^<script src="[^"]*/static/app\.js?v=[^"]*" defer></script>$')" ]
# the talk (said before move 1) comes before move 1
first_talk=$(grep -n 'class="talk' "$tmp/b" | head -n 1 | cut -d: -f1)
first_move=$(grep -n 'class="move"' "$tmp/b" | head -n 1 | cut -d: -f1)
check "history: the talk in its place (before move 1)" [ "${first_talk:-9999}" -lt "${first_move:-0}" ]
for n in 2 3 $((m - 4)) "$m"; do
	page 2 "?at=$n"
	expect_code "the table after move $n" 200
	check "after move $n: the banner" grep -q "As it was after move $n of $m" "$tmp/b"
	check "after move $n: no form at all" [ -z "$(grep -i '<form' "$tmp/b")" ]
	if [ -f "$tmp/print.$n" ]; then
		print_of >"$tmp/print.at"
		if cmp -s "$tmp/print.$n" "$tmp/print.at"; then
			ok
		else
			not_ok "after move $n: the table differs from the one seat 2 saw then"
			diff "$tmp/print.$n" "$tmp/print.at" | head -n 10
		fi
	fi
done
valid "the table after a move"
page 2 "?at=0"
expect_code "the table at the start" 200
check "at the start: round 1" grep -q 'Round 1 ' "$tmp/b"
page 2 "?at=$((m + 1))"
expect_code "the table after a move that never was" 400
check "a move that never was: said" grep -q "There is no move $((m + 1)) in this game" "$tmp/b"
page 2 "?at=two"
expect_code "the table after move 'two'" 400
page 2 "?at=-1"
expect_code "the table after move -1" 400
req "" GET "${base}g/$game/history"
expect_code "history without a cookie" 403

# ---- the spectator ------------------------------------------------------------------
page 2
watch=$(grep -o "${base}g/$game/watch?k=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
req "" GET "$watch"
expect_code "spectator page" 200
valid "the spectator page"
cp "$tmp/b" "$tmp/watch"
check "spectator: no cookie set" [ -z "$(grep -i '^set-cookie' "$tmp/h")" ]
check "spectator: no form" [ -z "$(grep -i '<form' "$tmp/watch")" ]
check "spectator: no email address" [ -z "$(grep -i 'example.org' "$tmp/watch")" ]
check "spectator: no hand" [ -z "$(grep 'class="panel hand"' "$tmp/watch")" ]
check "spectator: no table talk" [ -z "$(grep 'message 5' "$tmp/watch")" ]
check "spectator: the crew and hand sizes" grep -q '<td>Cyd</td><td>[0-9]*</td>' "$tmp/watch"
shown=''
for s in 1 2 3; do
	page "$s"
	for c in $(hand_ids); do
		grep -q "\\b$c\\b" "$tmp/watch" && shown="$shown $c(seat $s)"
	done
done
check "spectator: no card of any hand (shown:$shown)" [ -z "$shown" ]
key=${watch##*k=}
last=${key: -1}
[ "$last" = A ] && other=B || other=A
req "" GET "${watch%?}$other"
expect_code "spectator: a forged key" 403
req "" GET "${base}g/$game/watch"
expect_code "spectator: no key" 403
req "" GET "${base}g/$game/watch?k="
expect_code "spectator: an empty key" 403

# ---- to the end, and play again -----------------------------------------------------
for i in $(seq 400); do
	[ "$(turn_seat)" = 0 ] && break
	step || { not_ok "the game stopped at $(lines) lines (move $i)"; break; }
done
check "the game is over" [ "$(turn_seat)" = 0 ]
page 2
check "the end: play again" grep -q '>Play again</button>' "$tmp/b"
check "the end: the record" grep -q "href=\"/g/$game/record\"" "$tmp/b"
check "the end: no nudge" [ -z "$(grep '/nudge"' "$tmp/b")" ]
valid "the table at the end"
games=$(sql "SELECT count(*) FROM games")
post 2 '/again$'
expect_code "play again" 303
case $loc in
"${prefix}g/"*"?t="*) ok ;;
*) not_ok "play again: Location '$loc'" ;;
esac
new=${loc#"${prefix}g/"}
new=${new%%\?*}
loc2=$loc
check "play again: a new game" [ "$(sql "SELECT count(*) FROM games")" = $((games + 1)) ]
check "play again: the old game knows it" \
	[ "$(sql "SELECT rematch FROM games WHERE id = '$game'")" = "$new" ]
page 1
check "after one press: join the rematch" grep -q '>Join the rematch</button>' "$tmp/b"
post 1 '/again$'
expect_code "play again, a second time" 303
loc1=$loc
case $loc in
"${prefix}g/$new?t="*) ok ;;
*) not_ok "play again, a second time: Location '$loc', want game $new" ;;
esac
check "two presses: one new game" [ "$(sql "SELECT count(*) FROM games")" = $((games + 1)) ]
check "two presses: the seat emails queued once (Ann, Cyd)" \
	[ "$(sql "SELECT group_concat(recipient, ' ') FROM (SELECT recipient FROM outbox WHERE game = '$new' AND kind = 'seat' ORDER BY seat)")" = "ann@example.org cyd@example.org" ]
check "play again: the first player passes left" \
	[ "$(sql "SELECT first_seat FROM games WHERE id = '$new'")" = 2 ]
old=$game
# the presser lands on its own seat of the new game
req "${jar[2]}" GET "$origin$loc2"
expect_code "seat 2 opens its rematch link" 303
game=$new
page 2
check "seat 2 sits in the rematch, first to move" grep -q 'Your turn, Bob' "$tmp/b"
newcsrf=$(field csrf)
req "${jar[2]}" POST "${base}g/$new/again" "csrf=$newcsrf"
expect_code "play again while the rematch is in play" 409
req "${jar[1]}" GET "$origin$loc1"
expect_code "seat 1 opens its rematch link" 303
page 1
check "seat 1 sits in the rematch" grep -q 'Waiting on Bob (seat 2)' "$tmp/b"
req "${jar[1]}" POST "${base}g/$new/again" "csrf=$newcsrf"
expect_code "play again with seat 2's CSRF token" 403
game=$old
page 1
req "${jar[1]}" POST "${base}g/$new/say" "csrf=$(field csrf)&text=hello"
expect_code "talk with the old game's CSRF token" 403

# ---- a long conversation: the table shows the latest, the history a bound --------
# 130 more messages, written straight into the file (the rate limit is
# the store's and is tested above).
have=$(sql "SELECT count(*) FROM chat WHERE game = '$game'")
sql "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 130)
     INSERT INTO chat (game, seq, seat, text, created, at_seq)
     SELECT '$game', $have + i - 1, 1, 'filler ' || i, $T0, 0 FROM n" >/dev/null
page 1
check "talk: the table shows the latest 20 messages" \
	[ "$(sed -n '/<ul class="chat">/,/<\/ul>/p' "$tmp/b" | grep -c '<li')" = 20 ]
check "talk: the newest message on the table" grep -q '>filler 130<' "$tmp/b"
check "talk: not the 21st newest" sh -c "! grep -q '>filler 110<' '$tmp/b'"
check "talk: the table says it shows the latest" grep -q 'the latest; the history has all of it' "$tmp/b"
req "${jar[1]}" GET "${base}g/$game/history"
check "history: the newest message" grep -q 'filler 130' "$tmp/b"
check "history: not the 101st newest" sh -c "! grep -q 'filler 30<' '$tmp/b'"
check "history: says how many earlier entries it leaves out" \
	grep -Eq 'The [0-9]+ earliest entries are not shown' "$tmp/b"

finish
