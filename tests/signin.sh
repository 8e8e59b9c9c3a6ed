#!/usr/bin/env bash
# signin.sh - "Email me my games", for real: nginx and buffertime.fcgi on
# loopback (scripts/web), driven with curl as browsers (one cookie jar
# each), the outbox and the sign-ins looked at in the store.
#
# Two games: Ann (ann+bt@) with Bob, and Cyd with Ann again (ANN@, the
# same key).  Asking for ann@ queues one email with the link; asking for
# an address that plays nowhere gives the same page (but for the address
# it repeats) and queues nothing; a malformed one is a 400.  The link's
# GET shows a button and signs nobody in; its POST signs the browser in
# (an HttpOnly bt_signin cookie) and My games then lists both games; the
# browser opens Ann's seat at each table (no seat cookie), with an ETag
# and a 304, and its settings form works.  The link again in the same
# browser signs in nothing more; in another browser it does.  Three
# emails an hour to one address at most, ten asks an hour from one
# client (then 429).  Ann's settings list both browsers, "this browser"
# marked; signing out one locks it out of the table and My games; Bob's
# settings cannot sign out Ann's; "every browser" signs out the rest and
# deletes this browser's cookie.  A forged or cut key is a 403.
#
# BT_TEST_ENGINE=postgres: on a PostgreSQL server (testlib.sh).
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR.
# Skips (77) without nginx or curl.  Prints one line per failure and last
# "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
engine_init
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start signin nginx curl
seed=5


# mails: sign-in emails queued to Ann's key.
mails() {
	sql "SELECT count(*) FROM outbox WHERE kind = 'signin' AND address = 'ann@example.org'"
}

signins() {
	sql "SELECT count(*) FROM signins"
}

# ask JAR ADDRESS: POST the form (from its own client: curl's loopback).
ask() {
	req "$1" POST "${base}signin" "address=$2"
}

# main_of: the page's <main>, with the address it repeats taken out.
main_of() {
	sed -n '/<main>/,/<\/main>/p' "$tmp/b" | sed "s/$1/ADDRESS/g"
}

# ============================================================================
run_dir=$tmp/run
up "$run_dir"
base=$url
db=$(db_of "$run_dir")
declare -a jar links

create 1 Ann:ann%2Bbt@example.org Bob:bob@example.org || finish
game1=$game
bob_link=${links[2]}
create 1 Cyd:cyd@example.org Ann:ANN@example.org || finish
game2=$game

# ---- asking -------------------------------------------------------------------
req "" GET "${base}signin"
expect_code "the form" 200
check "the form asks for an address" grep -q 'name="address"' "$tmp/b"
valid "the form"
ask "" 'ann%40example.org'
expect_code "ask for ann@" 200
known=$(main_of 'ann@example.org')
check "one email queued to Ann" [ "$(mails)" = 1 ]
valid "the answer"
ask "" 'nobody%40example.org'
expect_code "ask for an address that plays nowhere" 200
check "the same page either way" [ "$(main_of 'nobody@example.org')" = "$known" ]
check "nothing queued to nobody@" \
	[ "$(sql "SELECT count(*) FROM outbox WHERE recipient = 'nobody@example.org'")" = 0 ]
ask "" 'not+an+address'
expect_code "a malformed address" 400
check "it says what an address looks like" grep -q 'name@example.org' "$tmp/b"

body=$(sql "SELECT body FROM outbox WHERE kind = 'signin' AND address = 'ann@example.org'")
link=$(printf '%s\n' "$body" | grep -o "${base}signin?k=[A-Za-z0-9_-]*" | head -n 1)
check "the email has the link" grep -Eq "k=[A-Za-z0-9_-]{43}\$" <<<"$link"
check "the email names no seat link" sh -c '! printf "%s" "$1" | grep -q "?t="' _ "$body"
key=${link##*k=}

# ---- the link ---------------------------------------------------------------
jar[1]=$tmp/jar.phone
jar[2]=$tmp/jar.laptop
req "${jar[1]}" GET "$link"
expect_code "GET the link" 200
check "GET shows the button" grep -q 'Sign in this browser</button>' "$tmp/b"
check "GET signs nobody in" [ "$(signins)" = 0 ]
valid "the link's page"
req "${jar[1]}" POST "${base}signin" "k=$key"
expect_code "POST the link" 303
check "to My games" grep -q "games?m=signed_in" <<<"$loc"
cookie=$(header Set-Cookie)
check "an HttpOnly, SameSite cookie" grep -Eq '^bt_signin=[A-Za-z0-9_-]{43}; Path=/;.*HttpOnly; SameSite=Lax' <<<"$cookie"
check "one sign-in" [ "$(signins)" = 1 ]
check "the store keeps no secret" \
	[ "$(sql "SELECT count(*) FROM signins WHERE hash = '${cookie:10:43}'")" = 0 ]

req "${jar[1]}" GET "${base}games?m=signed_in"
expect_code "My games" 200
check "it says whose games" grep -q 'every game of ann@example.org' "$tmp/b"
check "it lists the first game" grep -q "href=\"/g/$game1\"" "$tmp/b"
check "it lists the second" grep -q "href=\"/g/$game2\"" "$tmp/b"
valid "My games, signed in"

game=$game2
page 1
expect_code "the table of the second game, by the sign-in" 200
check "as Ann, with her hand" grep -q 'Your hand' "$tmp/b"
etag=$(header ETag)
check "with an ETag" [ -n "$etag" ]
code=$(curl -s -o /dev/null -w '%{http_code}' -b "${jar[1]}" -H "If-None-Match: $etag" "${base}g/$game2")
check "a 304 for the same" [ "$code" = 304 ]
req "" GET "${base}g/$game2"
expect_code "no cookie: no seat" 403

# the link again: in this browser nothing more, in another one more
req "${jar[1]}" POST "${base}signin" "k=$key"
expect_code "the link again in the same browser" 303
check "no second sign-in" [ "$(signins)" = 1 ]
req "${jar[2]}" POST "${base}signin" "k=$key"
expect_code "the link in another browser" 303
check "a second sign-in" [ "$(signins)" = 2 ]

# forged and cut keys
case ${key:0:1} in A) other=B ;; *) other=A ;; esac
req "" POST "${base}signin" "k=$other${key:1}"
expect_code "a forged key" 403
req "" POST "${base}signin" "k=${key:0:20}"
expect_code "a cut key" 403
req "" GET "${base}signin?k=${key:0:20}"
expect_code "a cut key's page" 403

# ---- limits -----------------------------------------------------------------
ask "" 'Ann%2Bagain%40Example.org'
ask "" 'ann%40example.org'
check "three emails an hour to one address" [ "$(mails)" = 3 ]
ask "" 'ann%40example.org'
expect_code "a fourth ask" 200
check "no fourth email" [ "$(mails)" = 3 ]
for _ in 1 2 3 4 5; do ask "" 'zed%40example.org'; done
check "the tenth ask is answered" [ "$code" = 200 ]
ask "" 'zed%40example.org'
expect_code "an eleventh ask from one client" 429
check "it says when to try again" [ -n "$(header Retry-After)" ]

# ---- signing out ------------------------------------------------------------
req "${jar[1]}" GET "${base}g/$game1/settings"
expect_code "Ann's settings, by the sign-in" 200
check "two browsers listed" [ "$(grep -c 'name="signout" value="[A-Za-z0-9_-]\{22\}"' "$tmp/b")" = 2 ]
check "this browser marked" grep -q '(this browser)' "$tmp/b"
valid "the settings with browsers"
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
# the browsers' sign-out ids as listed: this browser's is the one after
# "(this browser)", the laptop's the other
ids=$(awk '/\(this browser\)/ { this = 1 }
	/name="signout" value="/ && !/value="all"/ {
		match($0, /value="[^"]*"/)
		print (this ? "mine " : "other ") substr($0, RSTART + 7, RLENGTH - 8)
		this = 0 }' "$tmp/b")
mine=$(awk '$1 == "mine" { print $2 }' <<<"$ids")
laptop=$(awk '$1 == "other" { print $2 }' <<<"$ids")
check "the list tells this browser from the other" test -n "$mine" -a -n "$laptop" -a "$mine" != "$laptop"

# Bob's seat cannot sign out Ann's browsers
jar[3]=$tmp/jar.bob
req "${jar[3]}" GET "$bob_link"
req "${jar[3]}" GET "${base}g/$game1/settings"
bob_csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
check "Bob's settings list none of Ann's" sh -c '! grep -q "(this browser)\|$1" "$2"' _ "$laptop" "$tmp/b"
req "${jar[3]}" POST "${base}g/$game1/settings" "csrf=$bob_csrf&signout=$laptop"
check "Bob signs out nothing" [ "$(signins)" = 2 ]

req "${jar[1]}" POST "${base}g/$game1/settings" "csrf=$csrf&signout=$laptop"
expect_code "sign out the laptop" 303
check "back to the settings, saying so" grep -q 'settings?m=signed_out' <<<"$loc"
check "one sign-in left" [ "$(signins)" = 1 ]
req "${jar[2]}" GET "${base}g/$game2"
expect_code "the laptop's table" 403
req "${jar[2]}" GET "${base}games"
check "the laptop's My games lists none" sh -c '! grep -q "href=\"/g/" "$1"' _ "$tmp/b"
req "${jar[1]}" POST "${base}g/$game1/settings" "csrf=$csrf&signout=nonsense"
expect_code "a malformed sign-out" 400

req "${jar[1]}" POST "${base}g/$game1/settings" "csrf=$csrf&signout=all"
expect_code "sign out every browser" 303
check "to My games" grep -q '/games$' <<<"$loc"
check "the cookie deleted" grep -Eq '^bt_signin=; Path=/; Max-Age=0' <<<"$(header Set-Cookie)"
check "no sign-in left" [ "$(signins)" = 0 ]
req "${jar[1]}" GET "${base}g/$game2"
expect_code "the phone's table" 403

finish
