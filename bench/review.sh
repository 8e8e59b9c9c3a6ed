#!/bin/sh
# review.sh - how long the worker takes for the post-game review and for
# a practice table's hints, on one core, as the running worker does them
# (`buffertime worker --once`: its rounds, slices and store writes).
#
#   review  the longest of BENCH_REVIEW_GAMES (20) greedy 3-player games
#           (a long game: the worst case), imported finished; the time of
#           the worker's review of it with review_rollouts = BENCH_REVIEW_
#           ROLLOUTS (2000, the default), its moves, the time per move
#           and what a 60-move game would take at that pace; the median
#           of BENCH_REVIEW_RUNS (3) runs, each on a fresh copy.
#   hints   BENCH_HINT_GAMES (20) new practice tables of 3 people, one
#           hints job each (the first turn), done by one worker round
#           with bot_rollouts = BENCH_HINT_ROLLOUTS (4000, the default):
#           the time per turn's hints.
#
# Numbers only: slow is no failure; a review or hint not made is (exit 1).
#
#   bench/review.sh [TOOL]
set -u

tool=${1:-./buffertime}
games=${BENCH_REVIEW_GAMES:-20}
rollouts=${BENCH_REVIEW_ROLLOUTS:-2000}
runs=${BENCH_REVIEW_RUNS:-3}
hint_games=${BENCH_HINT_GAMES:-20}
hint_rollouts=${BENCH_HINT_ROLLOUTS:-4000}

die() {
	echo "bench/review.sh: $*" >&2
	exit 1
}

[ -x "$tool" ] || die "no tool at $tool"
command -v sqlite3 >/dev/null 2>&1 || die "sqlite3 is not installed"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-reviewbench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
unset BUFFERTIME_NOW BUFFERTIME_DB
head -c 32 /dev/urandom >"$tmp/key" && chmod 600 "$tmp/key"

now_ms() {
	echo $(( $(date +%s%N) / 1000000 ))
}

# worker DB ARGS...: one worker left alone until no job is due.
worker() {
	db=$1
	shift
	"$tool" worker --db "$db" --key-file "$tmp/key" \
		--base-url http://bt.example/ --mail-dir "$tmp/mail" --once "$@" \
		2>>"$tmp/worker.log" || die "the worker failed: $(tail -n 2 "$tmp/worker.log")"
}

# ---- the review of a long game ----------------------------------------------
"$tool" sim --games "$games" --players 3 --policy greedy --seed 77 \
	--longest "$tmp/long.rec" >/dev/null || die "sim failed"
moves=$(grep -cE '^[1-6] ' "$tmp/long.rec")
"$tool" admin --db "$tmp/base.db" import "$tmp/long.rec" >/dev/null ||
	die "importing the game failed"
: >"$tmp/times"
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	rm -f "$tmp/run.db"*
	sqlite3 "$tmp/base.db" ".backup '$tmp/run.db'" || die "copying the db"
	t0=$(now_ms)
	worker "$tmp/run.db" --review-rollouts "$rollouts"
	t1=$(now_ms)
	[ "$(sqlite3 "$tmp/run.db" "SELECT count(*) FROM review_moves")" = "$moves" ] ||
		die "the review is not whole"
	echo $((t1 - t0)) >>"$tmp/times"
done
ms=$(sort -n "$tmp/times" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
awk -v ms="$ms" -v m="$moves" -v r="$rollouts" -v n="$runs" 'BEGIN {
	printf "review: a %d-move game in %.1f s (median of %d), %.0f ms a move" \
	    " at %d rollouts: a 60-move game in %.1f s\n",
	    m, ms / 1000, n, ms / m, r, ms / m * 60 / 1000 }'

# ---- a practice table's hints --------------------------------------------------
i=0
while [ "$i" -lt "$hint_games" ]; do
	i=$((i + 1))
	"$tool" admin --db "$tmp/hints.db" create --players 3 --practice \
		--email "a$i@example.org" >/dev/null || die "creating a game"
done
t0=$(now_ms)
worker "$tmp/hints.db" --bot-rollouts "$hint_rollouts"
t1=$(now_ms)
done_=$(sqlite3 "$tmp/hints.db" "SELECT count(*) FROM jobs WHERE kind = 'hints' AND outcome = 'hinted'")
[ "$done_" = "$hint_games" ] || die "$done_ of $hint_games turns hinted"
awk -v ms=$((t1 - t0)) -v n="$hint_games" -v r="$hint_rollouts" 'BEGIN {
	printf "hints: %d turns in %.1f s, %.0f ms a turn at %d rollouts\n",
	    n, ms / 1000, ms / n, r }'
