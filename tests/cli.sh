#!/bin/sh
# cli.sh - drives the real buffertime tool: "new", "replay" against the
# golden files of tests/data, the error format of RECORD.md, and garbage
# input that must end in an error or a result, never a crash or a hang.
#
# Environment (set by "make check"): BUFFERTIME, the built tool; TESTDATA,
# the tests/data folder of the source tree (read only).
#
# Golden files in TESTDATA, for each NAME.rec:
#   NAME.json        the view printed by "replay NAME.rec" (exit 0)
#   NAME.seatN.json  the view printed by "replay --seat N NAME.rec"
#   NAME.err         the start of the error line, "NAME.rec:LINE: rule RN:"
#                    (exit 1); the reason after it may be reworded freely
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${TESTDATA:?set TESTDATA to the tests/data folder}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

HEAD='buffertime 1
players 3
first 2
seed 9f86d081884c7d65'

# ---- new ------------------------------------------------------------------

run new --players 3
expect_rc "new --players 3" 0
if [ "$(wc -l <"$tmp/out")" -eq 4 ] &&
   [ "$(sed -n 1p "$tmp/out")" = "buffertime 1" ] &&
   [ "$(sed -n 2p "$tmp/out")" = "players 3" ] &&
   sed -n 3p "$tmp/out" | grep -Eq '^first [1-3]$' &&
   sed -n 4p "$tmp/out" | grep -Eq '^seed [0-9a-f]{64}$'; then
	ok
else
	not_ok "new --players 3: output shape: $(cat "$tmp/out")"
fi
cp "$tmp/out" "$tmp/new1"
run new --players 3
if [ "$(sed -n 4p "$tmp/out")" != "$(sed -n 4p "$tmp/new1")" ]; then
	ok
else
	not_ok "new: two runs gave the same seed"
fi
run replay "$tmp/new1"
expect_rc "new's header replays" 0

run new --players 2 --first 2 --seed 00FFab
expect_rc "new with all options" 0
if [ "$(cat "$tmp/out")" = "buffertime 1
players 2
first 2
seed 00FFab" ]; then
	ok
else
	not_ok "new with all options: $(cat "$tmp/out")"
fi

for args in "" "--players" "--players 1" "--players 7" "--players 03" \
    "--players x" "--players 3 --players 3" "--players 3 --first 4" \
    "--players 3 --first 0" "--players 3 --seed xyz" "--players 3 --seed" \
    "--players 3 --seed 00000000000000000000000000000000000000000000000000000000000000000" \
    "--players 3 --bogus 1" "--first 1"; do
	# shellcheck disable=SC2086  # the words are the arguments
	run new $args
	expect_rc "new $args" 2 && expect_err "new $args" '^buffertime new: '
done

# ---- replay: golden files -------------------------------------------------

cd "$TESTDATA" || exit 1
for rec in *.rec; do
	name=${rec%.rec}
	found=no
	if [ -f "$name.json" ]; then
		found=yes
		run replay "$rec"
		expect_rc "replay $rec" 0 &&
		if cmp -s "$tmp/out" "$name.json"; then
			ok
		else
			not_ok "replay $rec: view differs from $name.json"
			diff "$name.json" "$tmp/out" | head -n 10
		fi
	fi
	for want in "$name".seat*.json; do
		[ -f "$want" ] || continue
		found=yes
		seat=${want#"$name".seat}
		seat=${seat%.json}
		run replay --seat "$seat" "$rec"
		expect_rc "replay --seat $seat $rec" 0 &&
		if cmp -s "$tmp/out" "$want"; then
			ok
		else
			not_ok "replay --seat $seat $rec: view differs from $want"
			diff "$want" "$tmp/out" | head -n 10
		fi
	done
	if [ -f "$name.err" ]; then
		found=yes
		run replay "$rec"
		expect_rc "replay $rec" 1
		want=$(cat "$name.err")
		case "$(head -n 1 "$tmp/err")" in
		"$want "?*)
			ok ;;
		*)
			not_ok "replay $rec: stderr '$(cat "$tmp/err")', want" \
			       "'$want ...'" ;;
		esac
		check "replay $rec: printed a view" [ ! -s "$tmp/out" ]
	fi
	[ "$found" = yes ] || not_ok "$rec has no golden file"
done
cd "$tmp" || exit 1

# The same record from standard input, and with CRLF line ends.
run replay - <"$TESTDATA/sample.rec"
expect_rc "replay - <sample.rec" 0
check "replay from stdin differs" cmp -s "$tmp/out" "$TESTDATA/sample.json"
sed 's/$/\r/' "$TESTDATA/sample.rec" >crlf.rec
run replay crlf.rec
expect_rc "replay crlf.rec" 0
check "replay of a CRLF record differs" \
	cmp -s "$tmp/out" "$TESTDATA/sample.json"
# A last line without its newline still counts.
printf '%s\n2 work' "$HEAD" >nonl.rec
run replay nonl.rec
expect_rc "last line without newline" 0
check "last line was lost" grep -q '"actions": 1,' "$tmp/out"

# ---- replay: errors -------------------------------------------------------

printf '%s\n2 work\n1 work\n' "$HEAD" >turn.rec
run replay turn.rec
expect_rc "illegal turn" 1 && expect_err "illegal turn" '^turn\.rec:6: rule R6: .+'
check "illegal turn: printed a view" [ ! -s "$tmp/out" ]

printf '%s\n2 jump\n' "$HEAD" | {
	timeout 30 "$BUFFERTIME" replay - >"$tmp/out" 2>"$tmp/err"
	echo $? >"$tmp/rc"
}
rc=$(cat "$tmp/rc")
expect_rc "stdin error" 1 && expect_err "stdin error" '^<stdin>:5: rule R11: .+'

: >empty.rec
run replay empty.rec
expect_rc "empty record" 1 && expect_err "empty record" '^empty\.rec:1: rule R11: '

run replay --seat 4 "$TESTDATA/sample.rec"
expect_rc "--seat 4 of 3" 2
for args in "" "--seat" "--seat 0 x.rec" "--seat 7 x.rec" "--seat x x.rec" \
    "a.rec b.rec" "--bogus x.rec" "no-such-file.rec"; do
	# shellcheck disable=SC2086
	run replay $args
	expect_rc "replay $args" 2
done

# ---- garbage in: an error or a result, never a crash or a hang ---------

head -c 1000000 /dev/urandom >random.bin
run replay random.bin
expect_rc "1 MB of random bytes" 1 && expect_err "random bytes" '^random\.bin:1: rule R11: '

{ printf '%s\n' "$HEAD"; head -c 1000000 /dev/urandom; } >random-body.bin
run replay random-body.bin
expect_rc "random bytes after a header" 1 &&
	expect_err "random bytes after a header" '^random-body\.bin:[0-9]+: rule R11: '

head -c 1000000 /dev/zero >zeros.bin
run replay zeros.bin
expect_rc "1 MB of NUL bytes" 1

{ printf '%s\n' "$HEAD"; head -c 2097152 /dev/zero | tr '\0' x; echo; } >long.rec
run replay long.rec
expect_rc "a 2 MB line" 1 && expect_err "a 2 MB line" '^long\.rec:5: rule R11: line too long'

head -c 2097152 /dev/zero | tr '\0' '#' >long1.rec
run replay long1.rec
expect_rc "a 2 MB first line" 1 && expect_err "a 2 MB first line" '^long1\.rec:1: '

{ printf '%s\n' "$HEAD"; yes '# a comment' | head -n 1000000; } >comments.rec
run replay comments.rec
expect_rc "10^6 comment lines" 0

{ printf '%s\n' "$HEAD"; yes '' | head -n 1000000; } >blank.rec
run replay blank.rec
expect_rc "10^6 blank lines" 0

{ printf '%s\n' "$HEAD"; yes '1 work' | head -n 1000000; } >work.rec
run replay work.rec
expect_rc "10^6 work lines" 1 && expect_err "10^6 work lines" '^work\.rec:5: rule R6: '

{ printf '%s\n' "$HEAD"; yes '2 work' | head -n 1000000; } >work2.rec
run replay work2.rec
expect_rc "10^6 work lines by seat 2" 1

{ printf '%s\n' "$HEAD"; yes 'stack shift S01' | head -n 100000; } >stacks.rec
run replay stacks.rec
expect_rc "10^5 header stack lines" 1

# sim: the results depend on the seed only, not on the number of jobs
for j in 1 2; do
	run sim --games 2000 --players all --policy greedy --seed 42 --jobs $j
	expect_rc "sim --jobs $j" 0
	grep -E '^(players|total)' "$tmp/out" | sed 's/, [0-9]* games\/s$//' >"sim$j"
done
check "sim --jobs 1 and 2 disagree" cmp -s sim1 sim2
check "sim prints no total line" grep -q '^total: 10000 games, [0-9]* wins$' sim1
run sim --games 300 --players 4 --policy random --seed 7 --check
expect_rc "sim --check" 0

# ---- the search bot in sim and play (tiny budgets) -------------------------

run sim --games 4 --players 2 --policy search --rollouts 20 --seed 5
expect_rc "sim --policy search" 0
check "sim search: no result line" \
	grep -Eq '^players 2: 4 games, [0-9.]+% won' "$tmp/out"
check "sim search: no margin and timing line" grep -Eq '^players 2: Leisure margin [-+][0-9.]+; [0-9]+ decisions with a choice: median [0-9.]+ ms, p99 [0-9.]+ ms; [0-9]+ rollouts/s$' "$tmp/out"
# a budget in rollouts: the results depend on the seed only
for j in 1 2; do
	run sim --games 6 --players 3 --policy search --rollouts 16 --seed 9 --jobs $j
	expect_rc "sim search --jobs $j" 0
	grep '^players 3: 6 games' "$tmp/out" | sed 's/, [0-9]* games\/s$//' >"search$j"
done
check "sim search --jobs 1 and 2 disagree" cmp -s search1 search2
check "sim search printed no result" [ -s search1 ]
run sim --games 20 --players 3 --policy clairvoyant --seed 3
expect_rc "sim --policy clairvoyant" 0
run sim --games 2 --players 2 --policy search --think 2 --variant noprune --seed 1
expect_rc "sim search --think --variant" 0
run sim --games 10 --players 2 --policy greedy --seed 1 --detail
expect_rc "sim --detail" 0
check "sim --detail: no margin line" \
	grep -Eq '^players 2: Leisure margin [-+][0-9.]+; [0-9]+ decisions' "$tmp/out"
for args in "--policy greedy --rollouts 5" "--policy search --rollouts 0" \
    "--policy search --think 5 --rollouts 5" "--policy search --variant x" \
    "--policy clairvoyant --think 5" "--policy search --think"; do
	# shellcheck disable=SC2086
	run sim --games 1 --players 2 $args
	expect_rc "sim $args" 2
done

# play: bots in every seat play a whole game without input, and its
# record replays to the end; the same seed plays the same game
for n in 1 2; do
	run play --players 3 --seed 2a --bot 1 --bot 2=greedy --bot 3=random \
		--rollouts 30 </dev/null
	expect_rc "play with three bots ($n)" 0
	sed -n '/^--- game record ---$/,$p' "$tmp/out" | sed 1d >"bots$n.rec"
done
check "the bots played another game from the same seed" cmp -s bots1.rec bots2.rec
run replay bots1.rec
expect_rc "the bots' record replays" 0
check "the bots' game did not end" grep -Eq '"status": "(won|lost)"' "$tmp/out"
# a person and a bot: the bot moves, the person is asked, input ends
run play --players 2 --seed 7 --first 2 --bot 2 --rollouts 10 </dev/null
expect_rc "play with a bot and a person" 0
check "the bot did not move first" grep -q '^==== Round 1, seat 2 (a bot) ====$' "$tmp/out"
check "the person was not asked" grep -q '^Seat 1, choose' "$tmp/out"
check "the bot's hand was shown" sh -c "! grep -q 'Your hand (seat 2)' '$tmp/out'"
for args in "--bot 4" "--bot 0" "--bot 1=smart" "--bot 1 --rollouts 0" \
    "--players 2 --bot 3" "--bot x" "--think"; do
	# shellcheck disable=SC2086
	run play $args </dev/null
	expect_rc "play $args" 2
done

# review: where a recorded game was won or lost (the figures themselves
# are checked by check_review); the rigged loss ends at 0%
run review --rollouts 200 "$TESTDATA/loss.rec"
expect_rc "review loss.rec" 0
check "the review says the game was lost" grep -q '^A 3-player game, lost: Leisure 0, goal 20\.$' "$tmp/out"
check "the review lists the six moves" test "$(grep -cE '^ +[1-6] +[1-5] [1-3] work ' "$tmp/out")" -eq 6
check "the last move took the chance to 0%" grep -qE '^ +6 +5 1 work +[0-9]+% +[0-9]+% +0%' "$tmp/out"
check "the review names its turning points in words" grep -q '^- Round 5, move 6: Seat 1 got to work' "$tmp/out"
cp "$tmp/out" "$tmp/review1.txt"
run review --rollouts 200 - <"$TESTDATA/loss.rec"
check "the same record, rollouts and seed give the same review" cmp -s "$tmp/out" "$tmp/review1.txt"
run review --json --rollouts 200 --seed 3 "$TESTDATA/example.rec"
expect_rc "review --json example.rec" 0
check "the JSON review parses, one entry a move" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["result"] == "playing" and r["seed"] == "3" and r["rollouts"] == 200
assert len(r["moves"]) == int(sys.argv[2]), len(r["moves"])
for k, m in enumerate(r["moves"]):
    assert m["move"] == k + 1 and 0 <= m["before"] <= 1 and 0 <= m["after"] <= 1
assert 1 <= len(r["turning_points"]) <= 3
' "$tmp/out" "$(grep -cE '^[1-6] ' "$TESTDATA/example.rec")"
for args in "" "--rollouts 0 x.rec" "--rollouts" "--seed -1 x.rec" \
    "--colour x.rec" "a.rec b.rec"; do
	# shellcheck disable=SC2086
	run review $args
	expect_rc "review $args" 2
done
run review "$tmp/none.rec"
expect_rc "review of a missing file" 2
printf 'buffertime 1\nplayers 3\n' >"$tmp/short.rec"
run review "$tmp/short.rec"
expect_rc "review of a record without a seed" 1
check "a bad record is named with its line" grep -q 'short.rec:2: rule' "$tmp/err"

finish
