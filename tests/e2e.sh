#!/usr/bin/env bash
# e2e.sh - a whole game by email: three players who only ever follow the
# links of the emails they receive.
#
# nginx and buffertime.fcgi run on loopback (scripts/web); after every
# step `buffertime worker --once` delivers the outbox into a folder (one
# file per message), and each player opens the link of the newest email
# addressed to them.  On the way: a reminder (the mailer's clock moved a
# day on with BUFFERTIME_NOW), a nudge (and a second one refused), table
# talk that shows up escaped on the table and verbatim in the next turn
# email, the history and the table as it was after several moves (checked
# against a replay of the record), the seat's Atom feed (checked by
# tests/atomcheck.py), the spectator's view, the game-over emails, and a
# rematch whose new links arrive by email.  Moves by reply are on
# (reply_address): the first email of the seat that moves first, in the
# game made with the form and in its rematch, has the menu and a
# Reply-To; the other seats' have neither.
#
# Environment: BUFFERTIME, BUFFERTIME_FCGI, SRCDIR, TESTDATA (make check).
# Skips (77) without nginx, curl or python3.  E2E_SEED picks the play;
# BT_TEST_ENGINE=postgres plays it on a PostgreSQL server (testlib.sh).
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start e2e nginx curl python3
engine_init
seed=${E2E_SEED:-3}
maildir=$tmp/mail
mkdir -p "$maildir"
seen=$tmp/seen
: >"$seen"

# ---- the mail folder ----------------------------------------------------------

# deliver [NOW]: one mailer round (with the clock at NOW if given); the
# new messages' files go to $fresh (a list, oldest first).
deliver() {
	local env=()
	[ -n "${1-}" ] && env=(env "BUFFERTIME_NOW=$1")
	if ! timeout 60 "${env[@]}" "$BUFFERTIME" worker --config "$run/buffertime.conf" \
		--mail-dir "$maildir" --once >"$tmp/mailer.out" 2>&1; then
		not_ok "mailer --once: $(head -c 500 "$tmp/mailer.out")"
	fi
	find "$maildir" -maxdepth 1 -type f -name '*.eml' | sort >"$tmp/all"
	fresh=$(comm -13 "$seen" "$tmp/all")
	cp "$tmp/all" "$seen"
}

# to FILE: the address a message is for.
to() {
	sed -n '/^$/q; s/^To: *//Ip' "$1" | tr -d '\r' | sed 's/.*<\(.*\)>.*/\1/'
}

# subject FILE: its Subject (our subjects here are ASCII).
subject() {
	sed -n '/^$/q; s/^Subject: *//Ip' "$1" | tr -d '\r'
}

# seat_link FILE: the first seat link in its body.
seat_link() {
	grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" "$1" | head -n 1
}

# fresh_for ADDRESS [SUBJECT-REGEX]: the newest of $fresh for ADDRESS
# (whose subject matches), or "".
fresh_for() {
	local f last=''
	for f in $fresh; do
		[ "$(to "$f")" = "$1" ] || continue
		[ -n "${2-}" ] && ! subject "$f" | grep -Eqi -- "$2" && continue
		last=$f
	done
	echo "$last"
}

# count_for ADDRESS: how many of $fresh are for ADDRESS.
count_for() {
	local f n=0
	for f in $fresh; do
		[ "$(to "$f")" = "$1" ] && n=$((n + 1))
	done
	echo "$n"
}

# reply_to FILE: its Reply-To, or "".
reply_to() {
	sed -n '/^$/q; s/^Reply-To: *//Ip' "$1" | tr -d '\r'
}

# asks_to_move FILE NAME: the menu and a Reply-To that takes a move.
asks_to_move() {
	check "$2 has a Reply-To to move by ($(reply_to "$1"))" \
		sh -c "sed -n '/^\$/q; p' '$1' | grep -Eqi '^Reply-To: play\+[a-z2-7]{50}@bt\.example'"
	check "$2 has the menu" grep -q '^What you can do (reply with the number' "$1"
	check "$2 links a move by reply" grep -q 'mailto:play+' "$1"
}

# asks_nothing FILE NAME: no menu, no Reply-To.
asks_nothing() {
	check "$2 has no Reply-To" [ -z "$(reply_to "$1")" ]
	check "$2 has no menu" sh -c "! grep -q '^What you can do' '$1'"
}

# headers_ok FILE NAME: every header a message must carry.
headers_ok() {
	local h
	for h in Date From To Subject Message-ID List-Unsubscribe \
		'Content-Type: text/plain; charset=utf-8'; do
		if sed -n '/^$/q; p' "$1" | grep -qi "^$h"; then
			ok
		else
			not_ok "$2: no $h header"
		fi
	done
}

# ---- the players ----------------------------------------------------------------

email=("" mariner@example.org boimler@example.org tendi@example.org)
name=("" Beckett Brad Tendi)
jar=("" "$tmp/jar1" "$tmp/jar2" "$tmp/jar3")

# follow SEAT FILE: the player opens the seat link of the message: a 303
# to the table and the cookie; sets $game.
follow() {
	local link
	link=$(seat_link "$2")
	if [ -z "$link" ]; then
		not_ok "no seat link in $(subject "$2")"
		return 1
	fi
	req "${jar[$1]}" GET "$link"
	expect_code "seat $1 opens the link of '$(subject "$2")'" 303 || return 1
	game=${link#"${base}g/"}
	game=${game%%\?*}
	page_url=${base}g/$game
	req "${jar[$1]}" GET "$page_url"
	expect_code "seat $1's table" 200
}

# seat_of ADDRESS: the seat number of an address.
seat_of() {
	local s
	for s in 1 2 3; do
		[ "${email[$s]}" = "$1" ] && echo "$s"
	done
}

# move SEAT: a random legal form from the seat's table; 0 if accepted.
move() {
	page_url=${base}g/$game
	req "${jar[$1]}" GET "$page_url"
	form random '' || { why="no move form for seat $1"; return 1; }
	req "${jar[$1]}" POST "$form_url" "$form_body"
	# a Sensor Sweep's first step shows the cards: its order is the
	# next move of the same seat, and no email goes out in between
	[ "$code" = 303 ] || { why="move: status $code"; return 1; }
}

# post SEAT PATH-REGEX [WANT]: sends the seat's table form whose action
# matches the regex; sets $code and $loc.
post() {
	page_url=${base}g/$game
	req "${jar[$1]}" GET "$page_url"
	if ! form pick "${3-}" "$2"; then
		not_ok "seat $1: no form for $2 on the table"
		return 1
	fi
	req "${jar[$1]}" POST "$form_url" "$form_body"
}

# ============================================================================
run=$tmp/run
up "$run" --set reply_address=play@bt.example
base=$url
origin=$(origin_of "$base")
db=$(db_of "$run")

# --- a new game: every seat's link arrives by email ---------------------------
body="players=3&first=1"
for s in 1 2 3; do
	body="$body&name$s=${name[$s]}&email$s=${email[$s]}"
done
req "" POST "${base}new" "$body"
expect_code "create the game" 200
# queued with its menu by the page itself (the mailer would add a
# forgotten one: this is about the page)
check "the page queued the first mover's email with a Reply-To" \
	[ "$(sql "SELECT count(*) FROM outbox
	     WHERE kind = 'seat' AND seat = 1 AND reply_to LIKE 'play+%'")" = 1 ]
deliver
for s in 1 2 3; do
	f=$(fresh_for "${email[$s]}")
	if [ -z "$f" ]; then
		not_ok "no new-game email for ${email[$s]}"
		finish
	fi
	headers_ok "$f" "new-game email to seat $s"
	check "the new-game email to seat $s links to how to play" \
		grep -qF "New to the game? How to play: ${base}rules" "$f"
	if [ "$s" = 1 ]; then
		asks_to_move "$f" "the new-game email to seat 1, the first to move"
	else
		asks_nothing "$f" "the new-game email to seat $s"
	fi
	follow "$s" "$f"
done
first_game=$game

# --- play by email ------------------------------------------------------------
turn_mails=0 reminded=0 nudged=0 chatted=0 moves=0 over=0
turn=1      # seat 1 goes first; then the turn email says who
last_mail=''
for step in $(seq 400); do
	# chat before move 3: the next turn email carries it
	if [ "$moves" -eq 3 ] && [ "$chatted" -eq 0 ]; then
		post "$turn" '/say$' 'text=Red-alert!<b>now</b>'
		expect_code "chat" 303
		req "${jar[$turn]}" GET "${base}g/$game"
		check "chat shown escaped" grep -q 'Red-alert!&lt;b&gt;now&lt;/b&gt;' "$tmp/b"
		check "chat never raw" sh -c "! grep -q '<b>now</b>' '$tmp/b'"
		chatted=1
	fi
	# a nudge before move 5, from the seat after the one to move
	if [ "$moves" -eq 5 ] && [ "$nudged" -eq 0 ]; then
		other=$((turn % 3 + 1))
		post "$other" '/nudge$'
		expect_code "nudge" 303
		post "$other" '/nudge$'
		req "${jar[$other]}" GET "$origin${loc:-/}"
		check "a second nudge the same day is refused" grep -qi 'nudged' "$tmp/b"
		deliver
		f=$(fresh_for "${email[$turn]}" 'asks you')
		check "the nudge email reaches seat $turn" [ -n "$f" ]
		check "one nudge email only" [ "$(count_for "${email[$turn]}")" = 1 ]
		[ -n "$f" ] && follow "$turn" "$f"
		nudged=1
	fi
	# a day without a move before move 7: the mailer's clock moves on
	if [ "$moves" -eq 7 ] && [ "$reminded" -eq 0 ]; then
		req "${jar[$((turn % 3 + 1))]}" GET "${base}g/$game"
		deliver "$(( $(date +%s) + 25 * 3600 ))"
		f=$(fresh_for "${email[$turn]}" remind)
		check "a reminder after a day reaches seat $turn" [ -n "$f" ]
		check "only seat $turn is reminded" [ "$(echo "$fresh" | grep -c .)" = 1 ]
		if [ -n "$f" ]; then
			headers_ok "$f" "reminder"
			follow "$turn" "$f"
		fi
		deliver "$(( $(date +%s) + 26 * 3600 ))"
		check "no second reminder within the interval" [ -z "$fresh" ]
		reminded=1
	fi
	if ! move "$turn"; then
		not_ok "step $step: $why"
		break
	fi
	moves=$((moves + 1))
	deliver
	over_mails=0
	for s in 1 2 3; do
		f=$(fresh_for "${email[$s]}" 'over|won|lost')
		[ -n "$f" ] && over_mails=$((over_mails + 1)) && last_mail=$f
	done
	if [ "$over_mails" -gt 0 ]; then
		check "game over emailed to all three" [ "$over_mails" = 3 ]
		over=1
		break
	fi
	next=''
	check "nobody is emailed about their own move (seat $turn)" \
		[ "$(count_for "${email[$turn]}")" = 0 ]
	for s in 1 2 3; do
		n=$(count_for "${email[$s]}")
		check "at most one email per seat per move (seat $s: $n)" [ "$n" -le 1 ]
		f=$(fresh_for "${email[$s]}" 'turn')
		if [ -n "$f" ]; then
			[ -z "$next" ] && next=$s && last_mail=$f
		fi
	done
	if [ -z "$next" ]; then
		# the same seat goes on (no email about its own move)
		continue
	fi
	turn_mails=$((turn_mails + 1))
	if [ "$chatted" -eq 1 ]; then
		check "the turn email after the chat quotes it" grep -q 'Red-alert!<b>now</b>' "$last_mail"
		chatted=2
	fi
	headers_ok "$last_mail" "turn email $turn_mails" >/dev/null
	turn=$next
	follow "$turn" "$last_mail" || break
done
check "the game ended (after $moves moves)" [ "$over" = 1 ]
check "turn emails were sent ($turn_mails)" [ "$turn_mails" -gt 10 ]
echo "game: $moves moves, $turn_mails turn emails"

# --- history, and the table as it was ---------------------------------------
req "${jar[1]}" GET "${base}g/$game/record"
expect_code "record download" 200
cp "$tmp/b" "$tmp/record"
lines=$(grep -c '^[1-6] ' "$tmp/record")
req "${jar[1]}" GET "${base}g/$game/history"
expect_code "history page" 200
check "history lists all $lines moves" [ "$(grep -o 'at=[0-9]*' "$tmp/b" | sort -u | wc -l)" -ge "$lines" ]
check "the record of a finished game has its seed" grep -q '^seed ' "$tmp/record"
for n in 1 5 12; do
	# the record's first lines up to action n, replayed by the tool
	awk -v n="$n" '/^[1-6] / { if (++a > n) exit } { print }' "$tmp/record" >"$tmp/part"
	timeout 30 "$BUFFERTIME" replay --seat 1 "$tmp/part" >"$tmp/view" 2>"$tmp/err" ||
		not_ok "replay of the first $n moves: $(head -c 300 "$tmp/err")"
	round=$(sed -n 's/.*"round": \([0-9]*\).*/\1/p' "$tmp/view" | head -n 1)
	effort=$(sed -n 's/.*"effort": \([0-9-]*\).*/\1/p' "$tmp/view" | head -n 1)
	req "${jar[1]}" GET "${base}g/$game?at=$n"
	expect_code "table at move $n" 200
	check "table at move $n shows round $round" grep -Eq "Round[^0-9]*$round\\b" "$tmp/b"
	check "table at move $n shows effort $effort" grep -q ">$effort<" "$tmp/b"
	check "table at move $n has no move forms" sh -c "! grep -q '/act\"' '$tmp/b'"
done
req "${jar[1]}" GET "${base}g/$game?at=99999"
expect_code "table at a move that never was" 400

# --- the feed, the spectator --------------------------------------------------
req "${jar[2]}" GET "${base}g/$game/settings"
expect_code "settings page" 200
feed=$(grep -o "${base}g/$game/feed?s=2&amp;k=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1 | sed 's/&amp;/\&/')
check "the settings page shows the feed" [ -n "$feed" ]
req "" GET "$feed"
expect_code "feed" 200
check "feed is Atom" sh -c "grep -qi 'application/atom+xml' '$tmp/h'"
if python3 "$SRCDIR/tests/atomcheck.py" "$tmp/b" >"$tmp/atom.out" 2>&1; then
	ok
else
	not_ok "feed is not valid Atom: $(head -c 300 "$tmp/atom.out")"
fi
req "${jar[1]}" GET "${base}g/$game"
watch=$(grep -o "${base}g/$game/watch?k=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
check "the table shows a spectator link" [ -n "$watch" ]
req "" GET "$watch"
expect_code "spectator page" 200
check "no email address on the spectator page" sh -c "! grep -q '@example.org' '$tmp/b'"
check "no move forms for a spectator" sh -c "! grep -q '/act\"' '$tmp/b'"
req "" GET "${watch%?????}xxxxx"
expect_code "spectator with a bad key" 403

# --- play again: the new links come by email ------------------------------------
follow 1 "$last_mail"
post 1 '/again$'
expect_code "play again" 303
new_link=$loc
post 2 '/again$'
expect_code "play again, a second time" 303
check "the rematch page queued the first mover's email with a Reply-To" \
	[ "$(sql "SELECT count(*) FROM outbox
	     WHERE kind = 'seat' AND seat = 2 AND reply_to LIKE 'play+%'")" = 1 ]
deliver
new_game=''
for s in 1 2 3; do
	f=$(fresh_for "${email[$s]}")
	check "seat $s gets the rematch link by email" [ -n "$f" ]
	[ -n "$f" ] || continue
	# the First Player passes left: seat 2 moves first
	if [ "$s" = 2 ]; then
		asks_to_move "$f" "the rematch email to seat 2, the first to move"
	else
		asks_nothing "$f" "the rematch email to seat $s"
	fi
	follow "$s" "$f"
	[ -z "$new_game" ] && new_game=$game
	check "one rematch, whoever asks (seat $s)" [ "$game" = "$new_game" ]
done
check "the rematch is a new game" [ "$new_game" != "$first_game" ]
# (-- because a game id may begin with "-")
check "play again leads to the new game" sh -c "echo '$new_link' | grep -qF -- '$new_game'"
check "the first player passes left" sh -c "timeout 30 '$BUFFERTIME' admin --db '$db' show '$new_game' | grep -q '\"first\": 2'"

# --- a daily digest instead of turn emails --------------------------------------
page_url=${base}g/$new_game/settings
req "${jar[3]}" GET "$page_url"
if form pick notify=digest '/settings$'; then
	req "${jar[3]}" POST "$form_url" "$form_body"
	expect_code "seat 3 asks for a daily digest" 303
else
	not_ok "no settings form for seat 3"
fi
game=$new_game
# Brad's move: a Sensor Sweep when he has one, because its look alone is
# no move (no record line) until he orders the cards, so the digest must
# wait for the order; a random one else.
page_url=${base}g/$game
req "${jar[2]}" GET "$page_url"
if form pick action=look; then
	req "${jar[2]}" POST "$form_url" "$form_body"
	expect_code "seat 2 looks at the top of the Shift Deck" 303
	echo "seat 2 sweeps before the digest"
fi
move 2 || not_ok "the rematch's first move: $why"
deliver
check "a digest seat gets no turn email" [ "$(count_for "${email[3]}")" = 0 ]
deliver "$(( $(date +%s) + 25 * 3600 ))"
f=$(fresh_for "${email[3]}" digest)
check "a day later, the digest reaches seat 3" [ -n "$f" ]
check "the digest tells Brad's move" grep -q 'Brad' "${f:-/dev/null}"
check "and whose turn it is" grep -qi 'your turn' "${f:-/dev/null}"
deliver "$(( $(date +%s) + 26 * 3600 ))"
check "one digest a day" [ -z "$(fresh_for "${email[3]}" digest)" ]

# --- plain words: no rule code (R6) or tool name in any email's body -----------
# (the headers and the links, with their tokens, are left out)
codes=0
for f in "$maildir"/*.eml; do
	if sed '1,/^\r\{0,1\}$/d' "$f" | sed 's|https\{0,1\}://[^[:space:]]*||g' |
		grep -qE '(^|[^A-Za-z0-9_])R[0-9]+([^A-Za-z0-9_]|$)|buffertime '; then
		not_ok "a rule code or tool name in ${f##*/}: $(grep -m1 -E 'R[0-9]|buffertime ' "$f")"
		codes=$((codes + 1))
	fi
done
check "plain words in every email (a rule code or tool name in $codes)" [ "$codes" = 0 ]

finish
