#!/usr/bin/env bash
# pages.sh - the pages beside the table, for real: nginx and
# buffertime.fcgi on loopback (scripts/web), driven with curl.
#
#   settings      g/ID/settings: shows the seat's own address only and its
#                 feed; a change with the form's CSRF token is stored (read
#                 back with sqlite3); no token, another seat's token, a bad
#                 value or no cookie change nothing.
#   unsubscribe   the List-Unsubscribe URL of a delivered email (buffertime
#                 mailer --once into a folder): GET shows one button and
#                 changes nothing; a one-click POST with no cookie sets
#                 notify none; a bad, another seat's, another kind's or a
#                 revoked seat's key is a 403.
#   my games      one browser (a curl cookie jar) with seats in four games:
#                 those waiting on it first, the finished one last; another
#                 browser sees none; forged and revoked cookies are skipped;
#                 a cookie of the old Path (g/ID) still opens its table, and
#                 a fresh link replaces it.  A rematch and a practice table
#                 are named in their rows; a crew's line is no list item
#                 and counts the list of its games that follows it.
#   feed          g/ID/feed: valid Atom (tests/atomcheck.py, which must
#                 also refuse broken copies), stable ids, newest first, at
#                 most 50 entries, each seat's hidden information hidden
#                 from the others (the rigged game's Sensor Sweep and Hand
#                 Off), a name <b>&" and table talk escaped, bad keys 403.
#   new game      the home page's form, as served: every field labelled,
#                 no player count to mismatch, the 5th and 6th rows behind
#                 "More players"; four names make four seats, rows left
#                 empty are skipped and "first" names a row; a count that
#                 disagrees with the names, a row with an email but no
#                 name, one name only or a first player with no name are
#                 refused, no game made, with everything typed shown again.
#                 Once per form: the form carries a one-use key (no-store,
#                 a new one each time, kept by a refused form); its POST
#                 is a 303 to PREFIX g/ID/made, whose links page the browser
#                 that made the game may reload; the same form sent again,
#                 from that browser or another, makes no game and sends
#                 no email, and counts once against the hourly limit; a
#                 stranger, or a forged cookie, sees no link, name or
#                 address there; a bot's seat has no link; two hours on
#                 the page says the game was made and shows no link.
#   the table     what happened first: a seat's table has, before its
#                 forms, hand and cards, "Since you last looked" with the
#                 last move's words, "and N more" linking to the history,
#                 and the newest table talk line; a rematch and a practice
#                 table say which game they are in their title and
#                 heading.  While a game is in play, another seat's hand,
#                 a card handed off and a Sensor Sweep's cards are on no
#                 page of a seat that did not see them (table, history,
#                 ?at=N); once it is over, every page shows every hand and
#                 what every Sensor Sweep saw.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR,
# TESTDATA.  Skips (77) without nginx, curl, python3 or sqlite3.  Prints
# one line per failure and last "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
: "${TESTDATA:?set TESTDATA to the tests/data folder}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start pages nginx curl python3 sqlite3
seed=1
atomcheck=$SRCDIR/tests/atomcheck.py

# ---- helpers ------------------------------------------------------------------

# open_link JAR LINK: a browser opens a seat link: 303 to its table.
open_link() {
	req "$1" GET "$2"
	expect_code "open ${2%%\?*}" 303
}

# admin_link GAME SEAT: the seat's current link, from the admin tool.
admin_link() {
	timeout 30 "$BUFFERTIME" admin --db "$db" link "$1" "$2" \
		--key-file "$run/data/server.key" --base-url "$base" 2>/dev/null
}

# notify GAME SEAT: the seat's email setting, from the database itself.
notify() {
	sqlite3 "file:$db?mode=ro" \
		"SELECT notify FROM seats WHERE game = '$1' AND seat = $2" 2>/dev/null
}

# field NAME: the value of the first input NAME of the page in $tmp/b.
field() {
	grep -o "name=\"$1\" value=\"[^\"]*\"" "$tmp/b" | head -n 1 |
		sed 's/.*value="//; s/"$//'
}

# feed_url JAR GAME: the seat's feed address, as its settings page shows.
feed_url() {
	req "$1" GET "${base}g/$2/settings"
	grep -o "${base}g/$2/feed?s=[0-9]&amp;k=[A-Za-z0-9_-]*" "$tmp/b" |
		head -n 1 | sed 's/&amp;/\&/'
}

# atom NAME: the page in $tmp/b is a valid Atom feed.
atom() {
	if python3 "$atomcheck" "$tmp/b" >"$tmp/atom.out" 2>&1; then
		ok
	else
		not_ok "$1: atomcheck: $(head -c 600 "$tmp/atom.out")"
	fi
}

# act JAR GAME WANT: posts the move form of WANT from the table page.
act() {
	page_url=${base}g/$2
	req "$1" GET "$page_url"
	if ! form pick "$3"; then
		not_ok "no form '$3' on the table of $2"
		return 1
	fi
	req "$1" POST "$form_url" "$form_body"
	expect_code "move '$3' in $2" 303
}

# say JAR GAME TEXT: table talk through the table's form (TEXT: no spaces).
say() {
	page_url=${base}g/$2
	req "$1" GET "$page_url"
	if ! form pick "text=$3" '/say$'; then
		not_ok "no talk form on the table of $2"
		return 1
	fi
	req "$1" POST "$form_url" "$form_body"
	expect_code "say '$3' in $2" 303
	case $loc in *m=slow*) not_ok "say '$3' in $2: too fast for the store" ;; esac
}

# entries: how many entries the feed in $tmp/b has.
entries() {
	grep -c '<entry>' "$tmp/b"
}

run=$tmp/run
# more than the default 10 games an hour: this one address makes 11 (a
# "play again" counts as the form's games do); the limit stays on
up "$run" --set games_per_hour=20
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db
maildir=$tmp/mail
mkdir -p "$maildir"

# ============================================================================
# settings
# ============================================================================
create 1 'Ann:ann%40example.org' '%3Cb%3E%26%22:bea%40example.org' \
	'Cyd:cyd%40example.org' || finish
ga=$game
ga_links=("${links[@]}")
for s in 1 2 3; do
	: >"$tmp/a$s"
	open_link "$tmp/a$s" "${links[$s]}"
done

req "$tmp/a1" GET "${base}g/$ga/settings"
expect_code "settings page" 200
check "settings: the seat's own address" grep -q 'ann@example.org' "$tmp/b"
check "settings: no other seat's address" \
	[ -z "$(grep -e 'bea@example.org' -e 'cyd@example.org' "$tmp/b")" ]
check "settings: 'only my turn' is the default" \
	grep -Eq 'value="turn" checked' "$tmp/b"
check "settings: the feed address" \
	grep -q "${base}g/$ga/feed?s=1&amp;k=" "$tmp/b"
check "settings: the name is escaped" [ -z "$(grep '<b>' "$tmp/b")" ]
csrf1=$(field csrf)
check "settings: a CSRF token" [ -n "$csrf1" ]
req "$tmp/a2" GET "${base}g/$ga/settings"
csrf2=$(field csrf)
check "settings of seat 2: its own address" grep -q 'bea@example.org' "$tmp/b"
check "settings of seat 2: its name escaped" grep -q '&lt;b&gt;&amp;&quot;' "$tmp/b"

req "" GET "${base}g/$ga/settings"
expect_code "settings without a cookie" 403
req "" POST "${base}g/$ga/settings" "csrf=$csrf1&notify=none"
expect_code "settings POST without a cookie" 403
req "$tmp/a1" POST "${base}g/$ga/settings" "notify=none"
expect_code "settings POST without a CSRF token" 403
req "$tmp/a1" POST "${base}g/$ga/settings" "csrf=$csrf2&notify=none"
expect_code "settings POST with another seat's CSRF token" 403
req "$tmp/a1" POST "${base}g/$ga/settings" "csrf=$csrf1&notify=loud"
expect_code "settings POST with a bad choice" 400
check "refused settings changed nothing" [ "$(notify "$ga" 1)" = turn ]

# through the page's own form: every choice, stored
page_url=${base}g/$ga/settings
for choice in digest every none turn; do
	req "$tmp/a1" GET "$page_url"
	if form pick "notify=$choice" '/settings$'; then
		req "$tmp/a1" POST "$form_url" "$form_body"
		expect_code "settings: choose $choice" 303
		case $loc in
		*"g/$ga/settings?m=saved") ok ;;
		*) not_ok "settings: after saving, Location '$loc'" ;;
		esac
		check "settings: $choice stored ($(notify "$ga" 1))" \
			[ "$(notify "$ga" 1)" = "$choice" ]
		req "$tmp/a1" GET "$origin$loc"
		check "settings: $choice shown as chosen" \
			grep -Eq "value=\"$choice\" checked" "$tmp/b"
	else
		not_ok "settings: no form to choose $choice"
	fi
done
check "seat 2's setting untouched" [ "$(notify "$ga" 2)" = turn ]
req "$tmp/a1" GET "${base}g/$ga/settings?m=saved"
check "settings: 'Saved' after a change" grep -q 'Saved' "$tmp/b"

# ============================================================================
# unsubscribe
# ============================================================================
if ! timeout 60 "$BUFFERTIME" worker --config "$run/buffertime.conf" \
	--mail-dir "$maildir" --once >"$tmp/mailer.out" 2>&1; then
	not_ok "mailer --once: $(head -c 500 "$tmp/mailer.out")"
fi
# unsub_of ADDRESS: the List-Unsubscribe URL of a message to ADDRESS.
unsub_of() {
	local f
	f=$(grep -l "^To:.*$1" "$maildir"/*.eml 2>/dev/null | head -n 1)
	[ -n "$f" ] || return 0
	sed -n '/^\r\{0,1\}$/q; s/^List-Unsubscribe: *<\([^>]*\)>.*/\1/Ip' "$f" |
		head -n 1
}
u3=$(unsub_of cyd@example.org)
u2=$(unsub_of bea@example.org)
case $u3 in
"${base}g/$ga/unsubscribe?s=3&k="?*) ok ;;
*) not_ok "no email to seat 3 with its List-Unsubscribe URL ('$u3')"; u3='' ;;
esac
m3=$(grep -l '^To:.*cyd@example.org' "$maildir"/*.eml 2>/dev/null | head -n 1)
check "List-Unsubscribe-Post: List-Unsubscribe=One-Click" \
	grep -qi '^List-Unsubscribe-Post: *List-Unsubscribe=One-Click' "${m3:-/dev/null}"

if [ -n "$u3" ]; then
	req "" GET "$u3"
	expect_code "unsubscribe page (GET, no cookie)" 200
	check "unsubscribe page: one button" \
		[ "$(grep -c '<button' "$tmp/b")" = 1 ]
	check "unsubscribe page: the button's words" \
		grep -qi 'stop all email for this game' "$tmp/b"
	action=$(printf '%s' "${u3#"$origin"}" | sed 's/&/\&amp;/g')
	check "unsubscribe page: a POST form to the same URL" \
		grep -qF "<form method=\"post\" action=\"$action\">" "$tmp/b"
	check "unsubscribe GET changed nothing" [ "$(notify "$ga" 3)" = turn ]
	curl -s -I --max-time 10 -o /dev/null "$u3"
	check "unsubscribe HEAD changed nothing" [ "$(notify "$ga" 3)" = turn ]

	k=${u3##*k=}
	last=${k: -1}
	[ "$last" = A ] && other=B || other=A
	req "" GET "${u3%?}$other"
	expect_code "unsubscribe with a forged key" 403
	req "" POST "${u3%?}$other" "List-Unsubscribe=One-Click"
	expect_code "one-click POST with a forged key" 403
	req "" GET "${u3/s=3/s=2}"
	expect_code "unsubscribe: seat 3's key for seat 2" 403
	req "" GET "${u3%%&k=*}"
	expect_code "unsubscribe without a key" 403
	check "refused unsubscribes changed nothing" [ "$(notify "$ga" 3)" = turn ]

	# RFC 8058: the mail program posts, with no cookie and no token, as
	# multipart/form-data (it SHOULD) or urlencoded (it MAY)
	code=$(curl -s --max-time 15 -o "$tmp/b" -w '%{http_code}' \
		-F 'List-Unsubscribe=One-Click' "$u3" 2>/dev/null) || code=000
	expect_code "one-click unsubscribe (multipart POST, no cookie)" 200
	check "one-click unsubscribe: notify none ($(notify "$ga" 3))" \
		[ "$(notify "$ga" 3)" = none ]
	check "one-click unsubscribe: says so" grep -qi 'no more email' "$tmp/b"
	req "" POST "$u3" "List-Unsubscribe=One-Click"
	expect_code "one-click unsubscribe again" 200

	# A feed key is no unsubscribe key.
	f3=$(feed_url "$tmp/a3" "$ga")
	req "" POST "${u3%%&k=*}&k=${f3##*k=}" "List-Unsubscribe=One-Click"
	expect_code "unsubscribe with seat 3's feed key" 403
fi
if [ -n "$u2" ]; then
	# The page's own button, as a person would press it.
	req "" GET "$u2"
	page_url=$u2
	if form pick "List-Unsubscribe=One-Click" 'unsubscribe'; then
		req "" POST "$form_url" "$form_body"
		expect_code "the unsubscribe button" 200
		check "the unsubscribe button: notify none" [ "$(notify "$ga" 2)" = none ]
	else
		not_ok "no form on the unsubscribe page"
	fi
	req "" GET "$u2"
	check "unsubscribe page of a seat with no email: says so" \
		grep -qi 'off already' "$tmp/b"
else
	not_ok "no email to seat 2 with a List-Unsubscribe URL"
fi
check "seat 1's setting untouched by unsubscribes" [ "$(notify "$ga" 1)" = turn ]

# ============================================================================
# the feed
# ============================================================================
f1=$(feed_url "$tmp/a1" "$ga")
check "the feed address of seat 1 ($f1)" [ -n "$f1" ]
# a move by each of the first two seats, and table talk with markup
# (work if the cards allow it, else log: the seed is random)
for j in "$tmp/a1" "$tmp/a2"; do
	page_url=${base}g/$ga
	req "$j" GET "$page_url"
	if form pick action=work; then act "$j" "$ga" action=work; else act "$j" "$ga" action=log; fi
done
say "$tmp/a3" "$ga" '<i>hi</i>&"q"'
req "" GET "$f1"
expect_code "feed of seat 1" 200
check "feed: Content-Type application/atom+xml" \
	grep -qi '^content-type: application/atom+xml' "$tmp/h"
atom "feed of a new game"
check "feed: 3 entries (two moves, one message), got $(entries)" [ "$(entries)" = 3 ]
check "feed: the name <b>&\" escaped" grep -q '&lt;b&gt;&amp;&quot;' "$tmp/b"
check "feed: no raw <b>" [ -z "$(grep -e '<b>' -e '<i>' "$tmp/b")" ]
check "feed: table talk escaped" grep -q '&lt;i&gt;hi&lt;/i&gt;&amp;&quot;q&quot;' "$tmp/b"
check "feed: no email address" [ -z "$(grep '@example.org' "$tmp/b")" ]
check "feed: the message is the newest entry" \
	[ "$(awk '/<entry>/{n++} n==1 && /<content/' "$tmp/b" | grep -c 'hi&lt;')" = 1 ]
self=$(printf '%s' "$f1" | sed 's/&/\&amp;/g')
check "feed: self link" \
	grep -qF "<link rel=\"self\" type=\"application/atom+xml\" href=\"$self\"/>" "$tmp/b"
check "feed: alternate link to the table" \
	grep -qF "<link rel=\"alternate\" type=\"text/html\" href=\"${base}g/$ga\"/>" "$tmp/b"
cp "$tmp/b" "$tmp/feed1.xml"
grep -o '<id>[^<]*</id>' "$tmp/b" >"$tmp/ids1"
req "" GET "$f1"
grep -o '<id>[^<]*</id>' "$tmp/b" >"$tmp/ids2"
check "feed: ids stable from one fetch to the next" cmp -s "$tmp/ids1" "$tmp/ids2"
check "feed: ids all different" \
	[ "$(sort -u "$tmp/ids1" | wc -l)" = "$(wc -l <"$tmp/ids1")" ]
f2=$(feed_url "$tmp/a2" "$ga")
req "" GET "$f2"
expect_code "feed of seat 2" 200
atom "feed of seat 2"
check "feed: another seat's feed has another id" \
	[ "$(grep -o '<id>[^<]*</id>' "$tmp/b" | head -n 1)" != "$(head -n 1 "$tmp/ids1")" ]

# atomcheck refuses broken feeds (so its "ok" means something)
broken() {
	sed "$2" "$tmp/feed1.xml" >"$tmp/broken.xml"
	if python3 "$atomcheck" "$tmp/broken.xml" >/dev/null 2>&1; then
		not_ok "atomcheck takes a feed $1"
	else
		ok
	fi
}
broken "without its id" '0,/<id>[^<]*<\/id>/s///'
broken "with a bad date" '0,/<updated>[^<]*</s//<updated>2024-13-01T00:00:00Z</'
broken "with a lower-case t in a date" '0,/<updated>\([0-9-]*\)T/s//<updated>\1t/'
broken "with a relative id" '0,/<id>urn:[^<]*</s//<id>g\/x</'
broken "in another namespace" 's|http://www.w3.org/2005/Atom|http://purl.org/atom/ns#|'
broken "with two titles" '0,/<title/s//<title>x<\/title><title/'
broken "with a link without href" '0,/ href="[^"]*"/s///'
broken "not well-formed" 's/&amp;/\&/'
broken "without any author" '/<author>/d'

# bad keys
k=${f1##*k=}
last=${k: -1}
[ "$last" = A ] && other=B || other=A
req "" GET "${f1%?}$other"
expect_code "feed with a forged key" 403
req "" GET "${f1/s=1/s=2}"
expect_code "feed: seat 1's key for seat 2" 403
req "" GET "${f1%%&k=*}"
expect_code "feed without a key" 403
req "" GET "${f1/s=1/s=9}"
expect_code "feed of seat 9" 403
[ -n "$u3" ] && {
	req "" GET "${f1%%\?*}?s=3&k=${u3##*k=}"
	expect_code "feed with seat 3's unsubscribe key" 403
}

# ---- the rigged game: what each seat may know ----------------------------------
rig=$TESTDATA/web-rigged.rec
gr=$(timeout 30 "$BUFFERTIME" admin --db "$db" import "$rig" 2>"$tmp/err")
check "import the rigged game: $(head -c 200 "$tmp/err")" [ -n "$gr" ]
for s in 1 2 3; do
	: >"$tmp/r$s"
	open_link "$tmp/r$s" "$(admin_link "$gr" "$s")"
	fr[s]=$(feed_url "$tmp/r$s" "$gr")
	req "" GET "${fr[s]}"
	expect_code "rigged game: feed of seat $s" 200
	atom "rigged game: feed of seat $s"
	cp "$tmp/b" "$tmp/rig$s.xml"
done
nact=$(grep -c '^[1-6] ' "$rig")
check "rigged game: one entry per action ($nact), got $(grep -c '<entry>' "$tmp/rig1.xml")" \
	[ "$(grep -c '<entry>' "$tmp/rig1.xml")" = "$nact" ]
# The game is over: nothing of it is secret, in the feeds too (while it
# is in play they hide the sweep order and the card handed off: the
# checks of Bob's feed further down).
p01='Nap in a Jefferies Tube'
for s in 1 2 3; do
	check "rigged game, over: seat $s sees Ann's sweep order" \
		grep -q 'Ann played Sensor Sweep.*top first' "$tmp/rig$s.xml"
	check "rigged game, over: seat $s sees the card handed off" \
		grep -q "Ann played Hand Off: gave $p01 to Cyd" "$tmp/rig$s.xml"
done
check "rigged game: the game's end in a title" \
	grep -q '<title type="text">[^<]*the game is lost' "$tmp/rig1.xml"
# newest first: the first entry links to the latest state (?at=N)
grep -o 'at=[0-9]*' "$tmp/rig1.xml" | tr -d 'at=' >"$tmp/ats"
check "rigged game: newest first" \
	[ "$(head -n 1 "$tmp/ats")" = "$(sort -n "$tmp/ats" | tail -n 1)" ]
check "rigged game: oldest last" \
	[ "$(tail -n 1 "$tmp/ats")" = "$(sort -n "$tmp/ats" | head -n 1)" ]

# at most 50 entries, newest first: talk from all three seats (the store
# lets each say 5 in a minute) takes the rigged game past 50 events.
for s in 1 2 3; do
	for i in 1 2 3 4 5; do
		say "$tmp/r$s" "$gr" "seat${s}-message${i}"
	done
done
req "" GET "${fr[1]}"
atom "rigged game with talk: feed"
total=$((nact + 15))
want=$((total < 50 ? total : 50))
check "feed bounded: $want entries of $total events, got $(entries)" [ "$(entries)" = "$want" ]
check "feed: the newest message first" \
	[ "$(awk '/<entry>/{n++} n==1 && /<content/' "$tmp/b" | grep -c 'seat3-message5')" = 1 ]

# A revoked seat's feed and unsubscribe links die with its seat link.
timeout 30 "$BUFFERTIME" admin --db "$db" revoke "$gr" 2 >/dev/null 2>&1
req "" GET "${fr[2]}"
expect_code "feed of a revoked seat" 403
if [ -n "$u3" ]; then
	timeout 30 "$BUFFERTIME" admin --db "$db" revoke "$ga" 3 >/dev/null 2>&1
	req "" POST "$u3" "List-Unsubscribe=One-Click"
	expect_code "unsubscribe link of a revoked seat" 403
fi

# ============================================================================
# my games
# ============================================================================
me=$tmp/me
: >"$me"
# game A: seat 1 (Ann); seats 1 and 2 have moved, so Cyd is to move.
open_link "$me" "${ga_links[1]}"
# game B: seat 2 of a game seat 1 starts: waiting on others.
create 1 Dee:  Eve:  Fay: || finish
gb=$game
open_link "$me" "${links[2]}"
# game C: seat 3, and seat 3 goes first: waiting on us.
create 3 Gil:  Hal:  '%3Cb%3E%26%22:' || finish
gc=$game
open_link "$me" "${links[3]}"
# game D: seat 1 of the rigged game, over (its seat 1 link is current).
open_link "$me" "$(admin_link "$gr" 1)"
check "the cookie's Path is the prefix" \
	[ "$(awk -v g="bt_$gc" '$6 == g { print $3 }' "$me")" = / ]

req "$me" GET "${base}games"
expect_code "my games" 200
cp "$tmp/b" "$tmp/games.html"
# order: the rows' links, in page order
mapfile -t order < <(grep -o "href=\"/g/[A-Za-z0-9_-]\\{22\\}\"" "$tmp/games.html" |
	sed 's|.*/g/||; s|"||')
check "my games: four games (${#order[@]})" [ "${#order[@]}" = 4 ]
pos() {
	local i
	for i in "${!order[@]}"; do
		[ "${order[$i]}" = "$1" ] && { echo "$i"; return; }
	done
	echo 99
}
check "my games: game C (waiting on you) first" [ "$(pos "$gc")" = 0 ]
middle() {
	local a b
	a=$(pos "$ga") b=$(pos "$gb")
	[ "$a" -ge 1 ] && [ "$a" -le 2 ] && [ "$b" -ge 1 ] && [ "$b" -le 2 ]
}
check "my games: games waiting on others next" middle
check "my games: the finished game last" [ "$(pos "$gr")" = 3 ]
check "my games: 'Your turn, for'" grep -q 'Your turn, for ' "$tmp/games.html"
check "my games: 'Waiting for Cyd for'" grep -q 'Waiting for Cyd for ' "$tmp/games.html"
check "my games: 'Waiting for Dee for'" grep -q 'Waiting for Dee for ' "$tmp/games.html"
check "my games: the players' names" grep -q 'Dee, Eve and Fay' "$tmp/games.html"
check "my games: a name escaped" grep -q 'Gil, Hal and &lt;b&gt;&amp;&quot;' "$tmp/games.html"
check "my games: no raw markup from names" [ -z "$(grep '<b>' "$tmp/games.html")" ]
check "my games: 1 waits on you" grep -q '1 game waits on you' "$tmp/games.html"
check "my games: the lost game" grep -q 'The crew lost' "$tmp/games.html"
check "my games: round shown" grep -q 'Round 1' "$tmp/games.html"
check "my games: no email address" [ -z "$(grep '@example.org' "$tmp/games.html")" ]

# the home page links to it
req "" GET "$base"
check "the home page links to my games" grep -q 'href="/games"' "$tmp/b"

# another browser sees none
req "" GET "${base}games"
expect_code "my games, another browser" 200
check "my games, another browser: no game" \
	[ -z "$(grep -o 'href="/g/' "$tmp/b")" ]
check "my games, another browser: says so" grep -qi 'no seat' "$tmp/b"

# another game's token under game B's name, and garbage, are skipped
awk -v b="bt_$gb" -v c="bt_$gc" 'BEGIN { FS = OFS = "\t" }
	{ line[NR] = $0; if ($6 == c) tok = $7 }
	END { for (i = 1; i <= NR; i++) { $0 = line[i]; if ($6 == b) $7 = tok; print } }' \
	"$me" >"$tmp/forged"
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tbt_%s\t%s\n' \
	"AAAAAAAAAAAAAAAAAAAAAA" "garbage" >>"$tmp/forged"
req "$tmp/forged" GET "${base}games"
expect_code "my games with forged cookies" 200
check "my games: a forged cookie is skipped" [ -z "$(grep "/g/$gb\"" "$tmp/b")" ]
check "my games: the others still listed" grep -q "/g/$gc\"" "$tmp/b"

# a revoked seat drops out
timeout 30 "$BUFFERTIME" admin --db "$db" revoke "$gb" 2 >/dev/null 2>&1
req "$me" GET "${base}games"
check "my games: a revoked seat is not listed" [ -z "$(grep "/g/$gb\"" "$tmp/b")" ]
check "my games: three left" \
	[ "$(grep -o "href=\"/g/[A-Za-z0-9_-]\\{22\\}\"" "$tmp/b" | wc -l)" = 3 ]

# A crew's games apart: the finished rigged game D played again, and a
# practice table made with the form.  Each row names which game it is;
# the crew's line is no item of a list, and counts the games of the
# list that follows it.
page_url=${base}g/$gr
req "$me" GET "$page_url"
if form pick '' '/again$'; then
	req "$me" POST "$form_url" "$form_body"
	expect_code "my games: play the rigged game again" 303
	gr2=$(echo "$loc" | sed -n 's|.*/g/\([A-Za-z0-9_-]\{22\}\).*|\1|p')
	req "$me" GET "$origin$loc"
else
	not_ok "my games: no play again form on the finished game"
	gr2=''
fi
req "" POST "${base}new" "players=2&first=1&name1=Kim&email1=&name2=Lou&email2=&practice=1"
expect_code "my games: a practice table" 200
practice_link=$(grep -o "${base}g/[A-Za-z0-9_-]\{22\}?t=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
open_link "$me" "$practice_link"
req "$me" GET "${base}games"
cp "$tmp/b" "$tmp/crew.html"
check "my games: the rematch is named" grep -q "g/$gr2\"><strong>[^<]* — rematch</strong>" "$tmp/crew.html"
check "my games: the practice table is named" \
	grep -q '<strong>Kim and Lou — practice</strong>' "$tmp/crew.html"
check "my games: the first game has no name of its own" \
	sh -c "grep -o 'g/$gr\"><strong>[^<]*</strong>' '$tmp/crew.html' | grep -vq '—'"
check "my games: the crew's line is no item of the list" \
	sh -c "! grep -q '<li class=\"crewline\"' '$tmp/crew.html'"
# the crew's line, then its own list: the count it says, the rows listed
python3 - "$tmp/crew.html" "$gr" "$gr2" >"$tmp/crew.out" 2>&1 <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<p class="crewline">A crew of (\d+) games:[^<]*</p>\s*'
              r'<ol class="mygames crew">(.*?)</ol>', page, re.S)
if not m:
    sys.exit("no crew line followed by its list")
items = re.findall(r'<li[ >]', m.group(2))
links = re.findall(r'href="/g/([A-Za-z0-9_-]{22})"', m.group(2))
if int(m.group(1)) != len(items):
    sys.exit("the line counts %s games, its list has %d" % (m.group(1), len(items)))
if sorted(links) != sorted(sys.argv[2:]):
    sys.exit("the crew's list holds %s" % links)
PY
check "my games: the crew's line counts its list ($(cat "$tmp/crew.out"))" [ ! -s "$tmp/crew.out" ]
if command -v tidy >/dev/null 2>&1; then
	msg=$(tidy -q -e -utf8 --show-warnings yes --show-info no \
		--drop-empty-elements no "$tmp/crew.html" 2>&1)
	check "my games with a crew is valid HTML (tidy): $(printf '%s' "$msg" | head -n 3)" \
		[ -z "$msg" ]
fi

# An old cookie (Path /g/ID) still opens its table, but does not reach
# "my games"; a new link replaces it even if it was revoked.
old=$tmp/old
: >"$old"
create 1 Ida: Joe: || finish
ge=$game
open_link "$old" "${links[1]}"
awk -v g="bt_$ge" 'BEGIN { FS = OFS = "\t" } $6 == g { $3 = "/g/" substr(g, 4) } 1' \
	"$old" >"$old.new" && mv "$old.new" "$old"
check "the jar holds an old-path cookie" grep -q "/g/$ge	" "$old"
req "$old" GET "${base}g/$ge"
expect_code "an old-path cookie opens its table" 200
req "$old" GET "${base}games"
check "an old-path cookie does not reach my games" [ -z "$(grep "/g/$ge\"" "$tmp/b")" ]
timeout 30 "$BUFFERTIME" admin --db "$db" revoke "$ge" 1 >/dev/null 2>&1
req "$old" GET "${base}g/$ge"
expect_code "a revoked old-path cookie" 403
fresh=$(admin_link "$ge" 1)
req "$old" GET "$fresh"
expect_code "a new link with a stale old-path cookie: first step" 303
check "first step: the old-path cookie deleted" \
	grep -Eqi "^set-cookie: bt_$ge=; Path=/g/$ge; Max-Age=0" "$tmp/h"
case $loc in
*"g/$ge?t="*"&c=1") ok ;;
*) not_ok "first step: Location '$loc'" ;;
esac
req "$old" GET "$origin$loc"
expect_code "a new link: second step" 303
check "second step: the new cookie, Path /" \
	grep -Eqi "^set-cookie: bt_$ge=[A-Za-z0-9_-]+; Path=/; " "$tmp/h"
req "$old" GET "${base}g/$ge"
expect_code "the table after a new link over an old cookie" 200
req "$old" GET "${base}games"
check "my games lists it now" grep -q "/g/$ge\"" "$tmp/b"


# ============================================================================
# new game
# ============================================================================
games_now() {
	sqlite3 "$db" "SELECT count(*) FROM games" 2>/dev/null
}

# seats_of GAME: how many seats GAME has, from the database itself.
seats_of() {
	sqlite3 "$db" "SELECT count(*) FROM seats WHERE game = '$1'" 2>/dev/null
}

# created_game: the game of the links page in $tmp/b; sets $game, $nlinks.
created_game() {
	mapfile -t links < <(grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" \
		"$tmp/b" | awk '!seen[$0]++')
	nlinks=${#links[@]}
	game=${links[0]:-}
	game=${game#"${base}g/"}
	game=${game%%\?*}
}

# made JAR NAME: posts the new-game form ($form_url, $form_body) as a
# browser with JAR: a 303 to PREFIX g/ID/made (sets $made_url, $made_game),
# which shows the links page to that browser (into $tmp/b).
made() {
	made_url='' made_game=''
	req "$1" POST "$form_url" "$form_body"
	expect_code "$2: the form answers with a redirect" 303 || return 1
	case $loc in
	*/g/[A-Za-z0-9_-]*/made|*/g/[A-Za-z0-9_-]*/made\?*) made_url=$origin${loc%%\?*} ;;
	*) not_ok "$2: redirected to '$loc', want PREFIX g/ID/made"; return 1 ;;
	esac
	made_game=${made_url%/made}
	made_game=${made_game##*/}
	req "$1" GET "$origin$loc"
	expect_code "$2: the links page" 200
}

# seat_mails GAME: the "your seat" emails queued for GAME.
seat_mails() {
	sqlite3 "$db" "SELECT count(*) FROM outbox WHERE game = '$1' AND kind = 'seat'" 2>/dev/null
}

# shows NAME HTML: the page in $tmp/b has HTML (a fixed string).
shows() {
	check "$1: the page shows $2" grep -qF -- "$2" "$tmp/b"
}

page_url=$base
req "" GET "$base"
expect_code "home page" 200
cp "$tmp/b" "$tmp/home.html"
python3 - "$tmp/home.html" >"$tmp/labels" 2>&1 <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.depth = 0; s.fors = set(); s.fields = []
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == 'label':
            s.depth += 1
            if a.get('for'): s.fors.add(a['for'])
        if tag in ('input', 'select', 'textarea') and \
           a.get('type') not in ('hidden', 'submit'):
            s.fields.append((a.get('name'), a.get('id'), s.depth > 0))
    def handle_endtag(s, tag):
        if tag == 'label': s.depth -= 1
p = P(); p.feed(open(sys.argv[1]).read())
bad = [n for n, i, inside in p.fields if not inside and i not in p.fors]
print(len(p.fields), ' '.join(str(b) for b in bad))
PY
read -r nfields unlabelled <"$tmp/labels"
check "new game: the form's fields ($nfields)" [ "${nfields:-0}" -ge 20 ]
check "new game: fields without a label: $unlabelled" [ -z "$unlabelled" ]
check "new game: no player count to disagree with the names" \
	[ -z "$(grep 'name="players"' "$tmp/home.html")" ]
check "new game: rows 5 and 6 behind More players" \
	sh -c "sed -n '/<details/,/<\/details>/p' '$tmp/home.html' | grep -q 'name=\"name5\"'"
check "new game: row 4 open" \
	sh -c "sed '/<details/,\$d' '$tmp/home.html' | grep -q 'name=\"name4\"'"

# four names in the form as served: four seats
form pick "name1=Ann name2=Bob name3=Cyd name4=Dee first=4" '/new$' ||
	not_ok "new game: no form for four names"
before=$(games_now)
: >"$tmp/jar.new"
made "$tmp/jar.new" "new game: four names"
created_game
check "new game: four names, $nlinks links" [ "$nlinks" -eq 4 ]
check "new game: four names, the links are the new game's" [ "$game" = "$made_game" ]
check "new game: four names, $(seats_of "$game") seats" [ "$(seats_of "$game")" = 4 ]
check "new game: four names, Dee goes first" grep -q 'Dee goes first' "$tmp/b"

# empty rows are skipped; first names the row, wherever its seat is
req "" GET "$base"
form pick "name1=Ann name3=Cyd name5=Eve first=5" '/new$' ||
	not_ok "new game: no form for rows 1, 3 and 5"
made "$tmp/jar.new" "new game: names in rows 1, 3 and 5"
created_game
check "new game: rows 1, 3, 5 make $(seats_of "$game") seats" [ "$(seats_of "$game")" = 3 ]
check "new game: row 5's Eve goes first" grep -q 'Eve goes first' "$tmp/b"

# ---- once per form: reloads, a second press, back and send again ----------
# The form as served carries a one-use key; its POST makes the game and
# its emails once, and answers with a redirect to a page that shows the
# links to this browser; the page reloads the same, the same form sent
# again makes nothing and leads to the same page, and another browser
# sees no link, name or address there.  Cyd's seat is a bot's: it has no
# link on the page.
req "" GET "$base"
check "new game: the form is not kept by caches (it holds a one-use key)" \
	grep -qi '^Cache-Control: no-store' "$tmp/h"
k1=$(field once)
req "" GET "$base"
check "new game: each form has its own key ('$k1')" \
	sh -c '[ -n "$1" ] && [ "$1" != "$2" ]' sh "$k1" "$(field once)"
form pick "name1=Ann email1=ann@example.org name2=Bob email2=bob@example.org name3=Cyd bot3=1 first=1" '/new$' ||
	not_ok "new game: no form for Ann, Bob and the bot Cyd"
once_body=$form_body
before=$(games_now)
limits=$(sqlite3 "$db" "SELECT count(*) FROM limit_events WHERE kind = 'game'")
: >"$tmp/jar.once"
made "$tmp/jar.once" "once per form"
created_game
once_game=$game
check "once per form: 2 links, none for the bot ($nlinks)" [ "$nlinks" -eq 2 ]
check "once per form: the links are the new game's" [ "$game" = "$made_game" ]
check "once per form: the page says a bot plays seat 3" grep -q 'Played by the bot' "$tmp/b"
bot_link=$(admin_link "$made_game" 3)
check "once per form: the bot's link is nowhere on the page" \
	sh -c '[ -n "$1" ] && ! grep -qF -- "$1" "$2"' sh "${bot_link##*t=}" "$tmp/b"
ann_link=$(admin_link "$made_game" 1)
check "once per form: Ann's link is on the page" grep -qF -- "${ann_link##*t=}" "$tmp/b"
grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" "$tmp/b" >"$tmp/once.links"
req "$tmp/jar.once" GET "$made_url"
expect_code "once per form: the links page reloaded" 200
grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" "$tmp/b" >"$tmp/once.again"
check "once per form: a reload shows the same links" \
	sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' sh "$tmp/once.links" "$tmp/once.again"
check "once per form: the links page is not kept by caches" \
	grep -qi '^Cache-Control: no-store' "$tmp/h"
req "$tmp/jar.once" POST "$form_url" "$form_body"
expect_code "once per form: the same form again" 303
check "once per form: the same form again leads to the same game ($loc)" \
	sh -c 'case $1 in */g/$2/made|*/g/$2/made\?*) exit 0 ;; esac; exit 1' sh "$loc" "$once_game"
: >"$tmp/jar.other"
req "$tmp/jar.other" POST "$form_url" "$form_body"
expect_code "once per form: the same form from another browser" 303
check "once per form: one game for three posts and a reload" \
	[ "$(games_now)" = $((before + 1)) ]
check "once per form: one set of emails ($(seat_mails "$once_game"))" \
	[ "$(seat_mails "$once_game")" = 2 ]
check "once per form: one game counted against the hourly limit" \
	[ "$(sqlite3 "$db" "SELECT count(*) FROM limit_events WHERE kind = 'game'")" = $((limits + 1)) ]
req "" GET "$made_url"
check "once per form: a stranger at the page is not refused outright ($code)" \
	[ "$code" = 200 ] || [ "$code" = 403 ]
check "once per form: a stranger sees no link" \
	sh -c '! grep -q "/g/$1?t=" "$2"' sh "$once_game" "$tmp/b"
check "once per form: a stranger sees no name or address" \
	sh -c '! grep -qE "Ann|Bob|ann@example.org" "$1"' sh "$tmp/b"
check "once per form: the browser holds the page's cookie" \
	grep -q "btmade_$once_game" "$tmp/jar.once"
cp "$tmp/jar.once" "$tmp/jar.forged"
sed -i 's/\(btmade_[A-Za-z0-9_-]*\t\)\(.\)/\1x\2/' "$tmp/jar.forged"
check "once per form: the cookie forged" \
	sh -c '! cmp -s "$1" "$2"' sh "$tmp/jar.once" "$tmp/jar.forged"
req "$tmp/jar.forged" GET "$made_url"
check "once per form: a forged cookie shows no link" \
	sh -c '! grep -q "/g/$1?t=" "$2"' sh "$once_game" "$tmp/b"
: >"$tmp/jar.bot"
req "$tmp/jar.bot" GET "$bot_link"
expect_code "once per form: a bot's seat link (an older page gave them out) opens nothing" 403
check "... and says why" grep -q 'played by the bot' "$tmp/b"
req "$tmp/jar.bot" GET "${base}g/$made_game"
check "... nor does the table show its hand ($code)" [ "$code" = 403 ]
# a browser that opened the bot's link before: its seat cookie opens
# nothing either
host=${base#*://}
host=${host%%[:/]*}
printf '%s\tFALSE\t/\tFALSE\t0\tbt_%s\t%s\n' "$host" "$made_game" \
	"${bot_link##*t=}" >"$tmp/jar.oldbot"
req "$tmp/jar.oldbot" GET "${base}g/$made_game"
check "a bot seat's cookie from before does not show its hand ($code)" \
	[ "$code" = 403 ]

# a refused form keeps its key (it made nothing); a key out of shape is
# refused, and the form comes back with a new one
req "" GET "$base"
k1=$(field once)
form pick "name1=Ann first=1" '/new$' || not_ok "new game: no form for one name"
req "" POST "$form_url" "$form_body"
expect_code "once per form: a refused form" 400
check "once per form: a refused form keeps its key" [ "$(field once)" = "$k1" ]
before=$(games_now)
req "" POST "${base}new" "once=short&name1=Ann&name2=Bob&first=1"
expect_code "once per form: a key out of shape" 400
k2=$(field once)
check "once per form: a key out of shape: a new key ('$k2')" [ "${#k2}" -eq 22 ]
check "once per form: a key out of shape: the names kept" grep -q 'value="Bob"' "$tmp/b"
check "once per form: a key out of shape: no game made" [ "$(games_now)" = "$before" ]

# a count that disagrees: refused, nothing made, everything shown again
before=$(games_now)
typed="players=2&first=2&name1=Ann&email1=ann%40example.org&minutes1=30"
typed="$typed&name2=Bob&minutes2=12&name3=%3Cb%3ECyd&email3=cyd%40example.org&minutes3=7&remind=9"
req "" POST "${base}new" "$typed"
expect_code "new game: 2 players asked, 3 names typed" 400
check "new game: 2 players asked, 3 names: no game made" [ "$(games_now)" = "$before" ]
check "new game: the refusal says why" grep -q '3 names' "$tmp/b"
for html in 'value="Ann"' 'value="ann@example.org"' 'value="30"' 'value="Bob"' \
	'value="12"' 'value="&lt;b&gt;Cyd"' 'value="cyd@example.org"' 'value="7"' \
	'value="9"' '<option value="2" selected>'; do
	shows "new game: the refused form" "$html"
done

# a row with an email (row 5) but no name: refused, typed kept, row 5 open
typed="first=complaint&name1=Ann&minutes1=5&name2=Bob&minutes2=6&email5=eve%40example.org&minutes5=3"
req "" POST "${base}new" "$typed"
expect_code "new game: an email with no name" 400
check "new game: an email with no name: no game made" [ "$(games_now)" = "$before" ]
check "new game: the refusal names the row" grep -q 'Player 5' "$tmp/b"
for html in 'value="Ann"' 'value="Bob"' 'value="eve@example.org"' 'value="3"' \
	'<details class="moreseats" open>' '<option value="complaint" selected>'; do
	shows "new game: the form with a nameless row" "$html"
done

# one name only; a first player in an empty row
req "" POST "${base}new" "first=random&name2=Bob"
expect_code "new game: one name" 400
shows "new game: one name" 'value="Bob"'
req "" POST "${base}new" "first=3&name1=Ann&name2=Bob"
expect_code "new game: first in an empty row" 400
shows "new game: first in an empty row" '<option value="3" selected>'
check "new game: refusals made no game" [ "$(games_now)" = "$before" ]

# ============================================================================
# the table: what happened first; the whole deal once a game is over
# ============================================================================
# since_block: the "Since you last looked" section of the page in $tmp/b.
since_block() {
	awk '/<section class="panel since"/,/<\/section>/' "$tmp/b"
}
# first_line REGEX: the number of the first line of $tmp/b matching REGEX.
first_line() {
	grep -n -m 1 -e "$1" "$tmp/b" | cut -d: -f1
}
# comes_before A B: in $tmp/b, A's first line is before B's.
comes_before() {
	local a b
	a=$(first_line "$1") b=$(first_line "$2")
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}
# in_since TEXT: the page in $tmp/b has TEXT (fixed) in its since block.
in_since() {
	since_block | grep -qF -e "$1"
}

create 1 Ann Ben Cyd || finish
gs=$game
for s in 1 2 3; do
	: >"$tmp/s$s"
	open_link "$tmp/s$s" "${links[$s]}"
done
req "$tmp/s2" GET "${base}g/$gs"
expect_code "since: Ben's table" 200
page_url=${base}g/$gs
req "$tmp/s1" GET "$page_url"
if form pick action=work; then act "$tmp/s1" "$gs" action=work; else act "$tmp/s1" "$gs" action=log; fi
say "$tmp/s3" "$gs" 'the-newest-words-at-this-table'
req "$tmp/s2" GET "${base}g/$gs"
cp "$tmp/b" "$tmp/since.html"
latest=$(awk '/<section class="panel log">/,/<\/section>/' "$tmp/b" |
	sed -n 's/^<li class="latest">\(.*\)<\/li>$/\1/p' | head -n 1)
check "since: the table's last move, under Last moves ($latest)" [ -n "$latest" ]
check "since: 'Since you last looked'" in_since 'Since you last looked'
check "since: before the hand" comes_before 'class="panel since"' 'class="panel hand"'
check "since: before the table's cards" comes_before 'class="panel since"' 'class="panel tableau"'
check "since: before the totals" comes_before 'class="panel since"' 'class="gauges"'
check "since: the last move's words" in_since "$latest"
check "since: the newest table talk line" in_since 'the-newest-words-at-this-table'
check "since: a link to the table talk" in_since 'href="#talk"'
check "since: no 'and N more' when all are shown" sh -c '! grep -q "more moves\{0,1\}, in the history"' < <(since_block)
# On Ann's turn again, her forms come right after it: before her hand.
req "$tmp/s2" GET "$page_url"
if form pick action=work; then act "$tmp/s2" "$gs" action=work; else act "$tmp/s2" "$gs" action=log; fi
req "$tmp/s3" GET "$page_url"
if form pick action=work; then act "$tmp/s3" "$gs" action=work; else act "$tmp/s3" "$gs" action=log; fi
req "$tmp/s1" GET "$page_url"
if [ "$(sql "SELECT turn_seat FROM games WHERE id = '$gs'")" = 1 ]; then
	check "since: Ann's forms after it" comes_before 'class="panel since"' 'class="panel yourturn"'
	check "since: Ann's forms before her hand" comes_before 'class="panel yourturn"' 'class="panel hand"'
	check "since: Ann sees Ben's and Cyd's moves" \
		[ "$(since_block | grep -c '^<li')" -ge 2 ]
fi

# The rigged game in play: round 1 alone (Ann's Sensor Sweep, her Hand
# Off of P01 to Cyd), seen by Bob, who never looked: every move is since.
sed '/^# round 2/,$d' "$rig" >"$tmp/round1.rec"
n1=$(grep -c '^[1-6] ' "$tmp/round1.rec")
g1=$(timeout 30 "$BUFFERTIME" admin --db "$db" import "$tmp/round1.rec" 2>"$tmp/err")
check "import round 1 of the rigged game: $(head -c 200 "$tmp/err")" [ -n "$g1" ]
: >"$tmp/p2"
open_link "$tmp/p2" "$(admin_link "$g1" 2)"
req "$tmp/p2" GET "${base}g/$g1"
expect_code "in play: Bob's table" 200
cp "$tmp/b" "$tmp/inplay.html"
shown=$(since_block | grep -c '^<li')
more=$(since_block | sed -n 's/.*and \([0-9]*\) more.*/\1/p' | head -n 1)
check "since: a handful of moves ($shown)" [ "$shown" -ge 1 ] && [ "$shown" -le 5 ]
check "since: and the $((n1 - shown)) more ('${more}')" [ "${more:-0}" = $((n1 - shown)) ]
check "since: 'more' links to the history" in_since "href=\"/g/$g1/history\""
check "since: no table talk yet" in_since 'href="#talk"'
# what Bob may not know: Ann's sweep order, the card handed off, hands
p01='Nap in a Jefferies Tube'
sweep3='Ensign on the Night Shift, Captain, Overachieving Ensign'
for q in '' '/history' '?at=1' '?at=7' "?at=$n1"; do
	req "$tmp/p2" GET "${base}g/$g1$q"
	expect_code "in play: Bob's g/ID$q" 200
	check "in play: Bob's g/ID$q: no sweep order" \
		sh -c '! grep -q "top first" "$1"' sh "$tmp/b"
	check "in play: Bob's g/ID$q: no $p01" sh -c '! grep -qF "$2" "$1"' sh "$tmp/b" "$p01"
	check "in play: Bob's g/ID$q: no hand but his" \
		sh -c '! grep -q "class=\"panel deal\"" "$1"' sh "$tmp/b"
done

# The whole rigged game, over: Bob (by a fresh link) sees it all.
: >"$tmp/o2"
open_link "$tmp/o2" "$(admin_link "$gr" 2)"
req "$tmp/o2" GET "${base}g/$gr"
expect_code "over: Bob's table" 200
cp "$tmp/b" "$tmp/over.html"
deal() {
	awk '/<section class="panel deal"/,/<\/section>/' "$tmp/b"
}
check "over: the table shows every hand" [ "$(deal | grep -c '<li class="hand')" = 3 ]
for n in Ann Bob Cyd; do
	check "over: the table shows $n's hand" sh -c 'grep -q "<li class=\"hand[^\"]*\"><strong>$1</strong>"' sh "$n" < <(deal)
done
check "over: the table shows Cyd's $p01" sh -c 'grep -qF "$1"' sh "$p01" < <(deal)
check "over: the table shows what Ann's sweep saw" sh -c 'grep -qF "$1"' sh "$sweep3" < <(deal)
req "$tmp/o2" GET "${base}g/$gr/history"
check "over: the history tells Ann's sweep order" grep -qF "(top first: $sweep3)" "$tmp/b"
check "over: the history names the card handed off" \
	grep -qF "Ann played Hand Off: gave $p01 to Cyd" "$tmp/b"
check "over: the history shows the hands as dealt" \
	[ "$(deal | grep -c '<li class="hand')" = 3 ]
req "$tmp/o2" GET "${base}g/$gr?at=1"
check "over: ?at=1 tells Ann's sweep order" grep -qF "(top first: $sweep3)" "$tmp/b"
check "over: ?at=1 shows every hand" [ "$(deal | grep -c '<li class="hand')" = 3 ]
# The feeds: in play Bob's tells no sweep order and no card handed off;
# once over, they are no secret there either.
req "" GET "$(feed_url "$tmp/p2" "$g1")"
expect_code "in play: Bob's feed" 200
check "in play: Bob's feed has no sweep order" sh -c '! grep -q "top first" "$1"' sh "$tmp/b"
check "in play: Bob's feed has no $p01" sh -c '! grep -qF "$2" "$1"' sh "$tmp/b" "$p01"
check "in play: Bob's feed tells that a card was given" \
	grep -qF "Ann played Hand Off: gave a card to Cyd" "$tmp/b"
req "" GET "$(feed_url "$tmp/o2" "$gr")"
expect_code "over: Bob's feed" 200
check "over: Bob's feed tells Ann's sweep order" grep -qF "top first: $sweep3" "$tmp/b"
check "over: Bob's feed names the card handed off" \
	grep -qF "Ann played Hand Off: gave $p01 to Cyd" "$tmp/b"

# Which of the crew's games a table is: its title and heading.
if [ -n "$gr2" ]; then
	req "$me" GET "${base}g/$gr2"
	check "the rematch's title names it" grep -q '<title>[^<]*rematch[^<]*</title>' "$tmp/b"
	check "the rematch's heading names it" grep -q '<h1>Rematch' "$tmp/b"
fi
pg=${practice_link#"${base}g/"}
pg=${pg%%\?*}
req "$me" GET "${base}g/$pg"
check "the practice table's title names it" grep -q '<title>[^<]*practice game[^<]*</title>' "$tmp/b"
check "the practice table's heading names it" grep -q '<h1>Practice game' "$tmp/b"
req "$tmp/s1" GET "${base}g/$gs"
check "a first game's title names no game" sh -c '! grep -q "<title>[^<]*game[^<]*</title>" "$1"' sh "$tmp/b"

# ============================================================================
# names lose their hidden characters
# ============================================================================
# A name with RIGHT-TO-LEFT OVERRIDE (U+202E), a zero-width space and RLM
# is stored, shown and fed without them; one made only of them is refused.
rlo=$'\xe2\x80\xae'
create 1 'Ann%E2%80%AEreD%E2%80%8B%E2%80%8F' 'Bob' || finish
gn=$game
check "hidden characters: stored without them" \
	[ "$(sqlite3 "file:$db?mode=ro" "SELECT name FROM seats WHERE game = '$gn' AND seat = 1")" = AnnreD ]
check "hidden characters: not on the links page" [ -z "$(grep -F "$rlo" "$tmp/b")" ]
: >"$tmp/n1"
open_link "$tmp/n1" "${links[1]}"
req "$tmp/n1" GET "${base}g/$gn"
expect_code "hidden characters: the table" 200
check "hidden characters: the table shows AnnreD" grep -qF AnnreD "$tmp/b"
check "hidden characters: not on the table" [ -z "$(grep -F "$rlo" "$tmp/b")" ]
watch=$(grep -o "${base}g/$gn/watch?k=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
req "" GET "$watch"
expect_code "hidden characters: the spectator page ($watch)" 200
check "hidden characters: the spectator page shows AnnreD" grep -qF AnnreD "$tmp/b"
check "hidden characters: not on the spectator page" [ -z "$(grep -F "$rlo" "$tmp/b")" ]
page_url=${base}g/$gn
req "$tmp/n1" GET "$page_url"
if form pick action=work; then act "$tmp/n1" "$gn" action=work; else act "$tmp/n1" "$gn" action=log; fi
req "" GET "$(feed_url "$tmp/n1" "$gn")"
expect_code "hidden characters: the feed" 200
check "hidden characters: the feed names AnnreD" grep -qF AnnreD "$tmp/b"
check "hidden characters: not in the feed" [ -z "$(grep -F "$rlo" "$tmp/b")" ]
before=$(games_now)
req "" POST "${base}new" "first=1&name1=%E2%80%AE%E2%80%8B+%EF%BB%BF&name2=Bob"
expect_code "new game: a name of hidden characters only" 400
check "new game: hidden characters only: no game made" [ "$(games_now)" = "$before" ]
shows "new game: hidden characters only" 'Player 1'
shows "new game: hidden characters only" 'value="Bob"'

# ---- a game that can no longer be won says so --------------------------------
go=$(timeout 30 "$BUFFERTIME" admin --db "$db" import "$TESTDATA/out-of-reach.rec" 2>"$tmp/err")
check "import the out-of-reach game: $(head -c 200 "$tmp/err")" [ -n "$go" ]
: >"$tmp/reach3"
open_link "$tmp/reach3" "$(admin_link "$go" 3)"
req "$tmp/reach3" GET "${base}g/$go"
expect_code "out of reach: seat 3's table" 200
check "out of reach: the table says the game can no longer be won" \
	grep -q 'class="notice reach" role="status">Even if every card still to come went the crew[^,]*way, it could reach at most 15 of the 20 Leisure it needs: this game can no longer be won' "$tmp/b"
check "out of reach: seat 3 may still move" grep -q 'Your turn: one action' "$tmp/b"
req "$tmp/r1" GET "${base}g/$gr"
check "a game that can still be won says nothing of it" \
	sh -c '! grep -q "can no longer be won" "$1"' sh "$tmp/b"

# ============================================================================
# once per form, two hours on: the links are not shown again
# ============================================================================
restart "$run" $(( $(date +%s) + 2 * 3600 ))
before=$(games_now)
req "$tmp/jar.once" GET "${base}g/$once_game/made"
expect_code "two hours on: the links page" 200
check "two hours on: the links page shows no link" \
	sh -c '! grep -q "/g/$1?t=" "$2"' sh "$once_game" "$tmp/b"
check "two hours on: the page says the game was made" grep -qi 'made already' "$tmp/b"
req "$tmp/jar.once" POST "${base}new" "$once_body"
expect_code "two hours on: the same form again" 303
check "two hours on: the same form again leads to its game ($loc)" \
	sh -c 'case $1 in */g/$2/made|*/g/$2/made\?*) exit 0 ;; esac; exit 1' sh "$loc" "$once_game"
check "two hours on: the same form again makes nothing" [ "$(games_now)" = "$before" ]
check "two hours on: no more emails" [ "$(seat_mails "$once_game")" = 2 ]

finish
