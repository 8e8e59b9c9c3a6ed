#!/usr/bin/env bash
# practice.sh - practice tables for real: nginx, buffertime.fcgi and the
# worker (`buffertime worker`, as scripts/web starts it, writing emails
# to a folder) on loopback, driven with curl.
#
#   the form   the new-game form has the practice box; a value it does
#              not have is refused with the reason, no game made.
#   hints      Ann and Bob at a practice table: both tables say hints are
#              on; the worker weighs the first turn (the time printed);
#              Ann, to move, sees each form's chance of winning, Bob sees
#              none; after Ann's move the hints are Bob's, and Ann's are
#              gone.
#   marked     the history and the record (a comment line) say it is a
#              practice table, and so does every email; My games marks
#              it, and a game with a bot seat as "with bot moves" too.
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
web_test_start practice nginx curl sqlite3
seed=3
maildir=$tmp/mail
run=$tmp/run

# wait_for WHAT SQL WANT: polls the store (30 s at most) until SQL gives
# WANT; prints how long it took; 0 if it did.
wait_for() {
	local start=$SECONDS
	for _ in $(seq 300); do
		if [ "$(sql "$2")" = "$3" ]; then
			echo "$1: $((SECONDS - start)) s"
			return 0
		fi
		sleep 0.1
	done
	not_ok "$1: after 30 s, $(sql "$2"), want $3"
	return 1
}

up "$run" --mailer "$maildir" --mail-poll 1 --set bot_rollouts=300
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db

# ---- the form -------------------------------------------------------------------
req "" GET "$base"
check "the form has the practice box" \
	grep -q 'name="practice" value="1"' "$tmp/b"
req "" POST "${base}new" "name1=Ann&name2=Bob&first=1&practice=yes"
expect_code "a practice box with a made-up value" 400
check "... says why" grep -q 'The practice table box sent a value' "$tmp/b"
check "... no game made" test "$(sql 'SELECT count(*) FROM games')" = 0

# ---- Ann and Bob at a practice table -------------------------------------------
req "" POST "${base}new" "name1=Ann&email1=ann%40example.org&name2=Bob&email2=bob%40example.org&first=1&practice=1"
expect_code "create a practice table" 200
game=$(sql 'SELECT id FROM games')
mapfile -t links < <(grep -o "${base}g/$game?t=[A-Za-z0-9_-]*" "$tmp/b" |
	awk '!seen[$0]++')
links=("" "${links[@]}")
check "the game is a practice table" \
	test "$(sql "SELECT practice FROM games WHERE id = '$game'")" = 1
jar=("" "$tmp/jar1" "$tmp/jar2")
for s in 1 2; do
	req "${jar[$s]}" GET "${links[$s]}"
	expect_code "seat $s opens its link" 303
done
wait_for "the first turn's hints" \
	"SELECT outcome FROM jobs WHERE game = '$game' AND kind = 'hints' AND seq = 0" hinted
page 1
check "Ann's table says hints are on" grep -q 'A practice table: hints on' "$tmp/b"
check "Ann, to move, sees the chance of winning of work and log" \
	test "$(grep -c '<p class="form-hint">Chance of winning: [0-9]*%' "$tmp/b")" -ge 2
check "... and one of them, the best, says why" \
	test "$(grep -c '<p class="form-hint">Chance of winning: .*Why: .*games in 100\.' "$tmp/b")" = 1
check "... the others: the best, about equal, or a plain figure" \
	test "$(grep -c '<p class="form-hint">Chance of winning: [^<]*\(the best option\|about equal\|%\.\)' "$tmp/b")" -ge 2
page 2
check "Bob's table says hints are on" grep -q 'A practice table: hints on' "$tmp/b"
check "... and shows him no hint: not his turn" \
	sh -c "! grep -q 'Chance of winning' '$tmp/b'"
step || not_ok "Ann could not move"
wait_for "the next turn's hints" \
	"SELECT outcome FROM jobs WHERE game = '$game' AND kind = 'hints' AND seq = 1" hinted
page 2
check "now Bob sees the hints" grep -q 'class="form-hint">Chance of winning' "$tmp/b"
page 1
check "... and Ann no longer" sh -c "! grep -q 'Chance of winning' '$tmp/b'"

# ---- marked everywhere ------------------------------------------------------------
req "${jar[1]}" GET "${base}g/$game/history"
check "the history says it is a practice table" \
	grep -q 'A practice table: hints on' "$tmp/b"
req "${jar[1]}" GET "${base}g/$game/record"
at=$(grep -n -x "# practice table: hints on (the player to move saw each action's chance of winning)" "$tmp/b" | cut -d: -f1)
first=$(grep -n -E '^[1-6] ' "$tmp/b" | head -n 1 | cut -d: -f1)
check "the record says so in a comment, before its moves (line ${at:-none})" \
	test -n "$at" -a -n "$first" -a "${at:-9}" -lt "${first:-0}"
req "${jar[1]}" GET "${base}games"
check "My games marks it" grep -q 'playing · practice table (hints on)' "$tmp/b"
# The worker's searches and emails run at nice 10 (in a scheduling group
# of their own): beside a parallel test they may wait many seconds.
n=0
start=$SECONDS
for _ in $(seq 300); do
	# (-- because a game id may begin with "-")
	n=$(grep -lF -- "$game" "$maildir"/*.eml 2>/dev/null | wc -l)
	[ "$n" -ge 2 ] && break
	sleep 0.2
done
echo "the game's first emails: $((SECONDS - start)) s"
check "emails were sent ($n, after $((SECONDS - start)) s)" test "$n" -ge 2
check "every email of the game says it is a practice table" \
	test "$(grep -L 'A practice table: hints on' $(grep -lF -- "$game" "$maildir"/*.eml) | wc -l)" = 0

req "" POST "${base}new" "name1=Cy&email1=cy%40example.org&bot2=1&first=1"
expect_code "create Cy and a bot" 200
other=$(sql "SELECT id FROM games WHERE id <> '$game'")
link=$(grep -o "${base}g/$other?t=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
req "${jar[1]}" GET "$link"
req "${jar[1]}" GET "${base}games"
check "My games marks a game with a bot seat" \
	grep -q 'playing · with bot moves' "$tmp/b"

finish
