#!/usr/bin/env bash
# limits.sh - what a stranger cannot make a public server do, for real:
# nginx and buffertime.fcgi on loopback (scripts/web), driven with curl.
#
#   create = admin  the home page has no form; POST new is a 403 and makes
#                   nothing; `buffertime admin create` still makes games.
#   create = code   the form asks for the invitation code; none or a wrong
#                   one is a 403, no game; the right one makes the game;
#                   after 10 wrong codes from one address even the right
#                   one is a 429 with Retry-After, other addresses go on.
#   games per hour  the 4th game of an hour from one client address is a
#                   429 (Retry-After, "try again in"), nothing made; the
#                   address is the one nginx saw (a second loopback
#                   address goes on; X-Forwarded-For is not believed); an
#                   hour later it may make games again.
#   seat emails     an address (its case and "+tag" ignored) gets at most
#                   seat_mails_per_day "your seat" emails a day across the
#                   server: the game that would send one more is a 429
#                   naming it, with no game and no email made.
#   one seat each   a game with one address in two seats is a 400.
#   every path      "play again" counts against games_per_hour as the
#                   form does (429, Retry-After, no game); a game from
#                   the web has a person in it: all bots is a 400.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR.
# Skips (77) without nginx, curl or sqlite3.  Prints one line per failure
# and last "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start limits nginx curl sqlite3

T0=1800000000
seed=1
code_secret='sesame-4711'

# post_new BODY [CURL-ARGS...]: POST new from this machine; sets $code
# and the files $tmp/h and $tmp/b.
post_new() {
	local body=$1
	shift
	code=$(curl -s --max-time 15 -D "$tmp/h" -o "$tmp/b" -w '%{http_code}' \
		-H 'Content-Type: application/x-www-form-urlencoded' \
		--data-binary "$body" "$@" "${base}new" 2>/dev/null) || code=000
}

# game_body N EMAIL1 EMAIL2 [EXTRA]: a two-player form, names Ann and Bo.
game_body() {
	echo "name1=Ann&email1=$1&name2=Bo&email2=$2&first=1${3:+&$3}"
}

games() {
	sql "SELECT count(*) FROM games"
}

# lacks PATTERN FILE: FILE has no line matching PATTERN.
lacks() {
	! grep -q -e "$1" "$2"
}

queued() {
	sql "SELECT count(*) FROM outbox"
}

# retry_after: the Retry-After header of the last answer ("" if none).
retry_after() {
	sed -n 's/^Retry-After: *\([0-9]*\).*/\1/ip' "$tmp/h" | head -n 1
}

# start NAME [SET...]: a fresh server whose config adds each SET.
start() {
	local r=$tmp/$1 s args=()
	shift
	for s in "$@"; do
		args+=(--set "$s")
	done
	BUFFERTIME_NOW=$T0 up "$r" "${args[@]}"
	base=$url
	origin=$(origin_of "$base")
	run=$r
	db=$r/data/buffertime.db
}

# ---- create = admin -----------------------------------------------------------
start admin create=admin
req "" GET "$base"
expect_code "admin: the home page" 200
check "admin: the home page says who makes games" \
	grep -q 'made by its administrator' "$tmp/b"
check "admin: the home page has no new-game form" \
	lacks 'action="/new"' "$tmp/b"
post_new "$(game_body '' '')"
expect_code "admin: POST new" 403
check "admin: the refusal says who makes games" \
	grep -q 'made by its administrator' "$tmp/b"
check "admin: no game was made" test "$(games)" = 0
check "admin: buffertime admin create still makes one" \
	"$BUFFERTIME" admin --db "$db" create --players 2
check "admin: ... and it is stored" test "$(games)" = 1

# ---- create = code ------------------------------------------------------------
start code create=code "invite_code=$code_secret"
req "" GET "$base"
check "code: the form asks for the invitation code" \
	grep -q 'name="invite"' "$tmp/b"
post_new "$(game_body '' '')"
expect_code "code: no code" 403
check "code: ... says to type it" grep -q 'Type the invitation code' "$tmp/b"
post_new "$(game_body '' '' invite=sesame-4712)"
expect_code "code: a wrong code" 403
check "code: ... says it is not right" grep -q 'not right' "$tmp/b"
check "code: ... the names typed come back" grep -q 'value="Ann"' "$tmp/b"
post_new "$(game_body '' '' "invite=$code_secret%20")"
expect_code "code: the code with a space after it" 403
check "code: no game yet" test "$(games)" = 0
post_new "$(game_body '' '' "invite=$code_secret")"
expect_code "code: the right code" 200
check "code: the game is made" test "$(games)" = 1
# wrong so far: none, sesame-4712, the spaced one; 7 more make 10
for i in $(seq 7); do
	post_new "$(game_body '' '' "invite=wrong-$i-xx")"
done
expect_code "code: the 10th wrong code is still answered" 403
post_new "$(game_body '' '' "invite=$code_secret")"
expect_code "code: after 10 wrong codes, the right one" 429
wait_s=$(retry_after)
check "code: ... with a Retry-After within the hour ($wait_s)" \
	test -n "$wait_s" -a "${wait_s:-0}" -gt 0 -a "${wait_s:-0}" -le 3600
check "code: ... and words saying when" grep -q 'Try again in' "$tmp/b"
check "code: ... nothing made" test "$(games)" = 1
post_new "$(game_body '' '' "invite=$code_secret")" --interface 127.0.0.2
expect_code "code: another address with the right code" 200

# ---- games per client address per hour ----------------------------------------
start hourly games_per_hour=3 seat_mails_per_day=0
for i in 1 2 3; do
	post_new "$(game_body '' '')"
	expect_code "hourly: game $i of the hour" 200
done
post_new "$(game_body '' '')"
expect_code "hourly: game 4 of the hour" 429
wait_s=$(retry_after)
check "hourly: ... Retry-After is the hour's rest ($wait_s)" \
	test -n "$wait_s" -a "${wait_s:-0}" -gt 3500 -a "${wait_s:-0}" -le 3600
check "hourly: ... the page says why" \
	grep -q 'Your address has made 3 games in the last hour' "$tmp/b"
check "hourly: ... and when" grep -q 'Try again in 1 hour\.' "$tmp/b"
check "hourly: ... the form comes back filled in" grep -q 'value="Ann"' "$tmp/b"
check "hourly: ... no 4th game" test "$(games)" = 3
post_new "$(game_body '' '')" -H 'X-Forwarded-For: 10.20.30.40'
expect_code "hourly: an X-Forwarded-For changes nothing" 429
post_new "$(game_body '' '')" --interface 127.0.0.2
expect_code "hourly: another client address may" 200
check "hourly: 4 games now" test "$(games)" = 4
restart "$run" $((T0 + 3601)) --set games_per_hour=3 --set seat_mails_per_day=0
base=$url
post_new "$(game_body '' '')"
expect_code "hourly: an hour later, the first address again" 200

# ---- "your seat" emails per recipient per day -------------------------------
start daily seat_mails_per_day=2 games_per_hour=0
post_new "$(game_body ann@example.org bo@example.org)"
expect_code "daily: game 1 mails Ann" 200
post_new "$(game_body 'Ann%2Bgames@EXAMPLE.org' cy@example.org)"
expect_code "daily: game 2 mails Ann+games" 200
before_games=$(games) before_mail=$(queued)
post_new "$(game_body dee@example.org ann@example.org)"
expect_code "daily: game 3 would mail Ann a 3rd time" 429
check "daily: ... the page names the address and why" \
	grep -q 'ann@example.org has had 2 new-game emails today' "$tmp/b"
check "daily: ... and says when" grep -q 'Try again in' "$tmp/b"
check "daily: ... Retry-After set" test -n "$(retry_after)"
check "daily: ... no game made" test "$(games)" = "$before_games"
check "daily: ... no email queued, not even Dee's" test "$(queued)" = "$before_mail"
post_new "$(game_body dee@example.org eve@example.org)"
expect_code "daily: others still get theirs" 200
# Play again counts too: a finished game with Ann in it, imported by the
# administrator (not counted), then its "play again" from seat 2.
"$BUFFERTIME" admin --db "$db" import --email zed@example.org \
	--email ann@example.org --email yul@example.org \
	"$SRCDIR/tests/data/loss.rec" >"$tmp/import.out" 2>&1
over=$(sql "SELECT id FROM games WHERE status = 'lost'")
check "daily: a finished game with Ann imported" test -n "$over"
link=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$over" 2 \
	--key-file "$run/data/server.key" --base-url "$base" 2>/dev/null)
jar=$tmp/jar.daily
req "$jar" GET "$link"
expect_code "daily: Ann's seat link of the finished game" 303
page_url=${base}g/$over
req "$jar" GET "$page_url"
if form pick '' '/again$'; then
	before_games=$(games) before_mail=$(queued)
	req "$jar" POST "$form_url" "$form_body"
	expect_code "daily: play again would mail Ann a 3rd time" 429
	check "daily: ... the page says why and when" \
		grep -q 'ann@example.org has had 2 new-game emails today.*Try again in' "$tmp/b"
	check "daily: ... Retry-After set" test -n "$(retry_after)"
	check "daily: ... no new game, no email" \
		test "$(games) $(queued)" = "$before_games $before_mail"
else
	not_ok "daily: no play-again form on the finished game's table"
fi
restart "$run" $((T0 + 86401)) --set seat_mails_per_day=2 --set games_per_hour=0
base=$url
post_new "$(game_body dee@example.org ann@example.org)"
expect_code "daily: a day later, Ann again" 200

# ---- one address in one seat ------------------------------------------------
post_new "$(game_body fay@example.org 'FAY%2Bx@example.org')"
expect_code "one seat each: one address twice" 400
check "one seat each: ... says so" grep -q 'same email address' "$tmp/b"

# ---- every web path counts, and a game has a person in it ------------------
# press_again GAME SEAT JAR: SEAT's link of the finished GAME, then its
# "play again" form sent; 1 (nothing sent) if the table has no such form.
press_again() {
	local link
	link=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$1" "$2" \
		--key-file "$run/data/server.key" --base-url "$base" 2>/dev/null)
	req "$3" GET "$link"
	req "$3" GET "${base}g/$1"
	form pick '' '/again$' || return 1
	req "$3" POST "$form_url" "$form_body"
}

start again games_per_hour=1 seat_mails_per_day=0
post_new "$(game_body '' '')"
expect_code "again: the form's game, the one of the hour" 200
# a finished game imported by the administrator (not counted)
"$BUFFERTIME" admin --db "$db" import "$SRCDIR/tests/data/loss.rec" \
	>"$tmp/import.out" 2>&1
over=$(sql "SELECT id FROM games WHERE status = 'lost'")
check "again: a finished game imported" test -n "$over"
before_games=$(games)
if press_again "$over" 2 "$tmp/jar.again"; then
	expect_code "again: play again, a 2nd game in the hour" 429
	check "again: ... the page says why" \
		grep -q 'Your address has made 1 game in the last hour' "$tmp/b"
	check "again: ... and when" grep -q 'Try again in 1 hour\.' "$tmp/b"
	check "again: ... Retry-After set" test -n "$(retry_after)"
	check "again: ... no game made" test "$(games)" = "$before_games"
else
	not_ok "again: no play-again form on the finished game's table"
fi
post_new "bot1=1&bot2=1&first=1" --interface 127.0.0.3
expect_code "again: a game of bots only" 400
check "again: ... the page says a person must play" \
	grep -q 'at least one person' "$tmp/b"
check "again: ... no game made" test "$(games)" = "$before_games"
post_new "bot1=1&bot2=1&bot3=1&practice=1&first=2" --interface 127.0.0.3
expect_code "again: a practice table of bots only" 400
post_new "name1=Ann&bot2=1&first=1" --interface 127.0.0.3
expect_code "again: ... that address may still make a game with a person" 200
restart "$run" $((T0 + 3601)) --set games_per_hour=1 --set seat_mails_per_day=0
base=$url
if press_again "$over" 2 "$tmp/jar.again"; then
	expect_code "again: an hour later, play again makes the game" 303
	check "again: ... one more game" test "$(games)" = $((before_games + 2))
else
	not_ok "again: no play-again form an hour later"
fi

finish
