#!/usr/bin/env bash
# engines.sh - the web bench (bench/web.sh) on both engines in one run:
# a SQLite file, then a PostgreSQL server on the same machine, in turn,
# BENCH_PAIRS times, so that the machine's changing load falls on both
# alike; prints each run's figures, their medians and PostgreSQL's share
# of SQLite's.  Prints numbers only: slowness is never a failure (an
# error is: exit 1).
#
#   bench/engines.sh [BUILDDIR]
#
# The PostgreSQL server is a throwaway cluster (tests/pg-cluster.sh) with
# its defaults, synchronous_commit = on among them, as the store's FULL
# setting has it; each run gets a database of its own.  The environment:
#   BENCH_PAIRS (3)  runs on each engine;  BENCH_SECS (10)  each wrk run
# and what bench/web.sh takes besides (each of its runs here measures
# one round: BENCH_ROUNDS=1).
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${1:-.}" && pwd) || exit 1
pairs=${BENCH_PAIRS:-3}
case $pairs in ""|*[!0-9]*|0) echo "engines.sh: BENCH_PAIRS must be a number above 0" >&2; exit 2 ;; esac

die() {
	echo "bench/engines.sh: $*" >&2
	exit 1
}

# shellcheck source=tests/pg-cluster.sh
. "$src/tests/pg-cluster.sh"
base=$(mktemp -d /tmp/bt-engines.XXXXXX) || exit 1
chmod 711 "$base"
trap 'pg_cluster_stop "$base/pg"; rm -rf "$base"' EXIT
trap 'exit 1' HUP INT TERM
pg_cluster_start "$base/pg" >/dev/null || die "no PostgreSQL server to run on"
admin=$BT_PG_URL

# run ENGINE N: one web bench on ENGINE (sqlite or postgres) into
# $base/ENGINE.N; its figures, "table cond stale play", into
# $base/ENGINE.N.figures.
run() {
	local engine=$1 n=$2 out=$base/$1.$2
	local -a env=(BENCH_ROUNDS=1 BENCH_RSS_REQUESTS="${BENCH_RSS_REQUESTS:-2000}")
	if [ "$engine" = postgres ]; then
		psql -XAtq "$admin" -c "CREATE DATABASE bench_$n" >/dev/null ||
			die "cannot make a database for run $n"
		env+=(BENCH_DB="${admin/\/buffertime\?//bench_$n?}")
	fi
	env "${env[@]}" bash "$here/web.sh" "$build" >"$out" 2>&1 ||
		die "the $engine run $n failed: $(tail -n 5 "$out")"
	awk '/^table:/ { t = $2 } /^cond:/ { c = $2 } /^stale:/ { s = $2 }
		/^play:/ { p = $2 }
		END { if (t == "" || c == "" || s == "" || p == "") exit 1
		      print t, c, s, p }' "$out" >"$out.figures" ||
		die "the $engine run $n printed no figures: $(tail -n 5 "$out")"
	printf '%-9s run %d: table %7d  cond %7d  stale %7d  play %6d legal moves/s\n' \
		"$engine" "$n" $(cat "$out.figures")
}

echo "engines bench: bench/web.sh, $pairs runs on each engine in turn," \
	"$(getconf _NPROCESSORS_ONLN) cores; PostgreSQL $(psql -XAtq "$admin" \
	-c 'SHOW server_version'), synchronous_commit $(psql -XAtq "$admin" \
	-c 'SHOW synchronous_commit')"
for n in $(seq "$pairs"); do
	run sqlite "$n"
	run postgres "$n"
done

# median ENGINE FIELD: the median of FIELD (1 to 4) over ENGINE's runs.
median() {
	cat "$base/$1".*.figures | awk -v f="$2" '{ print $f }' | sort -n |
		awk '{ v[NR] = $1 }
		END { print NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
targets=(80 "" "" 50)
names=(table cond stale play)
echo "medians of $pairs runs (req/s; play: legal moves/s), PostgreSQL's share:"
for f in 1 2 3 4; do
	s=$(median sqlite "$f")
	p=$(median postgres "$f")
	t=${targets[$((f - 1))]}
	awk -v name="${names[$((f - 1))]}" -v s="$s" -v p="$p" -v t="$t" 'BEGIN {
		share = s > 0 ? 100 * p / s : 0
		aim = t != "" ? " (target " t "%)" : ""
		printf "  %-6s SQLite %7d   PostgreSQL %7d   %5.0f%%%s\n", name, s, p,
		       share, aim }'
done
