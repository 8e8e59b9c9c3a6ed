#!/usr/bin/env bash
# block.sh - the server-wide "never email me again" list, for real: nginx
# and buffertime.fcgi on loopback (scripts/web), driven with curl, the
# store looked at with sqlite3, the list kept with `buffertime admin`.
#
# A 3-seat game made with the home page's form (Ann as ann+bt@, Bob, Cyd,
# Cyd first): the link at the end of Ann's "your seat" email shows a page
# on GET and blocks nothing; a forged key, or Ann's key for another
# address, is a 403 on GET and POST; POST blocks ann@example.org (its
# key) and drops Ann's queued email; posting again is harmless.  Then a
# move that hands Ann the turn queues nothing for her, one that hands it
# to Bob queues his; Bob's table says Ann has no email (no nudge); Ann's
# settings say her address asked for none and offer no choice.
# `admin mail blocked` lists the key, `unblock` takes it off (and mail to
# Ann is queued again), `block` blocks (how: admin) and drops what is
# queued; a malformed address is a usage error (exit 2).
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
web_test_start block nginx curl sqlite3
seed=11

# queued SEAT: emails of the game queued (not dropped) for SEAT.
queued() {
	sql "SELECT count(*) FROM outbox WHERE game = '$game' AND seat = $1 AND dropped IS NULL"
}

blocked() {
	sql "SELECT count(*) FROM blocked"
}

admin() {
	run admin --db "$db" "$@"
}


# ============================================================================
run_dir=$tmp/run
up "$run_dir"
base=$url
origin=$(origin_of "$base")
db=$run_dir/data/buffertime.db
declare -a jar links

create 3 Ann:ann%2Bbt@example.org Bob:bob@example.org Cyd:cyd@example.org || finish
for s in 1 2 3; do
	jar[$s]=$tmp/jar.$s
	req "${jar[$s]}" GET "${links[$s]}"
	expect_code "seat $s opens its link" 303
done
check "Ann's seat email is queued" [ "$(queued 1)" = 1 ]

# ---- the link of the email ---------------------------------------------------
body=$(sql "SELECT body FROM outbox WHERE game = '$game' AND seat = 1 AND kind = 'seat'")
link=$(printf '%s\n' "$body" | grep -A1 'Never email me from this server again:' | tail -n 1)
check "the email has the link, the address escaped" \
	grep -Eq "^${base}mail/block\\?a=ann%2Bbt@example\\.org&k=[A-Za-z0-9_-]{43}\$" <<<"$link"
key=${link##*&k=}

req "" GET "$link"
expect_code "GET the link" 200
check "GET shows the button" grep -q 'Stop all email from this server to ann+bt@example.org</button>' "$tmp/b"
check "GET blocks nothing" [ "$(blocked)" = 0 ]
valid "the block page"
req "" HEAD "$link"
check "HEAD blocks nothing" [ "$(blocked)" = 0 ]

# a forged key: one character changed
case ${key:0:1} in A) other=B ;; *) other=A ;; esac
forged="${base}mail/block?a=ann%2Bbt@example.org&k=$other${key:1}"
req "" GET "$forged"
expect_code "GET with a forged key" 403
req "" POST "$forged" ""
expect_code "POST with a forged key" 403
req "" POST "${base}mail/block?a=bob@example.org&k=$key" ""
expect_code "Ann's key for Bob's address" 403
req "" POST "${base}mail/block?a=ann%2Bbt@example.org" ""
expect_code "no key" 403
check "no block from a bad key" [ "$(blocked)" = 0 ]

req "" POST "$link" ""
expect_code "POST the link" 200
check "POST says it is done" grep -q 'This server sends no more email to' "$tmp/b"
check "POST says how to undo" grep -q 'ask its' "$tmp/b"
valid "the blocked page"
check "the key is blocked, by link" \
	[ "$(sql "SELECT address || ' ' || how FROM blocked")" = "ann@example.org link" ]
check "Ann's queued email is dropped" [ "$(queued 1)" = 0 ]
check "Bob's is not" [ "$(queued 2)" = 1 ]
req "" POST "$link" ""
expect_code "POST again" 200
check "blocked once" [ "$(blocked)" = 1 ]
req "" GET "$link"
check "GET after: already" grep -q 'sends no email to this address already' "$tmp/b"
check "GET after: no button" [ -z "$(grep '<button' "$tmp/b")" ]

# ---- moves ------------------------------------------------------------------------
check "Cyd moves first" [ "$(turn_seat)" = 3 ]
check "Cyd moves" step
check "Ann's turn" [ "$(turn_seat)" = 1 ]
check "nothing queued for Ann" [ "$(queued 1)" = 0 ]
page 2
check "Bob's table: Ann has no email" grep -q 'Ann has no email address in this game' "$tmp/b"
check "Bob's table: no nudge for Ann" [ -z "$(grep '/nudge"' "$tmp/b")" ]
page 1 /settings
expect_code "Ann's settings" 200
check "Ann's settings say she asked for none" grep -q 'asked for no email from this server' "$tmp/b"
check "Ann's settings offer no choice" [ -z "$(grep 'name="notify"' "$tmp/b")" ]
valid "a blocked seat's settings"
page 2 /settings
check "Bob's settings offer the choice" grep -q 'name="notify"' "$tmp/b"
bob=$(queued 2)
check "Ann moves" step
check "Bob's turn" [ "$(turn_seat)" = 2 ]
check "Bob's turn email is queued" [ "$(queued 2)" = $((bob + 1)) ]

# ---- the admin commands ---------------------------------------------------------
admin mail blocked
expect_rc "admin mail blocked" 0
check "blocked lists the key, how and when" \
	grep -Eq '^ann@example\.org +link +[0-9]{4}-[0-9]{2}-[0-9]{2}T' "$tmp/out"
admin mail block 'not an address'
expect_rc "block a malformed address" 2
expect_err "block a malformed address: says so" 'not an email address'
admin mail unblock cyd@example.org
expect_rc "unblock an address not blocked" 1
admin mail unblock ANN+other@Example.org
expect_rc "admin mail unblock" 0
check "unblocked" [ "$(blocked)" = 0 ]
check "Bob moves" step
check "Cyd moves again" step
check "Ann's turn again" [ "$(turn_seat)" = 1 ]
check "Ann's turn email is queued again" [ "$(queued 1)" = 1 ]
admin mail block Bob@Example.org
expect_rc "admin mail block" 0
check "Bob blocked by admin" \
	[ "$(sql "SELECT address || ' ' || how FROM blocked")" = "bob@example.org admin" ]
check "Bob's queued emails are dropped" [ "$(queued 2)" = 0 ]
admin mail blocked
check "blocked lists bob" grep -Eq '^bob@example\.org +admin ' "$tmp/out"

finish
