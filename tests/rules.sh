#!/usr/bin/env bash
# rules.sh - "How to play" and plain words, for real: nginx and
# buffertime.fcgi on loopback (scripts/web), driven with curl.
#
#   rules page    PREFIX rules answers GET and HEAD with no cookie, has no
#                 script, every Ability kind's text word for word (R9's
#                 table) under its stable anchor (ability-sensor-sweep...),
#                 the Leisure Goal of each player count as the engine
#                 gives it (buffertime new + replay), its section anchors,
#                 and every in-page link lands on an id.
#   links         the home page, a seat's table (status and links nav),
#                 the spectator's table, the history and the error pages
#                 (404, 403, 409) link to it.
#   cards         every card drawn on a table opens "What it does"
#                 without script; an Ability card there says its kind's
#                 whole text; the icons carry their names as text, not
#                 as a title only.
#   plain words   no rule code (R6) and no tool name ("buffertime ") in
#                 the words of any page fetched here; a move the rules
#                 refuse (409) says the engine's reason as a sentence and
#                 links to the rules' section instead.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR.
# Skips (77) without nginx, curl or python3.  Prints one line per failure
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
web_test_start rules nginx curl python3
seed=5

# R9's table as RULES.md prints it: kind, then its text.
kinds=(
	"Overtime|Place this card in the Shift Stack. It shows Effort 2."
	"Cover Story|Choose an Officer card in the Shift Stack and put it on the bottom of the Shift Deck. Playable only with an Officer in the stack."
	"Deflect|Reveal the top Shift card. An Officer goes to the bottom of the Shift Deck; any other card goes onto the Shift Stack. Playable only if the Shift Deck is not empty; allowed whatever the totals."
	"Extra Duty|Put the top set-aside Assignment on the bottom of the Assignment Deck (one more round). Playable only while any are set aside."
	"Holodeck Reservation|Place this card in the Scoring Row. It is worth 2 Leisure."
	"Sensor Sweep|Look at the top three Shift cards (fewer if fewer remain) and put them back in any order you choose. Only you see them. Playable only if the Shift Deck is not empty."
	"Brainstorm|Draw two Side Projects (one if only one is left). Playable only if the Side Project Deck is not empty."
	"Scale Back|Choose a Side Project in play and take it into your hand. Playable only with a Side Project in play."
	"Hand Off|Give one other card from your hand to another player of your choice. Playable only with another card in hand."
)

# ---- helpers ------------------------------------------------------------------

# words FILE: the text a reader sees in the page FILE: tags, scripts
# and styles dropped, entities decoded, URLs (with their tokens) cut
# out, white space made single spaces.
words() {
	python3 - "$1" <<'EOF'
import html, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
t = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", t)
t = re.sub(r"(?s)<[^>]*>", " ", t)
t = html.unescape(t)
t = re.sub(r"https?://\S+", " ", t)
print(re.sub(r"\s+", " ", t).strip())
EOF
}

# keep NAME: saves the page in $tmp/b as a player page to check for
# codes at the end.
keep() {
	cp "$tmp/b" "$tmp/page.$1"
}

# links_rules NAME: the page in $tmp/b links to the rules page.
links_rules() {
	check "$1 links to the rules page" grep -qF "href=\"${prefix}rules" "$tmp/b"
}

run=$tmp/run
up "$run"
base=$url
origin=$(origin_of "$base")
prefix=${base#"$origin"}

# ============================================================================
# the rules page
# ============================================================================
req "" GET "${base}rules"
expect_code "GET rules, no cookie" 200
check "rules: HTML" grep -qi '^content-type: text/html' "$tmp/h"
keep rules
cp "$tmp/b" "$tmp/rules.html"
words "$tmp/rules.html" >"$tmp/rules.txt"
check "rules: no script but the app's" [ -z "$(grep -i '<script' "$tmp/rules.html" |
	grep -v '^<script src="[^"]*/static/app\.js?v=[^"]*" defer></script>$')" ]
check "rules: a heading" grep -q '<h1>How to play</h1>' "$tmp/rules.html"
code=$(curl -s -I --max-time 15 -o "$tmp/headers" -w '%{http_code}' "${base}rules")
expect_code "HEAD rules" 200
req "" POST "${base}rules" "x=1"
expect_code "POST rules" 405

for k in "${kinds[@]}"; do
	name=${k%%|*} text=${k#*|}
	anchor=ability-$(echo "$name" | tr 'A-Z ' 'a-z-')
	check "rules: $name's text word for word" grep -qF "$text" "$tmp/rules.txt"
	check "rules: anchor $anchor" grep -qF "id=\"$anchor\"" "$tmp/rules.html"
	# the text follows its own heading
	check "rules: $name's text under its heading" python3 - "$tmp/rules.html" "$anchor" "$text" <<'EOF'
import html, re, sys
page, anchor, text = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2], sys.argv[3]
m = re.search(r'<h3 id="%s">.*?</h3>\s*<p>(.*?)</p>' % re.escape(anchor), page, re.S)
sys.exit(0 if m and html.unescape(m.group(1)) == text else 1)
EOF
done
for id in goal setup round actions get-to-work side-project special log \
	officers reprimand end abilities table set-aside cards assignments \
	side-projects shift-cards; do
	check "rules: section anchor #$id" grep -qF "id=\"$id\"" "$tmp/rules.html"
done
check "rules: every in-page link lands on an id" python3 - "$tmp/rules.html" <<'EOF'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
ids = set(re.findall(r'\bid="([^"]+)"', page))
bad = [h for h in re.findall(r'href="#([^"]+)"', page) if h not in ids]
print(bad) if bad else None
sys.exit(1 if bad else 0)
EOF

# The Leisure Goals: the page's table against the engine's own answer.
python3 - "$tmp/rules.html" >"$tmp/goals" <<'EOF'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
t = re.search(r'<table class="goals">(.*?)</table>', page, re.S)
rows = re.findall(r"<tr>(.*?)</tr>", t.group(1), re.S) if t else []
cells = [re.findall(r"<td>(\d+)</td>", r) for r in rows]
if len(cells) == 2:
    for n, g in zip(*cells):
        print(n, g)
EOF
check "rules: the goals of 5 player counts" [ "$(wc -l <"$tmp/goals")" = 5 ]
for n in 2 3 4 5 6; do
	goal=$(timeout 30 "$BUFFERTIME" new --players "$n" 2>/dev/null |
		timeout 30 "$BUFFERTIME" replay - 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["goal"])')
	check "rules: the Leisure Goal of $n players is the engine's ($goal)" \
		grep -qx "$n $goal" "$tmp/goals"
done
check "rules: the cards, closed by default" grep -q '<details id="side-projects">' "$tmp/rules.html"

# ============================================================================
# the pages that link to it
# ============================================================================
req "" GET "$base"
expect_code "home page" 200
links_rules "home page"
keep home

create 1 Ann Bob Cyd || finish
keep created
for s in 1 2 3; do
	: >"$tmp/jar$s"
	req "$tmp/jar$s" GET "${links[$s]}"
	expect_code "open seat $s" 303
done
# a few moves, so the table shows more than one kind of card
for i in 1 2 3 4 5 6; do
	for s in 1 2 3; do
		page_url=${base}g/$game
		req "$tmp/jar$s" GET "$page_url"
		form random '' || continue
		req "$tmp/jar$s" POST "$form_url" "$form_body"
		break
	done
done

req "$tmp/jar1" GET "${base}g/$game"
expect_code "seat 1's table" 200
keep table1
cp "$tmp/b" "$tmp/table.html"
links_rules "a seat's table"
check "table: How to play next to the status" python3 - "$tmp/table.html" "${prefix}rules" <<'EOF'
import re, sys
page, rules = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
m = re.search(r'<section class="panel status">(.*?)</section>', page, re.S)
sys.exit(0 if m and ('href="%s"' % rules) in m.group(1) else 1)
EOF
check "table: How to play in the links" python3 - "$tmp/table.html" "${prefix}rules" <<'EOF'
import re, sys
page, rules = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
m = re.search(r'<nav class="panel links"[^>]*>(.*?)</nav>', page, re.S)
sys.exit(0 if m and ('href="%s"' % rules) in m.group(1) else 1)
EOF
check "table: the ★, the First Player and set-aside explained" python3 - "$tmp/table.html" <<'EOF'
import html, re, sys
t = html.unescape(re.sub(r"<[^>]*>", " ", open(sys.argv[1], encoding="utf-8").read()))
t = re.sub(r"\s+", " ", t)
ok = ("★ marks your seat" in t and "The First Player (in the notes) started this round" in t
      and "Set-aside Assignments are out of play: only Extra Duty brings one back" in t)
sys.exit(0 if ok else 1)
EOF

# Every card: "What it does" without script, named icons; an Ability
# card says its kind's whole text.
printf '%s\n' "${kinds[@]}" >"$tmp/kinds"
check "table: every card opens What it does, Abilities in full" python3 - "$tmp/table.html" "$tmp/kinds" "${prefix}rules" <<'EOF'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
kinds = dict(l.rstrip("\n").split("|", 1) for l in open(sys.argv[2], encoding="utf-8"))
rules = sys.argv[3]
cards = re.split(r'<div class="card ', page)[1:]
bad = []
abilities = 0
for c in cards:
    name = re.search(r'<div class="card-name">(.*?)</div>', c, re.S)
    more = re.search(r'<details class="card-more"><summary>What it does</summary><p>(.*?) <a href="([^"]*)">', c, re.S)
    if not name or not more or not more.group(1).strip():
        bad.append(("no meaning", c[:80]))
        continue
    if not more.group(2).startswith(rules + "#"):
        bad.append(("no rules anchor", more.group(2)))
    if re.search(r'class="icon [a-z]+" title=', c):
        bad.append(("title-only icon", c[:80]))
    for icon in re.findall(r'<span class="icon ([a-z]+)">(.*?)</span>', c):
        if 'class="vh"' not in icon[1]:
            bad.append(("icon without its name", icon))
    n = html.unescape(name.group(1))
    if n in kinds:
        abilities += 1
        if html.unescape(more.group(1)) != kinds[n]:
            bad.append(("ability text", n, more.group(1)))
if bad or len(cards) < 4 or abilities == 0:
    print(len(cards), abilities, bad[:3])
    sys.exit(1)
EOF

watch=$(grep -o "${base}g/$game/watch?k=[A-Za-z0-9_-]*" "$tmp/table.html" | head -n 1)
check "a spectator link on the table" [ -n "$watch" ]
req "" GET "$watch"
expect_code "the spectator's table" 200
keep watch
links_rules "the spectator's table"

req "$tmp/jar2" GET "${base}g/$game/history"
expect_code "the history" 200
keep history
links_rules "the history"
req "$tmp/jar2" GET "${base}g/$game?at=1"
expect_code "the table after move 1" 200
keep past
for p in settings games; do
	u=${base}g/$game/$p
	[ "$p" = games ] && u=${base}games
	req "$tmp/jar3" GET "$u"
	expect_code "the $p page" 200
	keep "$p"
done

req "" GET "${base}no-such-page"
expect_code "an unknown page" 404
keep e404
links_rules "the 404 page"
req "" GET "${base}g/$game"
expect_code "a table without a cookie" 403
keep e403
links_rules "the 403 page"

# A move the rules refuse: a seat not to move asks for one.
page_url=${base}g/$game
mover=0
for s in 1 2 3; do
	req "$tmp/jar$s" GET "$page_url"
	grep -q 'Your turn' "$tmp/b" && mover=$s
done
check "someone is to move" [ "$mover" != 0 ]
s=$((mover % 3 + 1))
req "$tmp/jar$s" GET "$page_url"
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
seq=$(grep -o 'name="seq" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
req "$tmp/jar$s" POST "${base}g/$game/act" "csrf=$csrf&seq=$seq&action=work"
expect_code "a move out of turn" 409
keep e409
links_rules "the 409 page"
words "$tmp/b" >"$tmp/e409.txt"
check "409: the engine's reason as a sentence" \
	grep -qE "It is seat [0-9]'s turn, not seat $s's\.|Seat [0-9] looked at the Shift Deck" "$tmp/e409.txt"
# (a turn's rules; an Ability's, when a Sensor Sweep is half done)
check "409: links to the rules it broke" grep -qE "href=\"${prefix}rules#(actions|abilities)\"" "$tmp/b"

# ============================================================================
# plain words: no rule codes, no tool names
# ============================================================================
for f in "$tmp"/page.*; do
	words "$f" >"$f.txt"
	name=${f##*/page.}
	check "$name: no rule code" sh -c "! grep -qE '(^|[^A-Za-z0-9_])R[0-9]+([^A-Za-z0-9_]|\$)' '$f.txt'"
	check "$name: no tool name" sh -c "! grep -qF 'buffertime ' '$f.txt'"
done

finish
