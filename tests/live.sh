#!/usr/bin/env bash
# live.sh - the table page's ETag, for real: nginx and buffertime.fcgi on
# loopback (scripts/web), curl with If-None-Match, the store changed
# through the pages (and with sqlite3 and `buffertime admin` where no
# page does it), the clock set with BUFFERTIME_NOW (a restart moves it).
#
# A 3-seat game, every seat with an email:
#   the table carries a strong quoted ETag with Cache-Control: private,
#     no-cache, and the script www/live.js (static, ?v=, data-tag = the
#     ETag; served as JavaScript; the CSP allows no inline script);
#   If-None-Match with it: 304, no body, the same ETag and Cache-Control;
#     HEAD too; W/ the tag, a list holding it, and * match; garbage, a
#     list of others, the tag unquoted, If-Modified-Since alone: the
#     whole page;
#   seats 1, 2, 3, the spectator and ?at=0 have tags of their own;
#   a new ETag (and the page) after: a move, a table talk message, a
#     settings change, a nudge, a Sensor Sweep's look, a stand-in's start
#     and end, a seat's ask for one, the clock passing
#     a word of the page ("less than a minute" to "2 days"); the same
#     tag while the words stay; a revoked seat gets 403, never 304.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR.
# Skips (77) without nginx, curl or sqlite3.  Prints one line per
# failure and last "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start live nginx curl sqlite3
seed=11

T0=1700000000
DAY=86400

# creq JAR METHOD URL [HEADER...]: a request with extra headers; as req.
creq() {
	local jar=$1 method=$2 u=$3 args=()
	shift 3
	[ -n "$jar" ] && args+=(-b "$jar")
	for h in "$@"; do args+=(-H "$h"); done
	rm -f "$tmp/b"
	if [ "$method" = HEAD ]; then args+=(-I); else args+=(-X "$method"); fi
	code=$(curl -s --max-time 15 -D "$tmp/h" -o "$tmp/b" -w '%{http_code}' \
		"${args[@]}" "$u" 2>/dev/null) || code=000
}

# tag SEAT [QUERY]: the ETag of the seat's table now (GET, 200).
tag() {
	creq "${jar[$1]}" GET "${base}g/$game${2-}"
	[ "$code" = 200 ] || echo "status-$code"
	header ETag
}

# fresh NAME SEAT TAG [QUERY]: a conditional GET with TAG is a 304.
fresh() {
	creq "${jar[$2]}" GET "${base}g/$game${4-}" "If-None-Match: $3"
	expect_code "$1: 304" 304
}

# moved NAME SEAT OLD: the seat's table with If-None-Match OLD is the
# whole page again, with a new ETag; sets $new.
moved() {
	creq "${jar[$2]}" GET "${base}g/$game" "If-None-Match: $3"
	expect_code "$1: the whole page" 200
	new=$(header ETag)
	check "$1: a new ETag ($new)" [ -n "$new" -a "$new" != "$3" ]
	check "$1: the page is there" grep -q 'class="panel status"' "$tmp/b"
}

# field NAME: the value of the first hidden field NAME of the page.
field() {
	grep -o "name=\"$1\" value=\"[^\"]*\"" "$tmp/b" | head -n 1 |
		sed 's/.*value="//; s/"$//'
}

# ============================================================================
run=$tmp/run
BUFFERTIME_NOW=$T0 up "$run"
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db
declare -a jar
create 1 'Ann:ann%40example.org' 'Bob:bob%40example.org' \
	'Cyd:cyd%40example.org' || finish
for s in 1 2 3; do
	jar[$s]=$tmp/jar.$s
	req "${jar[$s]}" GET "${links[$s]}"
	expect_code "seat $s opens its link" 303
done

# ---- the tag, and what comes with it -------------------------------------------
creq "${jar[2]}" GET "${base}g/$game"
expect_code "seat 2's table" 200
t2=$(header ETag)
check "a strong quoted ETag ($t2)" \
	grep -Eq '^"[0-9a-f]{16}-[0-9a-f]{16}"$' <<<"$t2"
check "Cache-Control: private, no-cache" \
	[ "$(header Cache-Control)" = "private, no-cache" ]
csp=$(header Content-Security-Policy)
port=${base%/}
port=${port##*:}
check "a CSP ($csp)" [ -n "$csp" ]
check "the CSP allows no inline script" [ -z "$(grep unsafe <<<"$csp")" ]
script=$(grep -o '<script src="[^"]*" data-tag="[^"]*" defer></script>' "$tmp/b")
shown=$(sed 's/.*data-tag="//; s/".*//; s/&quot;/"/g' <<<"$script")
check "the table links live.js ($script)" \
	grep -q '^<script src="/static/live.js?v=[^"]*" data-tag' <<<"$script"
check "live.js gets the tag ($shown)" [ "$shown" = "$t2" ]
check "no inline script: live.js and app.js" [ "$(grep -c '<script' "$tmp/b")" = 2 \
	-a "$(grep -c '<script src="/static/[a-z]*\.js?v=[^"]*"' "$tmp/b")" = 2 ]
manifest=$(grep -o '<link rel="manifest" href="[^"]*">' "$tmp/b" | sed 's/.*href="//; s/".*//')
check "the page names its manifest" grep -q '^/static/manifest.json?v=' <<<"$manifest"
page=$(cat "$tmp/b")
js=${script#*src=\"}
js=${js%%\"*}
creq "" GET "$origin$js"
expect_code "live.js is served" 200
check "live.js is JavaScript" grep -qi '^content-type: application/javascript' "$tmp/h"
check "live.js is the file" cmp -s "$tmp/b" "$SRCDIR/www/live.js"

# ---- the installable app: manifest, icons, service worker ----------------------
creq "" GET "$origin$manifest"
expect_code "the manifest is served" 200
check "the manifest is JSON with its icons" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["start_url"] == "../games" and m["scope"] == "../", m
assert {i["sizes"] for i in m["icons"]} >= {"192x192", "512x512"}, m
' "$tmp/b"
for f in icon-192.png icon-512.png app.js sw.js; do
	creq "" GET "${base}static/$f"
	expect_code "static/$f is served" 200
done
check "the service worker is JavaScript" grep -qi '^content-type: application/javascript' "$tmp/h"
check "it caches nothing (no fetch handler)" sh -c '! grep -q "\"fetch\"" "$1"' _ "$SRCDIR/www/sw.js"
check "app.js is linked deferred" grep -q '<script src="/static/app.js?v=[^"]*" defer></script>' <<<"$page"

# ---- If-None-Match ---------------------------------------------------------------
creq "${jar[2]}" GET "${base}g/$game" "If-None-Match: $t2"
expect_code "unchanged: 304" 304
check "the 304 has no body" [ ! -s "$tmp/b" ]
check "the 304 has the same ETag" [ "$(header ETag)" = "$t2" ]
check "the 304 has Cache-Control" [ "$(header Cache-Control)" = "private, no-cache" ]
check "the 304 has no Content-Type" [ -z "$(header Content-Type)" ]
creq "${jar[2]}" HEAD "${base}g/$game" "If-None-Match: $t2"
expect_code "HEAD, unchanged: 304" 304
creq "${jar[2]}" HEAD "${base}g/$game"
expect_code "HEAD: 200" 200
check "HEAD: the same ETag" [ "$(header ETag)" = "$t2" ]
check "HEAD: the length of the page it does not send" \
	[ "$(header Content-Length)" -gt 1000 ]
fresh "W/ the tag" 2 "W/$t2"
fresh "a list holding the tag" 2 "\"nope\", W/\"x-y\" ,$t2"
fresh "*" 2 '*'
for bad in 'garbage' '"nope"' "${t2//\"/}" "\"${t2//\"/}" '"a" garbage' \
	"garbage, $t2" '**' "$t2$t2"; do
	creq "${jar[2]}" GET "${base}g/$game" "If-None-Match: $bad"
	expect_code "If-None-Match: $bad: the whole page" 200
	check "If-None-Match: $bad: a body" grep -q 'class="panel status"' "$tmp/b"
done
creq "${jar[2]}" GET "${base}g/$game" "If-Modified-Since: Tue, 01 Jan 2999 00:00:00 GMT"
expect_code "If-Modified-Since is ignored" 200
creq "" GET "${base}g/$game" "If-None-Match: $t2"
expect_code "no cookie: 403, never 304" 403

# ---- whose table -----------------------------------------------------------------
t1=$(tag 1)
t3=$(tag 3)
check "seats 1, 2, 3: three tags ($t1 $t2 $t3)" \
	[ "$t1" != "$t2" -a "$t2" != "$t3" -a "$t1" != "$t3" ]
fresh "seat 1's own tag" 1 "$t1"
creq "${jar[1]}" GET "${base}g/$game" "If-None-Match: $t2"
expect_code "seat 1 with seat 2's tag: the whole page" 200
share=$(grep -o "${base}g/$game/watch?k=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
creq "" GET "$share"
expect_code "the spectator's table" 200
tw=$(header ETag)
check "the spectator's own tag ($tw)" \
	[ -n "$tw" -a "$tw" != "$t1" -a "$tw" != "$t2" ]
check "the spectator's page has live.js" grep -q 'live.js?v=' "$tmp/b"
creq "" GET "$share" "If-None-Match: $tw"
expect_code "spectator, unchanged: 304" 304
creq "" GET "${share}x" "If-None-Match: $tw"
expect_code "spectator, a wrong key: 403" 403
ta=$(tag 2 '?at=0')
check "?at=0 has its own tag ($ta)" [ -n "$ta" -a "$ta" != "$t2" ]
check "?at=0 has no live.js" [ -z "$(grep 'live.js' "$tmp/b")" ]
fresh "?at=0 unchanged" 2 "$ta" '?at=0'
tm=$(tag 2 '?m=stale')
check "?m=stale has its own tag" [ -n "$tm" -a "$tm" != "$t2" ]

# ---- every kind of change ----------------------------------------------------------
# a move: seat 1 (to move) logs or works
creq "${jar[1]}" GET "${base}g/$game"
page_url=${base}g/$game
form pick 'action=log' || form pick 'action=work' || form random '' ||
	not_ok "seat 1 has no move"
req "${jar[1]}" POST "$form_url" "$form_body"
expect_code "seat 1 moves" 303
moved "after a move, seat 2" 2 "$t2"
t2=$new
moved "after a move, the ?at=0 view (of N moves)" 2 "$ta"
fresh "after a move, seat 2 again" 2 "$t2"
creq "" GET "$share" "If-None-Match: $tw"
expect_code "after a move, the spectator: the whole page" 200
tw=$(header ETag)

# table talk: seat 3 says something; seat 2 sees it
creq "${jar[3]}" GET "${base}g/$game"
req "${jar[3]}" POST "${base}g/$game/say" "csrf=$(field csrf)&text=hello"
expect_code "seat 3 says hello" 303
moved "after table talk, seat 2" 2 "$t2"
t2=$new
creq "" GET "$share" "If-None-Match: $tw"
expect_code "the spectator sees no talk: still 304" 304

# settings: seat 2 turns its emails to every move
req "${jar[2]}" GET "${base}g/$game/settings"
page_url=${base}g/$game/settings
if form pick "notify=every" '/settings$'; then
	req "${jar[2]}" POST "$form_url" "$form_body"
	expect_code "seat 2 changes its settings" 303
else
	not_ok "no settings form"
fi
check "the setting is stored" [ "$(sql "SELECT notify FROM seats WHERE game = '$game' AND seat = 2")" = every ]
moved "after a settings change, seat 2" 2 "$t2"
t2=$new

# a nudge: seat 3 nudges the seat to move; seat 3's table says so
to=$(sql "SELECT turn_seat FROM games WHERE id = '$game'")
n=$((to % 3 + 1))
tn=$(tag "$n")
creq "${jar[$n]}" GET "${base}g/$game"
page_url=${base}g/$game
if form pick '' '/nudge$'; then
	req "${jar[$n]}" POST "$form_url" "$form_body"
	expect_code "seat $n nudges seat $to" 303
else
	not_ok "seat $n has no nudge form"
fi
moved "after a nudge, seat $n" "$n" "$tn"
tn=$new

# a Sensor Sweep's look (the first of its two steps), as the store keeps it
t2=$(tag 2)
sql "UPDATE games SET sweep_seq = seq, sweep_seat = $to, sweep_card = 'A9' WHERE id = '$game'"
moved "after a Sensor Sweep's look, seat 2" 2 "$t2"
t2=$new
sql "UPDATE games SET sweep_seq = -1, sweep_seat = 0, sweep_card = '' WHERE id = '$game'"
moved "after the look is over, seat 2" 2 "$t2"
t2=$new

# a bot standing in for the seat to move, and its player back (the
# store's columns, as the worker and the seat's link set them)
sql "UPDATE seats SET standin_since = $T0 WHERE game = '$game' AND seat = $to"
moved "after a stand-in starts, seat 2" 2 "$t2"
check "... the page says so" grep -q 'A bot stands in for' "$tmp/b"
t2=$new
sql "UPDATE seats SET standin_since = 0 WHERE game = '$game' AND seat = $to"
moved "after its player is back, seat 2" 2 "$t2"
t2=$new
sql "UPDATE seats SET standin_ask = $T0 WHERE game = '$game' AND seat = 2"
moved "after seat 2 asks for a stand-in" 2 "$t2"
t2=$new

# ---- the clock ----------------------------------------------------------------------
# seat $n waits on seat $to: "Waiting on ... for less than a minute"
tn=$(tag "$n")
restart "$run" $((T0 + 20)) --port "$port"   # the same port: the links, and so the tags, stay
fresh "20 seconds on, the same words" 2 "$t2"
moved "20 seconds on, the nudging seat (the next nudge in 23 hours)" "$n" "$tn"
check "the nudging seat's page says 23 hours" grep -q 'can go in 23 hours' "$tmp/b"
tn=$new
restart "$run" $((T0 + 2 * DAY)) --port "$port"
moved "two days on, seat $n (waiting for 2 days)" "$n" "$tn"
check "the page says 2 days" grep -q 'for 2 days' "$tmp/b"
check "the clock moved only the second half ($tn $new)" \
	[ "${tn%%-*}" = "${new%%-*}" ]
tn=$new
fresh "two days on, unchanged" "$n" "$tn"

# ---- a revoked seat ------------------------------------------------------------------
run_env_db() { timeout 30 "$BUFFERTIME" admin --db "$db" "$@" >"$tmp/out" 2>&1; }
run_env_db revoke "$game" "$n" || not_ok "admin revoke: $(cat "$tmp/out")"
creq "${jar[$n]}" GET "${base}g/$game" "If-None-Match: $tn"
expect_code "a revoked seat with its old tag: 403" 403

finish
