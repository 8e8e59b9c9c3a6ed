#!/usr/bin/env bash
# review.sh - the review of a finished game, for real: nginx,
# buffertime.fcgi and the worker (`buffertime worker`, as scripts/web
# starts it, writing emails to a folder) on loopback, driven with curl.
#
#   pending   Ann and Bob play a game to its end on their tables while
#             no worker runs: the table says the review is being
#             computed; a past table (?at=N) has no review.
#   ready     the servers again, with the worker (review_rollouts 200):
#             the review job is done within 60 s, one row of figures per
#             move; Ann's table now shows the chart (valid SVG, with a
#             title and a description, one point per move and one before
#             them), the three moves that changed the chance most in
#             words, and the figures table, one row per move; its ETag
#             changed, so a table left open sees it; a spectator sees it
#             too, and the history links to it.
#   email     the game-over email, held for the review, reaches Ann and
#             Bob with the review's biggest turning point and their
#             seat link to the table's review.
#   bench     bench/review.sh, small, runs and prints its two figures.
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
web_test_start review nginx curl sqlite3 python3
seed=11
maildir=$tmp/mail
run=$tmp/run

up "$run" --set review_rollouts=200
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db

# ---- a game played to its end, no worker -------------------------------------
create 1 Ann:ann%40example.org Bob:bob%40example.org
jar=("" "$tmp/jar1" "$tmp/jar2")
for s in 1 2; do
	req "${jar[$s]}" GET "${links[$s]}"
	expect_code "seat $s opens its link" 303
done
for _ in $(seq 400); do
	[ "$(turn_seat)" = 0 ] && break
	step || break
done
check "the game is over" test "$(turn_seat)" = 0
moves=$(lines)
echo "a game of $moves moves"
check "its review is queued with its last move" \
	test "$(sql "SELECT count(*) FROM jobs WHERE game = '$game' AND kind = 'review' AND done IS NULL")" = 1
page 1
expect_code "Ann's table at the end" 200
check "the table says the review is being computed" \
	grep -q 'A bot is going over the game, move by move' "$tmp/b"
check "... and shows no chart yet" sh -c "! grep -q '<svg' '$tmp/b'"
tag_before=$(grep -i '^etag:' "$tmp/h" | tr -d '\r')
page 1 "?at=1"
check "a past table has no review" \
	sh -c "! grep -q 'id=\"review\"' '$tmp/b'"

# ---- the worker reviews it --------------------------------------------------------
port=${base#http://127.0.0.1:}
port=${port%%/*}
restart "$run" "" --port "$port" --mailer "$maildir" --mail-poll 1 \
	--set review_rollouts=200
start=$SECONDS
for _ in $(seq 600); do
	[ "$(sql "SELECT outcome FROM jobs WHERE game = '$game' AND kind = 'review'")" = reviewed ] && break
	sleep 0.1
done
echo "the review took $((SECONDS - start)) s"
check "the worker reviewed the game within 60 s" \
	test "$(sql "SELECT outcome FROM jobs WHERE game = '$game' AND kind = 'review'")" = reviewed
check "one row of figures per move ($moves)" \
	test "$(sql "SELECT count(*) FROM review_moves WHERE game = '$game'")" = "$moves"

page 1
expect_code "Ann's table with its review" 200
check "the table shows where the game was won or lost" \
	grep -q 'Where the game was won or lost' "$tmp/b"
check "... no longer being computed" \
	sh -c "! grep -q 'A bot is going over the game' '$tmp/b'"
check "the chart is valid SVG: a title, a description, one point per move and one before" \
	python3 - "$tmp/b" "$moves" <<'EOF'
import re, sys
import xml.dom.minidom
page = open(sys.argv[1], encoding="utf-8").read()
svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
assert len(svgs) == 1, len(svgs)
doc = xml.dom.minidom.parseString(svgs[0])
root = doc.documentElement
assert root.tagName == "svg"
assert root.getAttribute("xmlns") == "http://www.w3.org/2000/svg"
assert root.getAttribute("role") == "img"
for tag in ("title", "desc"):
    els = root.getElementsByTagName(tag)
    assert len(els) == 1 and els[0].firstChild.data.strip(), tag
lines = root.getElementsByTagName("polyline")
assert len(lines) == 1
points = lines[0].getAttribute("points").split()
assert len(points) == int(sys.argv[2]) + 1, (len(points), sys.argv[2])
EOF
check "three turning points, each in words with its chance" \
	test "$(grep -c '^<li><strong>[123]\.</strong> Round [0-9]*, move [0-9]*: .* The crew.s chance of winning went from [0-9]*% to [0-9]*%\.' "$tmp/b")" = 3
check "the figures table has one row per move" \
	test "$(grep -o '<th scope="row">' "$tmp/b" | wc -l)" = "$moves"
tag_after=$(grep -i '^etag:' "$tmp/h" | tr -d '\r')
check "the table's ETag changed with the review ($tag_before, $tag_after)" \
	test -n "$tag_after" -a "$tag_before" != "$tag_after"
watch=$(grep -o 'Share a read-only view: <a href="[^"]*"' "$tmp/b" |
	sed 's/.*href="//; s/"$//; s/&amp;/\&/g')
req "" GET "$watch"
check "a spectator sees the review too" \
	grep -q 'Where the game was won or lost' "$tmp/b"
req "${jar[1]}" GET "${base}g/$game/history"
check "the history links to the review" \
	grep -q "href=\"[^\"]*g/$game#review\">Where the game was won or lost" "$tmp/b"

# ---- the bench of the worker's review and hints, small: it runs ---------------
BENCH_REVIEW_GAMES=2 BENCH_REVIEW_ROLLOUTS=50 BENCH_REVIEW_RUNS=1 \
	BENCH_HINT_GAMES=2 BENCH_HINT_ROLLOUTS=50 \
	sh "$SRCDIR/bench/review.sh" "$BUFFERTIME" >"$tmp/bench.out" 2>&1
check "bench/review.sh runs: $(tr '\n' ' ' <"$tmp/bench.out")" \
	grep -Eq '^review: a [0-9]+-move game in [0-9.]+ s' "$tmp/bench.out"
check "... and times the hints" \
	grep -Eq '^hints: 2 turns in [0-9.]+ s' "$tmp/bench.out"

# ---- the game-over email ---------------------------------------------------------
for who in ann bob; do
	found=''
	for _ in $(seq 300); do
		found=$(grep -l "^To: .*$who@example.org" "$maildir"/*.eml 2>/dev/null |
			xargs -r grep -l 'Subject: Buffer Time: game' 2>/dev/null |
			head -n 1)
		[ -n "$found" ] && break
		sleep 0.2
	done
	check "$who's game-over email links to the review" \
		grep -q "${base}g/$game?t=[A-Za-z0-9_-]*#review" "$found"
	check "$who's game-over email waited for the review's biggest turning point" \
		grep -q 'The biggest turning point of the review:' "$found"
done

finish
