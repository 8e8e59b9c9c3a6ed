#!/bin/sh
# bots.sh - how good the crews are: for 2 to 6 players, the random and
# greedy policies, the honest search bot and the clairvoyant bound, on
# fixed seeds, one job (one core).  Prints a Markdown table: games, win
# rate with its 95% Wilson interval, mean Leisure margin (final Leisure
# less the goal), time per decision with a choice (median, p99), and the
# search's rollouts per second.  Numbers only: slowness never fails
# (an error does: exit 1).
#
#   bench/bots.sh [FAST_GAMES [SEARCH_GAMES [ROLLOUTS [PLAYERS]]]]
#
# FAST_GAMES (2000) games per cell for random, greedy and clairvoyant;
# SEARCH_GAMES (1000) for the search (about 1,000 games give a 95%
# interval of +-3 points); ROLLOUTS (the default budget, 4000) games the
# search plays out per decision; PLAYERS (2 3 4 5 6) the player counts.
# BUFFERTIME (default ./buffertime) is the tool, SEED (1) the seed.
# Run it niced on a shared machine: the search cells take minutes.
set -eu

fast=${1:-2000}
slow=${2:-1000}
rollouts=${3:-4000}
counts=${4:-2 3 4 5 6}
tool=${BUFFERTIME:-./buffertime}
seed=${SEED:-1}

[ -x "$tool" ] || { echo "bots.sh: no tool at $tool" >&2; exit 1; }

# cell PLAYERS POLICY GAMES [ARGS]: one row of the table
cell() {
	p=$1 pol=$2 n=$3
	shift 3
	out=$("$tool" sim --games "$n" --players "$p" --policy "$pol" \
		--seed "$seed" --jobs 1 --detail "$@") ||
		{ echo "bots.sh: sim $p $pol failed" >&2; exit 1; }
	printf '%s\n' "$out" | awk -v p="$p" -v pol="$pol" '
	/% won/ {
		split($0, a, ", "); games = a[1]; sub(/.*: /, "", games)
		sub(/ games/, "", games)
		won = a[2]; sub(/ won.*/, "", won)
		iv = $0; sub(/.*won \[/, "", iv); sub(/\].*/, "", iv)
		sub(/, /, " - ", iv)
	}
	/Leisure margin/ {
		m = $0; sub(/.*margin /, "", m); sub(/;.*/, "", m)
		med = "-"; p99 = "-"; rps = "-"
		if ($0 ~ /median/) {
			med = $0; sub(/.*median /, "", med); sub(/,.*/, "", med)
			p99 = $0; sub(/.*p99 /, "", p99); sub(/;.*/, "", p99)
			rps = $0; sub(/.*; /, "", rps); sub(/ rollouts.*/, "", rps)
		}
	}
	END {
		if (rps == "0") rps = "-"
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", \
		    p, pol, games, won, iv, m, med, p99, rps
	}'
}

echo "seed $seed, one job; search: $rollouts rollouts a decision"
echo
echo "| players | policy | games | won | 95% interval | Leisure margin | median | p99 | rollouts/s |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in $counts; do
	cell "$p" random "$fast"
	cell "$p" greedy "$fast"
	cell "$p" search "$slow" --rollouts "$rollouts"
	cell "$p" clairvoyant "$fast"
done
