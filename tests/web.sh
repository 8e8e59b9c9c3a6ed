#!/usr/bin/env bash
# web.sh - the whole web stack, for real: nginx and buffertime.fcgi on
# loopback ports in a scratch folder (scripts/web), driven with curl.
#
# Creates a 3-player game with the home page's form, opens each seat's
# link (303 and the cookie), and plays the game to its end through the
# forms each table page offers (random legal forms), checking on the way
# that a page shows only what its seat may see, that a repeated or
# outdated form changes nothing, that another seat's cookie cannot act,
# and that forged tokens get 403.  Then the rigged game of
# tests/data/web-rigged.rec (every action kind, a two-step Sensor Sweep,
# a reprimand), imported with "buffertime admin import" and played move
# by move through the forms, must end as the record says.  Also: the
# security headers, static files with long cache headers, the record
# download, a player named <script>, and a second server under a path
# prefix.
#
# Environment (set by "make check"): BUFFERTIME, the built tool;
# BUFFERTIME_FCGI, the built FastCGI program; SRCDIR, the source tree
# (scripts/web, templates/, www/); TESTDATA, tests/data.  Skips (77) if
# nginx is not installed.  WEB_SEED picks the random play (default 1).
# Prints one line per failure and last "N passed, M failed".
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
web_test_start web nginx curl
seed=${WEB_SEED:-1}

# security_headers NAME: the headers every response must carry.
security_headers() {
	local csp
	csp=$(header Content-Security-Policy)
	case $csp in
	*"default-src 'self'"*"script-src 'self'"*"frame-ancestors 'none'"*)
		case $csp in
		*unsafe-inline*|*unsafe-eval*) not_ok "$1: CSP allows inline: $csp" ;;
		*) ok ;;
		esac ;;
	*) not_ok "$1: Content-Security-Policy '$csp'" ;;
	esac
	check "$1: X-Content-Type-Options" [ "$(header X-Content-Type-Options)" = nosniff ]
	check "$1: Referrer-Policy" [ "$(header Referrer-Policy)" = no-referrer ]
	check "$1: X-Frame-Options" [ "$(header X-Frame-Options)" = DENY ]
	# The program sends them too: nginx must not pass on a second copy.
	local n h
	for h in Content-Security-Policy X-Content-Type-Options Referrer-Policy \
		X-Frame-Options; do
		n=$(grep -ci "^$h:" "$tmp/h")
		check "$1: $h sent once, not $n times" [ "$n" -eq 1 ]
	done
}

# direct NAME METHOD URI [VAR=VALUE...]: asks buffertime.fcgi itself, on
# its socket, with cgi-fcgi (a FastCGI client) and the params nginx
# passes; $tmp/h gets the program's headers, $code its status.
direct() {
	local name=$1 method=$2 uri=$3
	shift 3
	env -i REQUEST_METHOD="$method" REQUEST_URI="$uri" \
		DOCUMENT_URI="${uri%%\?*}" PATH_INFO="${uri%%\?*}" SCRIPT_NAME= \
		QUERY_STRING="$(case $uri in *\?*) echo "${uri#*\?}" ;; esac)" \
		SERVER_PROTOCOL=HTTP/1.1 GATEWAY_INTERFACE=CGI/1.1 \
		SERVER_NAME=localhost HTTP_HOST=localhost REMOTE_ADDR=127.0.0.1 "$@" \
		timeout 15 cgi-fcgi -bind -connect "$run/fcgi.sock" >"$tmp/d" 2>/dev/null
	sed -n '1,/^\r\{0,1\}$/p' "$tmp/d" >"$tmp/h"
	code=$(sed -n 's/^Status: \([0-9]*\).*/\1/p' "$tmp/h" | head -n 1)
	security_headers "$name, from the program"
}

# ---- the game, from the store's side ------------------------------------------

# state ID [SEAT]: the game's view (JSON) from "buffertime admin show".
state() {
	timeout 30 "$BUFFERTIME" admin --db "$db" show "$@" 2>/dev/null
}

# jnum KEY JSON / jstr KEY JSON: a number or string of the view.
jnum() {
	printf '%s\n' "$2" | sed -n "s/.*\"$1\": \\([0-9-]*\\).*/\\1/p"
}
jstr() {
	printf '%s\n' "$2" | sed -n "s/.*\"$1\": \"\\([a-z]*\\)\".*/\\1/p"
}

# hand SEAT JSON: the card ids of a seat's hand, one a line.
hand() {
	printf '%s\n' "$2" | sed -n 's/.*"hands": {\([^}]*\)}.*/\1/p' |
		sed -n "s/.*\"$1\": \\[\\([^]]*\\)\\].*/\\1/p" | tr -d '", ' |
		sed 's/\([A-Z][0-9][0-9]\)/\1\n/g' | sed '/^$/d'
}

# lines GAME SEAT: how many action lines the seat's record download has.
record_lines() {
	req "${jar[$2]}" GET "${base}g/$1/record"
	grep -c '^[1-6] ' "$tmp/b"
}

# stack_hidden GAME SEAT REC WHAT: while GAME (imported from REC) runs,
# the seat's record download, history page and feed show none of REC's
# stack lines (a rigged deal: every hand, the Shift Deck's order), not
# even their cards; the record says where each one was.
stack_hidden() {
	local g=$1 s=$2 rec=$3 what=$4 line cards f feed
	req "${jar[$s]}" GET "${base}g/$g/record"
	expect_code "$what: record" 200
	cp "$tmp/b" "$tmp/hid.record"
	check "$what: the record has no stack line" \
		[ -z "$(grep '^stack' "$tmp/hid.record")" ]
	check "$what: the record marks each stack line hidden" \
		[ "$(grep -c '^# stack [a-z]*: [0-9]* cards\{0,1\}, hidden until the game ends$' \
			"$tmp/hid.record")" = "$(grep -c '^stack ' "$rec")" ]
	check "$what: the hidden stack lines name no card" \
		[ -z "$(grep -i 'stack' "$tmp/hid.record" | grep -E '\b[ASPX][0-9]{2}\b')" ]
	req "${jar[$s]}" GET "${base}g/$g/history"
	expect_code "$what: history" 200
	cp "$tmp/b" "$tmp/hid.history"
	req "${jar[$s]}" GET "${base}g/$g/settings"
	feed=$(grep -o "${base}g/$g/feed?s=[0-9]&amp;k=[A-Za-z0-9_-]*" "$tmp/b" |
		head -n 1 | sed 's/&amp;/\&/')
	check "$what: a feed link" [ -n "$feed" ]
	req "" GET "$feed"
	expect_code "$what: feed" 200
	cp "$tmp/b" "$tmp/hid.feed"
	while read -r line; do
		cards=${line#stack * }
		for f in record history feed; do
			check "$what: the $f does not show '$line'" \
				[ -z "$(grep -F -e "$line" -e "$cards" "$tmp/hid.$f")" ]
		done
	done < <(grep '^stack ' "$rec")
}

# see_only GAME: each seat's page shows its own hand and no card of
# another seat's hand (card ids, R10).
see_only() {
	local g=$1 full s o c bad missing
	full=$(state "$g")
	for s in 1 2 3; do
		page_url=${base}g/$g
		req "${jar[$s]}" GET "$page_url"
		[ "$code" = 200 ] || { not_ok "see_only: seat $s page: $code"; continue; }
		missing='' bad=''
		for c in $(hand "$s" "$full"); do
			grep -q "$c" "$tmp/b" || missing="$missing $c"
		done
		for o in 1 2 3; do
			[ "$o" = "$s" ] && continue
			for c in $(hand "$o" "$full"); do
				grep -q "\\b$c\\b" "$tmp/b" && bad="$bad $c(seat $o)"
			done
		done
		check "seat $s sees its hand (missing:$missing)" [ -z "$missing" ]
		check "seat $s sees no other hand (shown:$bad)" [ -z "$bad" ]
	done
}

# gauges_true WHAT: the gauges of the page in $tmp/b say nothing false:
# no Target of 0 beside a full bar (the game-over slip), no "1 in 1" risk
# (a known card is certain or safe), no risk once the game is over.
gauges_true() {
	check "$1: no Target 0" sh -c "! grep -q 'of Target 0<' '$tmp/b'"
	check "$1: no risk of N in 1" sh -c "! grep -Eq '[0-9]+ in 1\b' '$tmp/b'"
	if grep -q 'class="result' "$tmp/b"; then
		check "$1: no risk gauge after the end" sh -c "! grep -q 'gauge risk' '$tmp/b'"
		check "$1: the effort gauge says the game is over" grep -q 'the game is over' "$tmp/b"
	fi
}

# join GAME LINK SEAT: opens a seat link into ${jar[SEAT]}: a 303 to the
# table, and the seat cookie.
join() {
	local g=$1 link=$2 s=$3 cookie
	jar[$s]=$tmp/jar.$g.$s
	: >"${jar[$s]}"
	req "${jar[$s]}" GET "$link"
	expect_code "open seat $s link" 303
	case $loc in
	*"${prefix}g/$g") ok ;;
	*) not_ok "open seat $s link: Location '$loc'" ;;
	esac
	cookie=$(grep -i '^set-cookie:' "$tmp/h" | tr -d '\r')
	case $cookie in
	*"bt_$g="*) ok ;;
	*) not_ok "seat $s link: cookie '$cookie'" ;;
	esac
	case $cookie in *[Hh]ttp[Oo]nly*) ok ;; *) not_ok "seat $s cookie is not HttpOnly: $cookie" ;; esac
	case $cookie in *[Ss]ame[Ss]ite=[Ll]ax*) ok ;; *) not_ok "seat $s cookie is not SameSite=Lax: $cookie" ;; esac
	# Path is the prefix, so that "my games" receives every game's cookie.
	case $cookie in *[Pp]ath="${prefix};"*) ok ;; *) not_ok "seat $s cookie path: $cookie" ;; esac
	case $cookie in *[Ss]ecure*) not_ok "seat $s cookie is Secure over http" ;; *) ok ;; esac
	security_headers "open seat $s link (a redirect)"
}

# act GAME SEAT WANT: posts the form of WANT from the seat's table page;
# 0 if it was accepted (303 to the table), else 1 with $why.
act() {
	local g=$1 s=$2
	page_url=${base}g/$g
	req "${jar[$s]}" GET "$page_url"
	if [ "$code" != 200 ]; then
		why="table page: $code"
		return 1
	fi
	if ! form pick "$3"; then
		why="no form for '$3' on seat $s's page"
		return 1
	fi
	req "${jar[$s]}" POST "$form_url" "$form_body"
	if [ "$code" = 303 ] && [ "${loc##*/}" = "$g" ]; then
		return 0
	fi
	why="'$3' ($form_body): status $code, Location '$loc'"
	return 1
}

# ============================================================================
run=$tmp/run
# This test makes many games from one address; tests/limits.sh tests the
# limits.
up "$run" --set games_per_hour=0 --set seat_mails_per_day=0
base=$url
origin=$(origin_of "$base")
prefix=/
db=$run/data/buffertime.db
declare -a jar links

# ---- home, static files, headers -------------------------------------------
req "" GET "$base"
expect_code "home page" 200
security_headers "home page"
check "home page: text/html" grep -qi '^content-type: text/html' "$tmp/h"
page_url=$base
check "home page: a form posting to new" \
	grep -q "<form[^>]*action=\"[^\"]*new\"" "$tmp/b"
req "" POST "${base}new" "players=2&first=1&name1=A&email1=a%2Fb%40example.org&name2=B&remind=5"
expect_code "new game with an address mail cannot go to" 400
check "the refused form says why" grep -q 'plain name@example.org' "$tmp/b"
check "the refused form keeps the reminder hours" \
	grep -q 'name="remind" value="5"' "$tmp/b"
req "" POST "${base}new" "players=2&first=1&name1=A&name2=B&remind=%22%3Ex"
expect_code "new game with reminder hours that are no number" 400
check "the refused hours come back escaped" \
	grep -q 'name="remind" value="&quot;&gt;x"' "$tmp/b"

css=$(grep -o 'href="[^"]*\.css[^"]*"' "$tmp/b" | head -n 1 | sed 's/^href="//; s/"$//')
[ -n "$css" ] || css=${base}static/style.css
check "the CSS link has no ?v=VERSION to outlive the cache ($css)" \
	sh -c 'case $1 in *"?v="[0-9]*) ;; *) exit 1 ;; esac' - "$css"
case $css in http*) ;; /*) css=$origin$css ;; *) css=$base$css ;; esac
req "" GET "$css"
expect_code "static CSS $css" 200
check "static CSS: text/css" grep -qi '^content-type: text/css' "$tmp/h"
age=$(header Cache-Control | sed -n 's/.*max-age=\([0-9]*\).*/\1/p')
check "static CSS: long max-age (${age:-none})" [ "${age:-0}" -ge 86400 ]
security_headers "static CSS"
req "" GET "${base}static/no-such-file.css"
expect_code "missing static file" 404
check "missing static file: not cached" [ -z "$(header Cache-Control | grep max-age=31536000)" ]
req "" GET "${base}no/such/page"
expect_code "unknown page" 404
security_headers "404 page"

# ---- create a game; a name that is markup stays text ------------------------
create 1 Ann Bob '%3Cscript%3Ealert(1)%3C%2Fscript%3E' || finish
security_headers "created page"
check "created page: no raw <script> (but app.js)" [ -z "$(grep -i '<script' "$tmp/b" |
	grep -v '^<script src="[^"]*/static/app\.js?v=[^"]*" defer></script>$')" ]
check "created page: the name as text" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/b"
g1=$game
g1_links=("${links[@]}")
for s in 1 2 3; do
	join "$g1" "${links[$s]}" "$s"
done
req "${jar[1]}" GET "${base}g/$g1"
expect_code "seat 1 table" 200
security_headers "table page"
# kept by the browser only to be asked again (its ETag: tests/live.sh)
check "table page: revalidated, never shared" \
	grep -qi '^cache-control: private, no-cache' "$tmp/h"
check "table page: no raw <script> but live.js and app.js" [ -z "$(grep -i '<script' "$tmp/b" |
	grep -v '^<script src="[^"]*/static/live\.js?v=[^"]*" data-tag="[^"<>]*" defer></script>$' |
	grep -v '^<script src="[^"]*/static/app\.js?v=[^"]*" defer></script>$')" ]
etag=$(header ETag)
code=$(curl -s --max-time 15 -D "$tmp/h" -o "$tmp/b" -w '%{http_code}' \
	-b "${jar[1]}" -H "If-None-Match: $etag" "${base}g/$g1" 2>/dev/null) || code=000
expect_code "seat 1 table, unchanged since its ETag" 304
security_headers "304 table"
req "" GET "${base}g/$g1"
expect_code "table without a cookie" 403
security_headers "403 page"

# ---- the same headers from the program itself, without nginx -----------------
if command -v cgi-fcgi >/dev/null 2>&1; then
	cookie=$(awk -v n="bt_$g1" '$6 == n { print $6 "=" $7 }' "${jar[1]}")
	direct "table page" GET "${prefix}g/$g1" HTTP_COOKIE="$cookie"
	expect_code "table page, from the program" 200
	direct "304 table" GET "${prefix}g/$g1" HTTP_COOKIE="$cookie" \
		HTTP_IF_NONE_MATCH="$etag"
	expect_code "304 table, from the program" 304
	direct "404 page" GET "${prefix}no/such/page"
	expect_code "404 page, from the program" 404
	direct "seat link (a redirect)" GET "${g1_links[2]#"$origin"}"
	expect_code "seat link, from the program" 303
else
	not_ok "cgi-fcgi is not installed (libfcgi-bin; scripts/install-deps installs it): the program's own headers were not checked"
fi

# ---- forged and other games' tokens ----------------------------------------
tok=${links[1]#*\?t=}
last=${tok: -1}
[ "$last" = A ] && other=B || other=A
req "" GET "${base}g/$g1?t=${tok%?}$other"
expect_code "forged token (last character changed)" 403
req "" GET "${base}g/$g1?t=${tok%??????}"
expect_code "truncated token" 403
req "" GET "${base}g/$g1?t="
expect_code "empty token" 403
req "" GET "${base}g/$g1?t=%00%FF"
code_ok=no
case $code in 400|403) code_ok=yes ;; esac
check "garbage token: 400 or 403 (got $code)" [ "$code_ok" = yes ]
# One spelling: Debian 12's libsodium reads every byte 0x80-0xFF as '_',
# so a seat token's "__" written as U+00E9 (%C3%A9, two bytes, valid
# UTF-8) passed the MAC check and then failed (500).  Games are made
# until a seat token has "__" (about 1 in 30 games); any other spelling
# of a token or a spectator's key is refused (400 for a byte that is no
# UTF-8, else 403), never a 500, never echoed.
refused() {
	case $code in 400|403) ok ;; *) not_ok "$1: status $code, want 400 or 403" ;; esac
}
keep_game=$game keep_links=("${links[@]}")
twice=''
for _ in $(seq 600); do
	req "" POST "${base}new" "name1=Ann&name2=Bob&first=1"
	for l in $(grep -o "${base}g/[A-Za-z0-9_-]\{22\}?t=[A-Za-z0-9_-]*" "$tmp/b"); do
		case ${l#*\?t=} in *__*) twice=$l; break ;; esac
	done
	[ -n "$twice" ] && break
done
check "a seat token with '__' was found" [ -n "$twice" ]
if [ -n "$twice" ]; then
	t=${twice#*\?t=}
	req "" GET "${twice%%\?t=*}?t=${t/__/%C3%A9}"
	expect_code "a seat token with '__' written as U+00E9" 403
	check "no cookie for another spelling" [ -z "$(grep -i '^set-cookie:' "$tmp/h")" ]
	req "" GET "${twice%%\?t=*}?t=${t/_/%FF}"
	refused "a seat token with '_' written as byte 0xFF"
fi
req "${jar[1]}" GET "${base}g/$g1"
w=$(grep -o "${base}g/$g1/watch?k=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
k=${w#*\?k=}
req "" GET "${w%%\?k=*}?k=${k%?}%C3%A9"
refused "a spectator's key with its last letter written as U+00E9"
check "another spelling is not echoed" sh -c "! grep -qi 'k=[^\"]*%C3' '$tmp/b'"
game=$keep_game links=("${keep_links[@]}")
create 2 Dee Eve || finish
g2=$game
tok2=${links[1]#*\?t=}
req "" GET "${base}g/$g1?t=$tok2"
expect_code "another game's token" 403
check "another game's token: no cookie" [ -z "$(grep -i '^set-cookie:' "$tmp/h")" ]
# The seat 1 cookie of game 1 is no cookie for game 2.
cp "${jar[1]}" "$tmp/jar.cross"
sed -i "s|/g/$g1|/g/$g2|; s|bt_$g1|bt_$g2|" "$tmp/jar.cross"
req "$tmp/jar.cross" GET "${base}g/$g2"
expect_code "game 1's cookie renamed for game 2" 403

# A revoked seat's link dies.
join "$g2" "${links[2]}" 2
timeout 30 "$BUFFERTIME" admin --db "$db" revoke "$g2" 2 >/dev/null 2>&1
check "admin revoke" [ $? -eq 0 ]
req "" GET "${links[2]}"
expect_code "revoked link" 403
req "${jar[2]}" GET "${base}g/$g2"
expect_code "revoked seat's cookie" 403
links=("${g1_links[@]}")
jar[2]=$tmp/jar.$g1.2

# ---- play game 1 to its end with random forms ----------------------------------
see_only "$g1"
steps=0 illegal=0 looked=0 stale_done=no cross_done=no outdated=''
while [ "$steps" -lt 400 ]; do
	st=$(state "$g1")
	[ "$(jstr status "$st")" = playing ] || break
	turn=$(jnum turn "$st")
	n_before=$(jnum actions "$st")
	page_url=${base}g/$g1
	req "${jar[$turn]}" GET "$page_url"
	if [ "$code" != 200 ] || ! form random ''; then
		not_ok "seat $turn to move has no form (status $code)"
		break
	fi
	body=$form_body

	# Another seat's cookie cannot act: the seat to move's form, posted
	# with the next seat's cookie, is refused and changes nothing.
	if [ "$cross_done" = no ] && [ "$steps" -ge 2 ]; then
		cross_done=yes
		other=$((turn % 3 + 1))
		req "${jar[$other]}" POST "$form_url" "$body"
		case "$code $loc" in
		403*|409*|"303 "*"?m="*) ok ;;
		*) not_ok "seat $other posting seat $turn's form: $code $loc" ;;
		esac
		st2=$(state "$g1")
		check "another seat's cookie changed nothing" \
			[ "$(jnum actions "$st2")" = "$n_before" ]
		check "another seat's cookie: still seat $turn's turn" \
			[ "$(jnum turn "$st2")" = "$turn" ]
		# And with that seat's own CSRF token, if its page has one.
		req "${jar[$other]}" GET "$page_url"
		csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 |
			sed 's/.*value="//; s/"$//')
		if [ -n "$csrf" ]; then
			body2=$(printf '%s\n' "$body" | sed "s/csrf=[^&]*/csrf=$csrf/")
			req "${jar[$other]}" POST "$form_url" "$body2"
			case "$code $loc" in
			403*|409*|"303 "*"?m="*) ok ;;
			*) not_ok "seat $other acting on seat $turn's turn: $code $loc" ;;
			esac
			check "seat $other acting out of turn changed nothing" \
				[ "$(jnum actions "$(state "$g1")")" = "$n_before" ]
		fi
	fi

	req "${jar[$turn]}" POST "$form_url" "$body"
	if [ "$code" != 303 ]; then
		case $code in
		409) illegal=$((illegal + 1)) ;;
		*) not_ok "seat $turn: form $body: status $code" ;;
		esac
	else
		case $loc in
		*"g/$g1") ok ;;
		*"?m=illegal"*) illegal=$((illegal + 1)) ;;
		*) not_ok "seat $turn: form $body: Location '$loc'" ;;
		esac
	fi
	case $body in *action=look*) looked=$((looked + 1)) ;; esac

	# The same form again: stale, nothing changes (a look's form too: it
	# must not start a second sweep).
	if [ "$stale_done" = no ] || case $body in *action=look*) true ;; *) false ;; esac; then
		n_mid=$(jnum actions "$(state "$g1")")
		lines_mid=$(record_lines "$g1" "$turn")
		req "${jar[$turn]}" POST "$form_url" "$body"
		case "$code $loc $body" in
		"303 "*"g/$g1?m=stale "*) ok ;;
		# A second click on "look" shows the sweep already under way.
		"303 "*"g/$g1 "*action=look*) ok ;;
		*) not_ok "the same form twice ($body): $code '$loc', want 303 to ?m=stale" ;;
		esac
		check "the same form twice: no new action" \
			[ "$(jnum actions "$(state "$g1")")" = "$n_mid" ]
		check "the same form twice: the record has as many lines" \
			[ "$(record_lines "$g1" "$turn")" = "$lines_mid" ]
		req "${jar[$turn]}" GET "${base}g/$g1?m=stale"
		expect_code "table with ?m=stale" 200
		case $body in
		*action=look*)
			check "a second look: still one order form, nothing else" \
				[ "$(awk -v mode=list -f "$weblib_dir/forms.awk" "$tmp/b" |
					grep -c 'hidden action=')" = 1 ] ;;
		esac
		stale_done=yes
	fi

	# A form from a page two moves old: stale.
	if [ -z "$outdated" ] && [ "$steps" -eq 3 ]; then
		outdated="$turn $form_url $body"
	elif [ -n "$outdated" ] && [ "$steps" -eq 6 ]; then
		set -- $outdated
		n_mid=$(jnum actions "$(state "$g1")")
		req "${jar[$1]}" POST "$2" "$3"
		case "$code $loc" in
		"303 "*"?m=stale") ok ;;
		*) not_ok "a form from an outdated page: $code '$loc'" ;;
		esac
		check "an outdated form changed nothing" \
			[ "$(jnum actions "$(state "$g1")")" = "$n_mid" ]
	fi

	steps=$((steps + 1))
	if [ $((steps % 7)) -eq 0 ] || [ "$looked" -eq 1 ]; then
		see_only "$g1"
		[ "$looked" -eq 1 ] && looked=2
	fi
done
st=$(state "$g1")
status=$(jstr status "$st")
echo "game 1: $status after $steps moves through random forms"
case $status in
won|lost) ok ;;
*) not_ok "game 1 not over after $steps steps (status '$status')" ;;
esac
[ "$illegal" -eq 0 ] || not_ok "$illegal random forms were refused as illegal"

# Game over: every seat sees the end, the record downloads and replays.
for s in 1 2 3; do
	req "${jar[$s]}" GET "${base}g/$g1"
	expect_code "seat $s table at the end" 200
	check "seat $s sees the game $status" grep -qi "$status" "$tmp/b"
	check "seat $s has no action form at the end" \
		[ -z "$(awk -v mode=list -f "$weblib_dir/forms.awk" "$tmp/b" | grep '/act$')" ]
	gauges_true "seat $s at the end ($status)"
done
req "${jar[1]}" GET "${base}g/$g1/record"
expect_code "record download" 200
check "record: text/plain" grep -qi '^content-type: text/plain' "$tmp/h"
security_headers "record download"
cp "$tmp/b" "$tmp/g1.rec"
check "record: first line" [ "$(head -n 1 "$tmp/g1.rec")" = "buffertime 1" ]
check "record: the seed, once the game is over" grep -q '^seed [0-9a-f]' "$tmp/g1.rec"
check "record: every action" \
	[ "$(grep -c '^[1-6] ' "$tmp/g1.rec")" = "$(jnum actions "$st")" ]
if timeout 30 "$BUFFERTIME" replay "$tmp/g1.rec" >"$tmp/g1.json" 2>"$tmp/err"; then
	check "the downloaded record replays to the same end" \
		[ "$(jstr status "$(cat "$tmp/g1.json")")" = "$status" ]
else
	not_ok "the downloaded record does not replay: $(cat "$tmp/err")"
fi
req "" GET "${base}g/$g1/record"
expect_code "record without a cookie" 403
req "${jar[1]}" POST "${base}g/$g1/act" "action=work"
case $code in 303|403|409) ok ;; *) not_ok "a form after the end: $code" ;; esac
check "a form after the end changed nothing" \
	[ "$(jnum actions "$(state "$g1")")" = "$(jnum actions "$st")" ]

# ---- the rigged game: every action kind, through the forms -------------------
# Seat links of an imported game come from "buffertime admin link".
rig=$TESTDATA/web-rigged.rec
awk '/^[1-6] /{exit} {print}' "$rig" >"$tmp/rig-head.rec"
g3=$(timeout 30 "$BUFFERTIME" admin --db "$db" import "$tmp/rig-head.rec" 2>"$tmp/err")
if [ $? -ne 0 ] || [ -z "$g3" ]; then
	not_ok "import the header of web-rigged.rec: $(cat "$tmp/err")"
elif ! timeout 30 "$BUFFERTIME" admin --db "$db" link "$g3" 1 \
	--key-file "$run/data/server.key" --base-url "$base" >/dev/null 2>&1; then
	not_ok "buffertime admin link failed: the rigged game did not run"
else
	for s in 1 2 3; do
		l=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$g3" "$s" \
			--key-file "$run/data/server.key" --base-url "$base" 2>/dev/null)
		join "$g3" "$l" "$s"
	done
	see_only "$g3"
	stack_hidden "$g3" 2 "$tmp/rig-head.rec" "the rigged game at its start"
	n=0
	while read -r s verb card a1 a2 a3; do
		n=$((n + 1))
		case $verb in
		work|log) want="action=$verb" ;;
		side) want="action=side card=$card" ;;
		special)
			case $card in
			X13|X14)
				# Sensor Sweep: look (the card is committed), see the
				# cards, order them.
				if ! act "$g3" "$s" "action=look card=$card"; then
					not_ok "rigged line $n ($s $verb $card): look: $why"
					break
				fi
				see_only "$g3"
				req "${jar[$s]}" GET "${base}g/$g3"
				for c in "$a1" "$a2" "$a3"; do
					check "the sweep shows $c to seat $s" grep -q "$c" "$tmp/b"
				done
				check "the sweeping seat's risk counts the top card it saw" \
					grep -q 'You know the next Shift card' "$tmp/b"
				o=$((s % 3 + 1))
				req "${jar[$o]}" GET "${base}g/$g3"
				check "seat $o sees no swept card ($a1)" \
					[ -z "$(grep -w "$a1" "$tmp/b")" ]
				want="action=order order=$a1${a2:+-$a2}${a3:+-$a3}" ;;
			*)
				want="action=special card=$card"
				[ -n "$a1" ] && want="$want arg1=$a1"
				[ -n "$a2" ] && want="$want arg2=$a2" ;;
			esac ;;
		*) not_ok "rigged line $n: verb $verb"; continue ;;
		esac
		if act "$g3" "$s" "$want"; then
			ok
		else
			not_ok "rigged line $n ($s $verb $card $a1 $a2 $a3): $why"
			break
		fi
		[ $((n % 5)) -eq 0 ] && see_only "$g3"
		[ "$n" = 13 ] && stack_hidden "$g3" 3 "$tmp/rig-head.rec" \
			"the rigged game at move 13"
	done < <(grep '^[1-6] ' "$rig")
	echo "rigged game: $n record lines played through the forms"
	req "${jar[1]}" GET "${base}g/$g3"
	gauges_true "the rigged game, lost"
	st=$(state "$g3")
	want_json=$(timeout 30 "$BUFFERTIME" replay "$rig")
	check "the rigged game ends as its record says" [ "$st" = "$want_json" ]
	req "${jar[2]}" GET "${base}g/$g3/record"
	grep '^[1-6] ' "$tmp/b" >"$tmp/got.lines"
	grep '^[1-6] ' "$rig" >"$tmp/want.lines"
	check "the rigged game's record has the same actions" \
		cmp -s "$tmp/got.lines" "$tmp/want.lines"
	check "the ended rigged game's record has its stack lines again" \
		[ "$(grep '^stack' "$tmp/b")" = "$(grep '^stack' "$rig")" ]
	cp "$tmp/b" "$tmp/rig-end.rec"
	check "and it replays to the same end" \
		[ "$(timeout 30 "$BUFFERTIME" replay "$tmp/rig-end.rec" 2>&1)" = "$want_json" ]
fi

# ---- a stack line among the actions, while the game runs ---------------------
# An imported game may rig a later shuffle (RECORD.md): that line is
# hidden too, in its place.
{ cat "$tmp/rig-head.rec"; grep '^[1-6] ' "$rig" | head -n 1
  echo 'stack shift S02 S03 S04'; grep '^[1-6] ' "$rig" | sed -n 2p; } >"$tmp/rig-item.rec"
g6=$(timeout 30 "$BUFFERTIME" admin --db "$db" import "$tmp/rig-item.rec" 2>"$tmp/err")
l=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$g6" 2 \
	--key-file "$run/data/server.key" --base-url "$base" 2>"$tmp/err")
check "import a game with a stack line among its actions" [ -n "$g6" ] && [ -n "$l" ]
join "$g6" "$l" 2
stack_hidden "$g6" 2 "$tmp/rig-item.rec" "a stack line among the actions"
check "the hidden stack line keeps its place" \
	[ "$(grep -A1 '^# 1 special' "$tmp/hid.record" | tail -n 1)" = \
	  "# stack shift: 3 cards, hidden until the game ends" ]

# ---- a Sensor Sweep of two equal cards ------------------------------------------
# The Captain starts the stack (3 Officers); seat 1 sees Eager Ensign,
# Eager Ensign, Ship's Doctor: three orders differ in words, each is one
# choice, no two look alike, the one with the Doctor on top warns of the
# reprimand, and an order that names one card twice is refused.
cat >"$tmp/twins.rec" <<'EOF2'
buffertime 1
players 2
first 1
seed 7
stack ability X13 X14 X01 X02
stack shift S23 S08 S09 S27
EOF2
g4=$(timeout 30 "$BUFFERTIME" admin --db "$db" import "$tmp/twins.rec" 2>"$tmp/err")
l=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$g4" 1 \
	--key-file "$run/data/server.key" --base-url "$base" 2>"$tmp/err")
check "import the twins' sweep game" [ -n "$g4" ] && [ -n "$l" ]
join "$g4" "$l" 1
if act "$g4" 1 "action=look card=X13"; then ok; else not_ok "twins: look: $why"; fi
req "${jar[1]}" GET "${base}g/$g4"
grep -o '<label class="order-choice">.*</label>' "$tmp/b" | sed 's/<[^>]*>//g' >"$tmp/orders"
check "twins: three orders to choose from ($(wc -l <"$tmp/orders"))" [ "$(wc -l <"$tmp/orders")" = 3 ]
check "twins: no two orders look alike" [ -z "$(sort "$tmp/orders" | uniq -d)" ]
check "twins: the orders name the cards" grep -q 'Eager Ensign' "$tmp/orders"
gauges_true "twins: sweeping"
check "twins: the sweeper knows the next card" grep -q 'You know the next Shift card' "$tmp/b"
check "twins: one order warns of the reprimand" [ "$(grep -c 'reprimand' "$tmp/orders")" = 1 ]
check "twins: the one with the Doctor on top" grep -q '^ *1\. Ship.*reprimand' "$tmp/orders"
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
seq=$(grep -o 'name="seq" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
req "${jar[1]}" POST "${base}g/$g4/act" "csrf=$csrf&seq=$seq&action=order&order=S08-S08-S27"
check "twins: an order naming a card twice is refused ($code)" [ "$code" = 409 ] || [ "$code" = 400 ]
req "${jar[1]}" POST "${base}g/$g4/act" "csrf=$csrf&seq=$seq&action=order&order=S08-S27"
check "twins: an order of two cards for three is refused ($code)" [ "$code" = 400 ]
check "twins: the refused orders changed nothing" [ "$(jnum actions "$(state "$g4")")" = 0 ]
if act "$g4" 1 "action=order order=S08-S27-S09"; then ok; else not_ok "twins: order: $why"; fi
check "twins: the order was stored" [ "$(jnum actions "$(state "$g4")")" = 1 ]
# Seat 2's turn: each action says what it does and what is at stake.
l=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$g4" 2 \
	--key-file "$run/data/server.key" --base-url "$base" 2>"$tmp/err")
join "$g4" "$l" 2
req "${jar[2]}" GET "${base}g/$g4"
sed 's/<[^>]*>//g' "$tmp/b" >"$tmp/words"
check "the crew list names the First Player" \
	grep -Eq '<td>1</td><td>[^<]*</td><td>[0-9]+</td><td>First Player</td>' "$tmp/b"
check "and the legend says what that is" grep -q 'The First Player (in the notes) started this round' "$tmp/b"
check "work says its risk" grep -Eq 'Draw a Shift card onto the Shift Stack. Chance of a reprimand: [0-9.]+% \([0-9]+ in [0-9]+\)' "$tmp/words"
check "work says what a reprimand would cost" grep -q 'A reprimand now would cost the Duty Assignment' "$tmp/words"
check "a Side Project says how the Target rises" grep -Eq 'The Target rises by [0-9]+ to [0-9]+; its [0-9]+ Leisure counts once the assignment is logged' "$tmp/words"

# ---- the gauges of a won game, at its end and in the past ----------------------
g5=$(timeout 30 "$BUFFERTIME" admin --db "$db" import "$TESTDATA/sample.rec" 2>"$tmp/err")
l=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$g5" 1 \
	--key-file "$run/data/server.key" --base-url "$base" 2>"$tmp/err")
check "import the won sample game" [ -n "$g5" ] && [ -n "$l" ]
join "$g5" "$l" 1
req "${jar[1]}" GET "${base}g/$g5"
check "the won game says so" grep -q 'class="result won' "$tmp/b"
gauges_true "a won game"
for n in 1 6; do
	req "${jar[1]}" GET "${base}g/$g5?at=$n"
	expect_code "the won game at move $n" 200
	gauges_true "the won game at move $n"
	check "the won game at move $n has a live Effort gauge" grep -q 'of Target [1-9]' "$tmp/b"
done

# ---- the log keeps no raw bytes of a request ---------------------------------
# nginx passes a path's bytes as they came (REQUEST_URI); the program's
# one log line per request must not carry them to a terminal.
hostport=${origin#http://}
{
	printf 'GET /r\xff\xfe HTTP/1.0\r\nHost: x\r\n\r\n' >&3
	cat <&3 >/dev/null
} 3<>"/dev/tcp/${hostport%:*}/${hostport##*:}" 2>/dev/null
for _ in $(seq 100); do
	grep -aq '^GET /r' "$run/log/fcgi.log" && break
	sleep 0.1
done
check "the log line of a request with raw bytes shows them as '?'" \
	grep -aq '^GET /r?? ' "$run/log/fcgi.log"
check "no log line of a request holds a byte outside printable ASCII" \
	sh -c '! grep -a "^[A-Z]* /" "$1" | LC_ALL=C grep -q "[^ -~]"' sh "$run/log/fcgi.log"

# ---- a second server under a path prefix ------------------------------------
up "$tmp/run2" --prefix /buffertime/ --set games_per_hour=0
base=$url
origin=$(origin_of "$base")
prefix=/buffertime/
db=$tmp/run2/data/buffertime.db
check "prefix: base URL ends in /buffertime/" [ "${base%/buffertime/}" != "$base" ]
req "" GET "$base"
expect_code "prefix: home page" 200
check "prefix: the form posts under the prefix" \
	grep -q "<form[^>]*action=\"[^\"]*/buffertime/new\"" "$tmp/b"
req "" GET "${base}static/style.css"
expect_code "prefix: static CSS" 200
req "" GET "${origin}/"
expect_code "prefix: nothing outside it" 404
req "" GET "${origin}/buffertime"
expect_code "prefix: without the final slash" 301
create 1 Ann Bob Cyd || finish
for s in 1 2 3; do
	join "$game" "${links[$s]}" "$s"
done
req "${jar[1]}" GET "${base}g/$game"
expect_code "prefix: table" 200
if act "$game" 1 "action=work" || act "$game" 1 ""; then
	ok
else
	not_ok "prefix: an action: $why"
fi
check "prefix: the action was stored" [ "$(jnum actions "$(state "$game")")" = 1 ]


# ---- settings -------------------------------------------------------------
# A bad setting stops the program before it listens, with the reason.
timeout 10 "$BUFFERTIME_FCGI" --synchronous fast --db "$tmp/bad.db" \
	--listen 127.0.0.1:1 >"$tmp/o" 2>"$tmp/e"
rc=$?
check "--synchronous fast: exit $rc, want 2" [ "$rc" -eq 2 ]
check "--synchronous fast: no reason given" grep -q "synchronous must be full or normal" "$tmp/e"
check "--synchronous fast: a database was made" [ ! -e "$tmp/bad.db" ]

finish
