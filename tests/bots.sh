#!/usr/bin/env bash
# bots.sh - bot seats for real: nginx, buffertime.fcgi and the worker
# (`buffertime worker` as scripts/web starts it, writing emails to a
# folder) on loopback, driven with curl.
#
#   the form     a row ticked "Played by a bot" is a seat without a name
#                or email ("Bot"); a bot row with an email is
#                refused with the reason, no game made.
#   a game       Ann and a bot: the created page says the bot plays its
#                seat; Ann moves on her table; within seconds the worker
#                has the bot move (marked as the bot's in the store), the
#                turn is Ann's again and her turn email arrives; the
#                history and the table say the bot moved.
#   first        a game whose First Player is a bot starts with the
#                bot's move, without anyone moving.
#   stand-in     Ann and Cy, a bot to stand in "once the others agree":
#                four days later (the clock moved) Ann has had both
#                reminders; Cy's table offers to ask, Cy asks, the bot
#                plays Ann's turn (marked as a stand-in's), Ann is told
#                by email, the history marks the stand-in's move, and
#                opening her link gives her the seat back.
#   calibration  bench/calibration, small: ten bins whose positions add
#                up to games x positions, the same table with 2 jobs, and
#                a bad argument exits 2; --raw writes a line a position,
#                the same with 2 jobs; bench/calibration_fit finds a = 0,
#                b = 1 for chances that are honest, a = 1 for games won
#                more often, checks other games within 3 points a bin,
#                and names a bad line.
#   botlag       bench/botlag.sh, small: Ann and two bots through its own
#                servers; it prints how soon the bots moved.
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
web_test_start bots nginx curl sqlite3
seed=5
maildir=$tmp/mail

# wait_for WHAT SQL WANT: polls the store (10 s at most) until SQL gives
# WANT; 0 if it did.
wait_for() {
	for _ in $(seq 100); do
		[ "$(sql "$2")" = "$3" ] && return 0
		sleep 0.1
	done
	not_ok "$1: after 10 s, $(sql "$2"), want $3"
	return 1
}

run=$tmp/run
up "$run" --mailer "$maildir" --mail-poll 1
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db

# ---- the form -------------------------------------------------------------------
req "" GET "$base"
check "the form has a bot box in every row" \
	test "$(grep -c 'name="bot[1-6]" value="1"' "$tmp/b")" = 6
req "" POST "${base}new" "name1=Ann&bot2=1&email2=bot%40example.org&first=1"
expect_code "a bot seat with an email" 400
check "... says why" grep -q 'played by a bot, which gets no email' "$tmp/b"
check "... the box comes back ticked" grep -q 'name="bot2" value="1" checked' "$tmp/b"
check "... no game made" test "$(sql 'SELECT count(*) FROM games')" = 0

# ---- Ann and a bot ----------------------------------------------------------------
req "" POST "${base}new" "name1=Ann&email1=ann%40example.org&bot2=1&first=1"
expect_code "create Ann and a bot" 200
check "the created page says the bot plays seat 2" \
	grep -q 'Played by the bot' "$tmp/b"
game=$(sql 'SELECT id FROM games')
check "seat 2 is the search bot, named so" \
	test "$(sql "SELECT bot || '|' || name FROM seats WHERE game = '$game' AND seat = 2")" = 'search|Bot'
link=$(grep -o "${base}g/$game?t=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
jar=("" "$tmp/jar1")
req "${jar[1]}" GET "$link"
expect_code "Ann opens her link" 303
step || not_ok "Ann could not move on her table"
# (the first action only: the bot may have answered it already)
check "Ann's move is hers" \
	test "$(sql "SELECT seat || made_by FROM actions WHERE game = '$game' AND seq = 0")" = 1
start=$SECONDS
wait_for "the bot's move" \
	"SELECT count(*) FROM actions WHERE game = '$game' AND made_by = 'bot'" 1
echo "the bot moved $((SECONDS - start)) s after Ann"
check "the bot's move is seat 2's" \
	test "$(sql "SELECT seat FROM actions WHERE game = '$game' AND made_by = 'bot'")" = 2
check "the turn is Ann's again, or the game over" \
	sh -c '[ "$1" = 1 ] || [ "$1" = 0 ]' sh "$(turn_seat)"
check "the bot's job is done" \
	test "$(sql "SELECT outcome FROM jobs WHERE game = '$game' AND seq = 1")" = moved
found=''
for _ in $(seq 300); do
	found=$(grep -l "^To: .*ann@example.org" "$maildir"/*.eml 2>/dev/null |
		xargs -r grep -lw "Bot" 2>/dev/null | head -n 1)
	[ -n "$found" ] && break
	sleep 0.2
done
check "Ann's email after the bot's move names the bot" test -n "$found"
page 1 /history
check "the history says the bot moved" grep -qw 'Bot' "$tmp/b"
page 1
check "the table names the bot" grep -qw 'Bot' "$tmp/b"

# ---- a bot goes first -------------------------------------------------------------
req "" POST "${base}new" "bot1=1&name2=Cy&first=1"
expect_code "create a bot first and Cy" 200
game=$(sql "SELECT id FROM games WHERE id <> '$game'")
wait_for "the bot's first move" \
	"SELECT count(*) FROM actions WHERE game = '$game' AND made_by = 'bot'" 1
bot_first=$game

# ---- a stand-in once the others agree -------------------------------------------
req "" POST "${base}new" "name1=Ann&email1=ann%40example.org&name2=Cy&email2=cy%40example.org&first=1&standin=agree"
expect_code "create Ann and Cy, stand-ins by agreement" 200
game=$(sql "SELECT id FROM games WHERE standin = 'agree'")
check "the rule is stored" test -n "$game"
mapfile -t links < <(grep -o "${base}g/$game?t=[A-Za-z0-9_-]*" "$tmp/b" | awk '!seen[$0]++')
jar=("" "$tmp/jar.ann" "$tmp/jar.cy")
for s in 1 2; do
	req "${jar[$s]}" GET "${links[$((s - 1))]}"
	expect_code "seat $s opens its link" 303
done
page 2
check "Cy's table states the rule" grep -q 'a bot can stand in after their last reminder' "$tmp/b"
check "no ask before the last reminder" sh -c '! grep -q "/standin" "$1"' sh "$tmp/b"
now=$(( $(sql "SELECT turn_since FROM games WHERE id = '$game'") + 4 * 86400 ))
port=${base#http://127.0.0.1:}
port=${port%%/*}
# the same port: the seat links stay the same
restart "$run" "$now" --port "$port" --mailer "$maildir" --mail-poll 1
wait_for "both reminders" "SELECT reminders FROM games WHERE id = '$game'" 2
page 2
if form pick '' '/standin$'; then
	req "${jar[2]}" POST "$form_url" "$form_body"
	expect_code "Cy asks for a stand-in" 303
	check "... and it starts" grep -qi '^location: .*m=standin_started' "$tmp/h"
else
	not_ok "no stand-in form on Cy's table after the last reminder"
fi
wait_for "the stand-in's move for Ann" \
	"SELECT count(*) FROM actions WHERE game = '$game' AND made_by = 'stand-in'" 1
check "... it is seat 1's" \
	test "$(sql "SELECT seat FROM actions WHERE game = '$game' AND made_by = 'stand-in'")" = 1
page 2 /history
check "the history says a bot stood in for that move" \
	test "$(grep -c '(a bot standing in)' "$tmp/b")" = 1
found=''
for _ in $(seq 300); do
	found=$(grep -l "a bot plays your turns" "$maildir"/*.eml 2>/dev/null |
		xargs -r grep -l "^To: .*ann@example.org" 2>/dev/null | head -n 1)
	[ -n "$found" ] && break
	sleep 0.2
done
check "Ann is told by email" test -n "$found"
req "${jar[1]}" GET "${links[0]}"
check "Ann's link takes her seat back" \
	test "$(sql "SELECT standin_since FROM seats WHERE game = '$game' AND seat = 1")" = 0

# ---- a hand shown to the crew, and the bot's table talk ---------------------------
req "" POST "${base}new" "name1=Ann&email1=ann%40example.org&name2=Cy&email2=cy%40example.org&bot3=1&first=1"
expect_code "create Ann, Cy and a bot" 200
game=$(sql "SELECT game FROM seats WHERE seat = 3 AND bot = 'search'")
mapfile -t links < <(grep -o "${base}g/$game?t=[A-Za-z0-9_-]*" "$tmp/b" | awk '!seen[$0]++')
jar=("" "$tmp/jar.talk1" "$tmp/jar.talk2")
for s in 1 2; do
	req "${jar[$s]}" GET "${links[$((s - 1))]}"
	expect_code "seat $s of the talking game opens its link" 303
done
# shown_section: the shown hands of the page in $tmp/b
shown_section() {
	sed -n '/id="shown-hands"/,/<\/section>/p' "$tmp/b"
}
# hand SEAT: the card ids of SEAT's hand now, one a line
hand() {
	"$BUFFERTIME" admin --db "$db" show "$game" --seat "$1" |
		jq -r --arg s "$1" '.hands[$s][]'
}
# show SEAT on|off: the seat's settings form that shows its hand, or not
show() {
	page_url=${base}g/$game/settings
	req "${jar[$1]}" GET "$page_url"
	if form pick "show=$2" '/settings$'; then
		req "${jar[$1]}" POST "$form_url" "$form_body"
		expect_code "seat $1 sends show=$2" 303
	else
		not_ok "no show=$2 form on seat $1's settings page"
	fi
}
page 2
check "no hand shown before anyone chose to" test -z "$(shown_section)"
page_url=${base}g/$game/settings
req "${jar[1]}" GET "$page_url"
check "the settings page offers to show the hand" \
	grep -q 'Show my hand to the crew' "$tmp/b"
check "... and says what was seen stays seen" \
	grep -q 'what the others have already seen, they have seen' "$tmp/b"
valid "the settings page"
show 1 on
check "the store keeps it" \
	test "$(sql "SELECT shown FROM seats WHERE game = '$game' AND seat = 1")" = 1
page 2
shown_section >"$tmp/shown"
valid "Cy's table with Ann's hand"
n=0
while read -r c; do
	n=$((n + 1))
	grep -q "card-id\">$c<" "$tmp/shown" || not_ok "Cy's table lacks Ann's card $c"
done < <(hand 1)
check "Cy's table shows Ann's hand ($n cards)" test "$n" -gt 0
check "... under her name" grep -q 'Ann, seat 1' "$tmp/shown"
page 1
check "Ann's table says her hand is shown" grep -q 'Your hand is shown to the crew' "$tmp/b"
check "... and shows no other hand (Cy did not show his)" test -z "$(shown_section)"
show 1 off
page 2
check "once Ann stops, Cy's table shows no hand of hers" test -z "$(shown_section)"
show 1 on
# the whole game: Ann and Cy on their tables, the bot by the worker
waited=0
for _ in $(seq 600); do
	s=$(turn_seat)
	[ "$s" = 0 ] && break
	if [ "$s" = 3 ]; then
		sleep 0.2
		waited=$((waited + 1))
		[ "$waited" -lt 1500 ] || break
		continue
	fi
	step || { not_ok "seat $s could not move in the talking game"; break; }
done
check "the talking game ended" test "$(turn_seat)" = 0
talks=$(sql "SELECT count(*) FROM chat WHERE game = '$game' AND seat = 3")
echo "the bot said $talks lines in $(lines) moves"
check "the bot talked at least once" test "$talks" -ge 1
check "... at most once a move of its own" \
	test "$(sql "SELECT count(*) FROM (SELECT at_seq FROM chat WHERE game = '$game' AND seat = 3 GROUP BY at_seq HAVING count(*) > 1)")" = 0
check "... each line said just before a move of its own" \
	test "$(sql "SELECT count(*) FROM chat AS c WHERE c.game = '$game' AND c.seat = 3 AND NOT EXISTS (SELECT 1 FROM actions AS a WHERE a.game = c.game AND a.seq = c.at_seq AND a.seat = 3 AND a.made_by = 'bot')")" = 0
# No line names a card Cy (who never showed his hand) held when it was
# said, unless the bot held one of that name too.  The hands then come
# from the record replayed up to the line (the seed is out: it is over).
awk 'match($0, /^\tSIDE\(([0-9]+), "[^"]*"/) { split(substr($0, RSTART, RLENGTH), f, "\""); print "P" substr($0, RSTART + 6, 2) "\t" f[2] }
	match($0, /^\tABILITY\(([0-9]+), [A-Z_]+, "[^"]*"/) { split(substr($0, RSTART, RLENGTH), f, "\""); print "X" substr($0, RSTART + 9, 2) "\t" f[2] }' \
	"$SRCDIR/rules/cards.c" >"$tmp/names"
check "the card names are read (46 hand cards)" test "$(wc -l <"$tmp/names")" = 46
"$BUFFERTIME" admin --db "$db" export "$game" >"$tmp/talk.rec" 2>"$tmp/err"
card_name() {
	awk -F'\t' -v id="$1" '$1 == id { print $2 }' "$tmp/names"
}
leaks=0
checked=0
while IFS=$'\t' read -r at text; do
	awk -v n="$at" '/^[0-9]/ { if (k++ >= n) next } { print }' "$tmp/talk.rec" |
		"$BUFFERTIME" replay - >"$tmp/at.json" 2>"$tmp/err" ||
		{ not_ok "the record does not replay to line $at"; continue; }
	mine=$(jq -r '.hands["3"][]' "$tmp/at.json" | while read -r c; do card_name "$c"; done)
	while read -r c; do
		nm=$(card_name "$c")
		[ -n "$nm" ] || continue
		printf '%s\n' "$mine" | grep -qxF -- "$nm" && continue
		if printf '%s\n' "$text" | grep -qF -- "$nm"; then
			not_ok "the bot's line at move $at names Cy's hidden $c: $text"
			leaks=$((leaks + 1))
		fi
	done < <(jq -r '.hands["2"][]' "$tmp/at.json")
	checked=$((checked + 1))
done < <(sql "SELECT at_seq || char(9) || text FROM chat WHERE game = '$game' AND seat = 3 ORDER BY seq")
check "every bot line checked against Cy's hand ($checked), none names his cards" \
	test "$checked" = "$talks" -a "$leaks" = 0
sql "SELECT text FROM chat WHERE game = '$game' AND seat = 3 ORDER BY seq LIMIT 3" | sed 's/^/  the bot: /'

# ---- the calibration bench, small ------------------------------------------------
# (make check builds it beside the tool)
calibration=$(dirname "$BUFFERTIME")/bench/calibration
cal_args=(--games 10 --positions 2 --rollouts 50 --review-rollouts 50)
timeout 120 "$calibration" "${cal_args[@]}" >"$tmp/cal1" 2>"$tmp/err"
rc=$?
expect_rc "calibration, 10 games" 0
check "... ten bins" \
	test "$(grep -Ec '^\| [0-9]+-[0-9]+% \|' "$tmp/cal1")" = 10
check "... their positions add up to 20" \
	test "$(awk -F'|' '/^\| [0-9]+-[0-9]+% \|/ { n += $3 } END { print n + 0 }' "$tmp/cal1")" = 20
check "... each bin counts its games once: 10 to 20 in all" \
	awk -F'|' '/^\| [0-9]+-[0-9]+% \|/ { g += $4; if ($4 > $3) bad = 1 }
		END { exit !(g >= 10 && g <= 20 && !bad) }' "$tmp/cal1"
check "... the header names the review's rollouts" \
	grep -q '^calibration: 10 games, 20 positions.*review rollouts 50' "$tmp/cal1"
check "... a Brier score" grep -Eq '^Brier score: [0-9.]+ over 20 positions' "$tmp/cal1"
check "... a line per player count" \
	test "$(grep -Ec '^players [2-6]: 4 positions' "$tmp/cal1")" = 5
timeout 120 "$calibration" "${cal_args[@]}" --jobs 2 >"$tmp/cal2" 2>"$tmp/err"
rc=$?
expect_rc "calibration, 2 jobs" 0
check "... the same table as one job" \
	cmp -s <(sed '1s/, jobs .*//' "$tmp/cal1") <(sed '1s/, jobs .*//' "$tmp/cal2")
timeout 120 "$calibration" "${cal_args[@]}" --positions 1 >"$tmp/cal4" 2>"$tmp/err"
check "... with a position a game, as many games as positions in each bin" \
	awk -F'|' '/^\| [0-9]+-[0-9]+% \|/ { n += $3; if ($3 != $4) bad = 1 }
		END { exit !(n == 10 && !bad) }' "$tmp/cal4"
timeout 120 "$calibration" "${cal_args[@]}" --raw "$tmp/raw1" >/dev/null 2>"$tmp/err"
rc=$?
expect_rc "calibration --raw" 0
check "... a line a position, GAME PLAYERS SEARCH WON" \
	test "$(grep -Ec '^[0-9] [2-6] (0|1)\.[0-9]{6} [01]$' "$tmp/raw1")" = 20
timeout 120 "$calibration" "${cal_args[@]}" --jobs 2 --raw "$tmp/raw2" >/dev/null 2>"$tmp/err"
check "... the same lines with 2 jobs" \
	cmp -s <(sort "$tmp/raw1") <(sort "$tmp/raw2")

# The fit on chances whose games are won as often as rated: a 0, b 1;
# then on games won as if rated one logit higher: a 1; small crews and
# large ones apart.
fit=$(dirname "$BUFFERTIME")/bench/calibration_fit
honest() {  # honest SHIFT [SEED [PLAYERS]]: positions won with logit(p) + SHIFT
	awk -v shift="$1" -v seed="${2:-7}" -v players="${3:-3}" 'BEGIN { srand(seed)
		for (i = 0; i < 40000; i++) {
			p = 0.02 + 0.96 * rand(); z = log(p / (1 - p)) + shift
			printf "%d %d %.6f %d\n", i, players, p, rand() < 1 / (1 + exp(-z)) } }'
}
coefs() {  # coefs FILE CREW LOW HIGH: a and b of the CREW line in range
	awk -v crew="$2" -v lo="$3" -v hi="$4" '$1 == "players" && $2 == crew ":" {
		a = $6 + 0; b = $8 + 0; ok = a > lo && a < hi && b > 0.9 && b < 1.1 }
		END { exit !ok }' "$1"
}
honest 0 | "$fit" - >"$tmp/fit0" 2>"$tmp/err"
rc=$?
expect_rc "calibration_fit on honest chances" 0
check "... a near 0, b near 1" coefs "$tmp/fit0" 2-3 -0.1 0.1
check "... of 40000 positions" grep -q '^players 2-3: 40000 positions' "$tmp/fit0"
honest 1 | "$fit" - >"$tmp/fit1" 2>"$tmp/err"
check "... a near 1 for games won more often" coefs "$tmp/fit1" 2-3 0.9 1.1
{ honest 0 7 2; honest 1 9 5; } | "$fit" - >"$tmp/fit3" 2>"$tmp/err"
check "... small crews and large ones apart" \
	grep -q '^players 4-6: 40000 positions' "$tmp/fit3"
check "... a near 0 for 2 players" coefs "$tmp/fit3" 2-3 -0.1 0.1
check "... a near 1 for 5 players" coefs "$tmp/fit3" 4-6 0.9 1.1
honest 1 8 >"$tmp/other"
honest 1 | "$fit" - "$tmp/other" >"$tmp/fit2" 2>"$tmp/err"
rc=$?
expect_rc "calibration_fit with games to check" 0
check "... their table: ten bins, the largest difference under 3 points" \
	awk '/^\| [0-9]+-[0-9]+% \|/ { n++ }
	/^largest \|difference\|/ { d = $8 + 0; seen = 1 }
	END { exit !(n == 10 && seen && d < 3) }' "$tmp/fit2"
check "... each position a game of its own: as many games as positions" \
	awk -F'|' '/^\| [0-9]+-[0-9]+% \|/ { n += $3; if ($3 != $4) bad = 1 }
		END { exit !(n == 40000 && !bad) }' "$tmp/fit2"
{ honest 1 8 | sed 's/^[0-9]*/1/'; } >"$tmp/onegame"
honest 1 | "$fit" - "$tmp/onegame" >"$tmp/fit4" 2>"$tmp/err"
check "... all positions of one game: one game in each bin, a wide interval" \
	awk -F'|' '/^\| [0-9]+-[0-9]+% \|/ { if ($4 != 1) bad = 1; split($7, iv, "-")
		if (iv[2] - iv[1] < 50) bad = 1 } END { exit bad }' "$tmp/fit4"
printf '1 3 0.5 1\n2 3 0.5 x\n' | "$fit" - >/dev/null 2>"$tmp/err"
rc=$?
expect_rc "calibration_fit on a bad line" 1
expect_err "... names it" 'line 2 is not'

timeout 30 "$calibration" --positions 0 >"$tmp/cal3" 2>"$tmp/err"
rc=$?
expect_rc "calibration with --positions 0" 2
expect_err "... says why" '^calibration: --positions'

# ---- the bench of the bots' delay, small ------------------------------------------
BENCH_BOT_MOVES=4 BENCH_BOT_PLAYERS=3 BENCH_BOT_ROLLOUTS=50 timeout 300 \
	bash "$SRCDIR/bench/botlag.sh" "$(dirname "$BUFFERTIME")" >"$tmp/lag" 2>"$tmp/err"
rc=$?
expect_rc "bench/botlag.sh, 4 bot moves: $(cat "$tmp/err")" 0
check "... prints their delays: $(cat "$tmp/lag")" \
	grep -Eq '^bot moves \(3 players\): ([4-9]|[1-9][0-9]+), delay after the move before: median [0-9]+ ms, p99 [0-9]+ ms, largest [0-9]+ ms$' "$tmp/lag"
BENCH_BOT_PLAYERS=7 bash "$SRCDIR/bench/botlag.sh" "$(dirname "$BUFFERTIME")" >/dev/null 2>"$tmp/err"
rc=$?
expect_rc "bench/botlag.sh with 7 players" 2
expect_err "... says why" 'BENCH_BOT_PLAYERS is 2..6'

finish
