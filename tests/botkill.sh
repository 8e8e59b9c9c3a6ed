#!/bin/bash
# botkill.sh - the worker's bot turns under fire: games whose every seat
# is the search bot are played by `buffertime worker` alone, while it is
# killed with SIGKILL at random moments (BOTKILL_KILLS times, after 50 to
# 400 ms of work each, longer on a machine too slow for a move in that;
# its pid only, as a crash would) and started
# again (more games are made if a fast machine finishes them first);
# then a worker left alone (--once) plays them to the end, however slow
# this machine is.  Then the count:
#   lost work    a game still waiting for a move, or a job not done: 0;
#   two moves    one job per turn and one record line per job: a job
#                whose move went in before the kill, done again, is
#                refused (the game moved on) and marked stale, never
#                played twice;
#   and admin check passes, every line is marked as the bot's, no job
# failed, and the worker was killed at least 20 times.  Last, a job
# whose move is in is made to do again (as a kill between the move and
# its mark leaves it): it is found stale, and no second move is made.
# BOTKILL_GAMES (6), BOTKILL_KILLS (30), BOTKILL_ROLLOUTS (2000: the
# bot's budget a move) change the run.  BT_TEST_ENGINE=postgres: on a
# PostgreSQL server (testlib.sh).
# shellcheck disable=SC2317  # cleanup runs from the EXIT trap
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
unset BUFFERTIME_DB BUFFERTIME_NOW

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-botkill.XXXXXX") || exit 1
worker=
cleanup() {
	[ -z "$worker" ] || kill -KILL "$worker" 2>/dev/null
	db_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

games=${BOTKILL_GAMES:-6}
rollouts=${BOTKILL_ROLLOUTS:-2000}
review_rollouts=${BOTKILL_REVIEW_ROLLOUTS:-100}
want_kills=${BOTKILL_KILLS:-30}
engine_init
db_new db "$tmp/games.db"
key=$tmp/server.key
head -c 32 /dev/urandom >"$key" && chmod 600 "$key"

# sql QUERY: read-only on SQLite (the worker writes the file meanwhile)
sql() {
	if [ "$test_engine" = sqlite ]; then
		sqlite3 -batch "file:$db?mode=ro" "$1" 2>/dev/null
	else
		db_sql "$db" "$1"
	fi
}

# more N: N more all-bot games.
more() {
	for _ in $(seq "$1"); do
		timeout 30 "$BUFFERTIME" admin --db "$db" create --players 3 \
			--bot 1 --bot 2 --bot 3 >/dev/null ||
			not_ok "creating an all-bot game"
	done
}
more "$games"
check "every game's first turn is a job" \
	[ "$(sql "SELECT count(*) FROM jobs WHERE kind = 'move'")" = "$games" ]

# A random pause of 50 ms up to the ceiling.  The ceiling starts at
# 400 ms, doubles (to 6.4 s at most) after each life that made no move
# and halves (to 400 ms) after one that made some: a sanitized worker
# beside a test that takes both cores needs more than 400 ms for a
# move, and then no kill would land after one.
ceiling=400
pause() {
	ms=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % (ceiling - 50) + 50 ))
	sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
}

kills=0
while [ "$kills" -lt "$want_kills" ]; do
	# a fast machine finishes them before the kills are done
	if [ "$(sql "SELECT count(*) FROM games WHERE status = 'playing'")" = 0 ]; then
		more 2
		games=$((games + 2))
	fi
	before=$(sql 'SELECT count(*) FROM actions')
	"$BUFFERTIME" worker --db "$db" --key-file "$key" \
		--base-url http://bt.example/ --mail-dir "$tmp/mail" --poll 1 \
		--bot-rollouts "$rollouts" --review-rollouts "$review_rollouts" 2>>"$tmp/worker.err" &
	worker=$!
	pause
	kill -KILL "$worker" 2>/dev/null && kills=$((kills + 1))
	wait "$worker" 2>/dev/null
	worker=
	if [ "$(sql 'SELECT count(*) FROM actions')" = "$before" ]; then
		[ "$ceiling" -ge 6400 ] || ceiling=$((ceiling * 2))
	elif [ "$ceiling" -gt 400 ]; then
		ceiling=$((ceiling / 2))
	fi
done
under_fire=$(sql 'SELECT count(*) FROM actions')
# On SQLite the worker's lock file tells it that no other runs, and it
# takes back at once what a killed one claimed.  On a server workers on
# several hosts may run: a killed one's job is taken back when its lease
# (STORE_JOB_LEASE, 60 s) ends, so this worker's clock is past it.
late=()
[ "$test_engine" = sqlite ] || late=(env "BUFFERTIME_NOW=$(($(date +%s) + 3600))")
timeout 300 "${late[@]}" "$BUFFERTIME" worker --db "$db" --key-file "$key" \
	--base-url http://bt.example/ --mail-dir "$tmp/mail" --once \
	--bot-rollouts "$rollouts" --review-rollouts "$review_rollouts" 2>>"$tmp/worker.err"
check "the worker left alone finished (exit $?)" [ $? -eq 0 ]

moves=$(sql 'SELECT count(*) FROM actions')
jobs=$(sql "SELECT count(*) FROM jobs WHERE kind = 'move'")
reviewed=$(sql "SELECT count(*) FROM jobs WHERE outcome = 'reviewed'")
rows=$(sql 'SELECT count(*) FROM review_moves')
moved=$(sql "SELECT count(*) FROM jobs WHERE outcome = 'moved'")
stale=$(sql "SELECT count(*) FROM jobs WHERE outcome = 'stale'")
echo "games $games, moves $moves ($under_fire while the worker was killed" \
	"$kills times, pauses up to $ceiling ms), bot turns $jobs (moved" \
	"$moved, stale $stale: done again after a kill), reviews $reviewed" \
	"($rows moves weighed)"
grep 'buffertime worker: game' "$tmp/worker.err" | head -n 5
check "every game is over" \
	[ "$(sql "SELECT count(*) FROM games WHERE status = 'playing'")" = 0 ]
check "no job is left to do" \
	[ "$(sql 'SELECT count(*) FROM jobs WHERE done IS NULL')" = 0 ]
check "no job failed ($(grep -c 'buffertime worker: game' "$tmp/worker.err") failures logged)" \
	[ "$(sql "SELECT count(*) FROM jobs WHERE outcome LIKE 'failed%'")" = 0 ]
check "one job per turn, one move per job ($jobs jobs, $moves moves)" \
	[ "$jobs" = "$moves" ]
check "every game reviewed once ($reviewed reviews)" \
	[ "$reviewed" = "$games" ] &&
	[ "$(sql "SELECT count(*) FROM jobs WHERE kind = 'review'")" = "$games" ]
check "one review row per move, none missing ($rows rows)" \
	[ "$rows" = "$moves" ]
check "every move marked as the bot's" \
	[ "$(sql "SELECT count(*) FROM actions WHERE made_by <> 'bot'")" = 0 ]
check "at least 20 kills ($kills)" [ "$kills" -ge 20 ]
check "moves were made under fire ($under_fire)" [ "$under_fire" -gt 0 ]
run admin --db "$db" check
expect_rc "admin check after the kills" 0

# A kill after a move went in and before its job was marked: the job is
# done again, and its move refused, not made twice.
last_move="(SELECT max(id) FROM jobs WHERE kind = 'move')"
db_sql "$db" "UPDATE jobs SET done = NULL, outcome = '', due = 0
	WHERE id = $last_move" || not_ok "undoing a job's mark"
timeout 60 "$BUFFERTIME" worker --db "$db" --key-file "$key" \
	--base-url http://bt.example/ --mail-dir "$tmp/mail" --once \
	--bot-rollouts "$rollouts" --review-rollouts "$review_rollouts" 2>>"$tmp/worker.err"
check "a job done again after its move: marked stale" \
	[ "$(sql "SELECT outcome FROM jobs WHERE id = $last_move")" = stale ]
check "... and no second move ($moves lines)" \
	[ "$(sql 'SELECT count(*) FROM actions')" = "$moves" ]

# A review done again (killed after its last row, before its mark)
# finds every move in and adds nothing.
last_review="(SELECT max(id) FROM jobs WHERE kind = 'review')"
figures="SELECT chance_before FROM review_moves ORDER BY game, move"
before=$(sql "$figures")
db_sql "$db" "UPDATE jobs SET done = NULL, outcome = '', due = 0
	WHERE id = $last_review" || not_ok "undoing a review's mark"
timeout 60 "$BUFFERTIME" worker --db "$db" --key-file "$key" \
	--base-url http://bt.example/ --mail-dir "$tmp/mail" --once \
	--bot-rollouts "$rollouts" --review-rollouts "$review_rollouts" \
	2>>"$tmp/worker.err"
check "a review done again: reviewed, the same figures" \
	[ "$(sql "SELECT outcome FROM jobs WHERE id = $last_review")" = reviewed ] &&
	[ "$(sql 'SELECT count(*) FROM review_moves')" = "$rows" ] &&
	[ "$(sql "$figures")" = "$before" ]

# A job claimed many times over (its workers killed each time) is still
# played, never given up: a game must not stall for its worker's deaths.
more 1
db_sql "$db" "UPDATE jobs SET attempts = 9 WHERE done IS NULL" ||
	not_ok "marking a job as tried often"
timeout 60 "$BUFFERTIME" worker --db "$db" --key-file "$key" \
	--base-url http://bt.example/ --mail-dir "$tmp/mail" --once \
	--bot-rollouts "$rollouts" --review-rollouts "$review_rollouts" 2>>"$tmp/worker.err"
check "a job tried 9 times is still played, and its game to the end" \
	[ "$(sql "SELECT count(*) FROM games WHERE status = 'playing'")" = 0 ]
check "... no job failed" \
	[ "$(sql "SELECT count(*) FROM jobs WHERE outcome LIKE 'failed%'")" = 0 ]

finish
