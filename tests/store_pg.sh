#!/usr/bin/env bash
# store_pg.sh - the store's Check suites on PostgreSQL: starts one
# throwaway cluster (tests/pg-cluster.sh) in a folder of its own and runs
# every suite that opens a store through tests/fixture.c with
# BT_UNIT_ENGINE=postgres and its BT_PG_URL (each test case in a schema
# of its own), then always stops and removes the cluster.  make check
# runs the same suites on SQLite.  No PostgreSQL server is a failure
# (scripts/install-deps installs it), never a skip.
#
# Environment (set by "make check"): BUFFERTIME, whose folder holds the
# built tests/check_*; BT_PG_JOBS, how many suites run at once (2).
# Prints each suite's result; exits 1 if any failed.
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
tests=$(dirname "$BUFFERTIME")/tests
# shellcheck source=tests/pg-cluster.sh
. "$(dirname "$0")/pg-cluster.sh"

# the store's own suites, the longest first (those of the layers above,
# which open a store to compose emails or render pages, run on SQLite;
# the shell tests take those layers to PostgreSQL through the programs)
suites="check_store check_store_ahead check_store_kept check_store_stress check_store_life check_crew
	check_talk_bound check_review_job check_jobs check_mail_budget
	check_limits check_hints check_takeback check_block check_signin
	check_store_push check_store_notice
	check_store_end
	check_worker"

for s in $suites; do
	if [ ! -x "$tests/$s" ]; then
		echo "FAIL: $tests/$s not built (make check builds it)"
		exit 1
	fi
done
# short (a socket's path is), and searchable by the server's user when
# root runs the test (pg-cluster.sh runs it as nobody then)
base=$(mktemp -d /tmp/bt-pg.XXXXXX) || exit 1
chmod 711 "$base"
trap 'pg_cluster_stop "$base/pg"; rm -rf "$base"' EXIT

if ! pg_cluster_start "$base/pg" >/dev/null; then
	echo "FAIL: no PostgreSQL server to test the store against"
	exit 1
fi
BT_UNIT_ENGINE=postgres
export BT_UNIT_ENGINE
# Each store call is a round trip to the server here, and under the
# sanitizers (scripts/test) every process is slower still: a test case's
# time limit (CK_DEFAULT_TIMEOUT) stretches by this much.
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-3}
export CK_TIMEOUT_MULTIPLIER

# Two suites at a time: each waits on the server about as much as it
# computes, so two keep a 2-core machine busy.  Each suite's log and
# result are kept, and reported in the list's order.
njobs=${BT_PG_JOBS:-2}
run_suite() {
	local s=$1 start=$SECONDS rc=0
	"$tests/$s" >"$base/$s.log" 2>&1 || rc=$?
	echo "$rc $((SECONDS - start))" >"$base/$s.rc"
}
for s in $suites; do
	while [ "$(jobs -pr | wc -l)" -ge "$njobs" ]; do
		wait -n
	done
	run_suite "$s" &
done
wait

failed=
for s in $suites; do
	read -r rc took <"$base/$s.rc" || rc=missing
	if [ "$rc" = 0 ]; then
		echo "PASS: $s ($took s)"
	else
		echo "FAIL: $s (status $rc, $took s):"
		grep -v '^Running suite' "$base/$s.log" | tail -n 40
		failed="$failed $s"
	fi
done

# An address's seats (My games, "Email me my games") are found by the
# index of their key, not by reading every seat: the statement as
# db/sql.c has it, the planner told to avoid whole-table reads (with a
# handful of rows it would read the table anyway).
url=${BT_PG_URL/\/buffertime\?//seats_plan?}
plan=
if psql -XAtq -v ON_ERROR_STOP=1 "$BT_PG_URL" -c "CREATE DATABASE seats_plan" &&
	timeout 60 "$BUFFERTIME" admin --db "$url" list >/dev/null; then
	plan=$(psql -XAtq -v ON_ERROR_STOP=1 "$url" -c "SET enable_seqscan = off" \
		-c "EXPLAIN SELECT s.game, s.seat FROM seats AS s
		    JOIN games AS g ON g.id = s.game
		    WHERE s.email <> '' AND s.bot = ''
		    AND address_key(s.email) = 'ann@example.org'
		    ORDER BY g.updated DESC, s.game, s.seat LIMIT 50" 2>&1)
fi
if grep -q seats_by_address <<<"$plan"; then
	echo "PASS: an address's seats are found by their index"
else
	echo "FAIL: an address's seats are not found by their index: $plan"
	failed="$failed seats_by_address"
fi
if [ -n "$failed" ]; then
	echo "FAIL on PostgreSQL:$failed"
	exit 1
fi
echo "PASS: every store suite on PostgreSQL"
