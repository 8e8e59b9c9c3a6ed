#!/usr/bin/env bash
# crew.sh - a rematch chain is a crew, for real: nginx, buffertime.fcgi
# and the worker (`buffertime worker`, writing emails to a folder) on
# loopback, driven with curl.
#
#   one       Ann and Bob play a game to its end on their tables: a crew
#             of one game, so the finished table has no crew panel.
#   again     Ann presses "Play again", Bob joins the rematch: the first
#             table now shows the crew's two games (the second in play),
#             and its ETag moved, so a table left open sees it.
#   two       they play the rematch to its end: its table's crew panel
#             has a chart (valid SVG, a title, a description with both
#             results in words, a bar per game, this game marked) and a
#             line per game, oldest first, with its result, its Leisure
#             against the goal (as each game's own table says it), the
#             date in words and "(this game)" on the rematch's; the
#             first table's ETag moved again with the rematch's end.
#   my games  Ann's My games shows the crew's line before its two games,
#             the newest first.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR.
# Skips (77) without nginx, curl, sqlite3 or python3.  Prints one line
# per failure and last "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start crew nginx curl sqlite3 python3
seed=13
maildir=$tmp/mail
run=$tmp/run

# the worker runs, as in production (its reviews kept small)
up "$run" --mailer "$maildir" --mail-poll 1 --set review_rollouts=40
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db
jar=("" "$tmp/jar1" "$tmp/jar2")

# play_out NAME: the game $game played to its end on its tables.
play_out() {
	for _ in $(seq 400); do
		[ "$(turn_seat)" = 0 ] && break
		step || break
	done
	check "$1 is over" test "$(turn_seat)" = 0
}

# tag: the ETag of the last response.
tag() {
	grep -i '^etag:' "$tmp/h" | tr -d '\r'
}

# final_leisure: "22 of 20" from a finished table in $tmp/b.
final_leisure() {
	sed -n 's/.*Final Leisure: <strong>\([0-9]*\)<\/strong> of the goal of \([0-9]*\)\..*/\1 of \2/p' \
		"$tmp/b" | head -n 1
}

# ---- one game: a crew of one ------------------------------------------------------
create 1 Ann:ann%40example.org Bob:bob%40example.org
for s in 1 2; do
	req "${jar[$s]}" GET "${links[$s]}"
	expect_code "seat $s opens its link" 303
done
play_out "the first game"
first=$game
page 1
expect_code "Ann's table at the end" 200
check "a crew of one game has no crew panel" \
	sh -c "! grep -q 'id=\"crew\"' '$tmp/b'"
leisure1=$(final_leisure)
status1=$(sql "SELECT status FROM games WHERE id = '$first'")
tag1=$(tag)

# ---- play again -------------------------------------------------------------------
if form pick '' '/again$'; then
	req "${jar[1]}" POST "$form_url" "$form_body"
fi
expect_code "Ann presses Play again" 303
second=$(sql "SELECT rematch FROM games WHERE id = '$first'")
check "the first game names its rematch" test -n "$second"
req "${jar[1]}" GET "$origin${loc#"$origin"}"
expect_code "Ann opens her seat of the rematch" 303
page 2
if form pick '' '/again$'; then
	req "${jar[2]}" POST "$form_url" "$form_body"
fi
expect_code "Bob joins the rematch" 303
req "${jar[2]}" GET "$origin${loc#"$origin"}"
expect_code "Bob opens his seat of the rematch" 303

page 1
expect_code "Ann's first table, the rematch in play" 200
check "the first table shows this crew's games" \
	grep -q "<h2 id=\"crew-h\">This crew's games</h2>" "$tmp/b"
check "... the rematch in play, as game 2" \
	grep -q "<li><a href=\"[^\"]*g/$second\">Game 2</a>, in play: Leisure [0-9]* of the goal of [0-9]* so far, started on " "$tmp/b"
tag2=$(tag)
check "the first table's ETag moved with the rematch ($tag1, $tag2)" \
	test -n "$tag2" -a "$tag1" != "$tag2"

# ---- the rematch to its end ---------------------------------------------------------
game=$second
play_out "the rematch"
page 1
expect_code "Ann's table of the rematch at the end" 200
leisure2=$(final_leisure)
status2=$(sql "SELECT status FROM games WHERE id = '$second'")
won=0 lost=0
for st in "$status1" "$status2"; do
	[ "$st" = won ] && won=$((won + 1))
	[ "$st" = lost ] && lost=$((lost + 1))
done
words="2 games: $won won, $lost lost. Leisure against the goal: $leisure1, $leisure2."
echo "the crew: $words"
cp "$tmp/b" "$tmp/second.html"
check "the crew chart is valid SVG: a title, the results in words, a bar per game, this one marked" \
	python3 - "$tmp/second.html" "$words" <<'EOF'
import re, sys
import xml.dom.minidom
page = open(sys.argv[1], encoding="utf-8").read()
panel = re.search(r'<section class="panel crew".*?</section>', page, re.S)
assert panel, "no crew panel"
svgs = re.findall(r"<svg\b.*?</svg>", panel.group(0), re.S)
assert len(svgs) == 1, len(svgs)
root = xml.dom.minidom.parseString(svgs[0]).documentElement
assert root.tagName == "svg"
assert root.getAttribute("xmlns") == "http://www.w3.org/2000/svg"
assert root.getAttribute("role") == "img"
title = root.getElementsByTagName("title")
desc = root.getElementsByTagName("desc")
assert len(title) == 1 and title[0].firstChild.data.strip()
assert len(desc) == 1
text = desc[0].firstChild.data
assert text.startswith(sys.argv[2]), (text, sys.argv[2])
assert "The game on this page is game 2." in text, text
bars = [r for r in root.getElementsByTagName("rect")
        if r.getAttribute("class") in ("crew-won", "crew-lost", "crew-playing")]
assert len(bars) == 2 + 2, len(bars)      # the key's two, and one a game
assert len(root.getElementsByTagName("polygon")) == 1 + 1   # the key's, this game's
words = [t.firstChild.data for t in root.getElementsByTagName("text")]
assert words.count("won") + words.count("lost") == 2 + 2, words
EOF
day() {
	LC_ALL=C date -u -d "@$(sql "SELECT updated FROM games WHERE id = '$1'")" '+%-d %B %Y'
}
line1="<li><a href=\"[^\"]*g/$first\">Game 1</a>, $status1: Leisure ${leisure1% of *} of the goal of ${leisure1#* of }, on $(day "$first")</li>"
line2="<li><a href=\"[^\"]*g/$second\">Game 2</a>, $status2: Leisure ${leisure2% of *} of the goal of ${leisure2#* of }, on $(day "$second") <strong>(this game)</strong></li>"
check "the list: game 1 with its result, Leisure and date" \
	grep -q "$line1" "$tmp/second.html"
check "... and game 2, this game" grep -q "$line2" "$tmp/second.html"
check "... in that order, two lines" \
	test "$(grep -o '<li><a href="[^"]*g/[A-Za-z0-9_-]*"[^>]*>Game [0-9]*</a>' "$tmp/second.html" |
		sed 's/.*>Game //; s/<.*//' | tr '\n' ' ')" = "1 2 "
check "\"(this game)\" once" test "$(grep -c '(this game)' "$tmp/second.html")" = 1

game=$first
page 1
tag3=$(tag)
check "the first table's ETag moved with the rematch's end ($tag2, $tag3)" \
	test -n "$tag3" -a "$tag3" != "$tag2"
check "... and it shows game 2's result" \
	grep -q "<li><a href=\"[^\"]*g/$second\">Game 2</a>, $status2: " "$tmp/b"
check "... and marks itself as game 1" \
	grep -q "g/$first\">Game 1</a>, $status1: .*(this game)" "$tmp/b"

# ---- My games ----------------------------------------------------------------------
req "${jar[1]}" GET "${base}games"
expect_code "Ann's My games" 200
check "My games has the crew's line" \
	grep -q "<p class=\"crewline\">A crew of 2 games: $won won, $lost lost</p>" "$tmp/b"
check "... before its two games, the newest first" \
	test "$(grep -o -e 'class="crewline"' -e "g/$first\"" -e "g/$second\"" "$tmp/b" |
		tr '\n' ' ')" = "class=\"crewline\" g/$second\" g/$first\" "

finish
