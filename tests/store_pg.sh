#!/usr/bin/env bash
# store_pg.sh - the store's Check suites on PostgreSQL: starts one
# throwaway cluster (tests/pg-cluster.sh) in a folder of its own and runs
# every suite that opens a store through tests/fixture.c with
# BT_TEST_ENGINE=postgres and its BT_PG_URL (each test case in a schema
# of its own), then always stops and removes the cluster.  make check
# runs the same suites on SQLite.  No PostgreSQL server is a failure
# (scripts/install-deps installs it), never a skip.
#
# Environment (set by "make check"): BUFFERTIME, whose folder holds the
# built tests/check_*.  Prints each suite's result; exits 1 if any
# failed.
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
tests=$(dirname "$BUFFERTIME")/tests
# shellcheck source=tests/pg-cluster.sh
. "$(dirname "$0")/pg-cluster.sh"

suites="check_store check_store_life check_store_stress check_limits
	check_jobs check_worker check_review_job check_hints check_bot_talk
	check_crew check_block check_takeback check_store_end check_web
	check_compose check_talk_bound check_compose_menu
	check_compose_table check_inbound_act check_mail_budget"

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
BT_TEST_ENGINE=postgres
export BT_TEST_ENGINE

failed=
for s in $suites; do
	start=$SECONDS
	if "$tests/$s" >"$base/$s.log" 2>&1; then
		echo "PASS: $s ($((SECONDS - start)) s)"
	else
		echo "FAIL: $s ($((SECONDS - start)) s):"
		grep -v '^Running suite' "$base/$s.log" | tail -n 40
		failed="$failed $s"
	fi
done
if [ -n "$failed" ]; then
	echo "FAIL on PostgreSQL:$failed"
	exit 1
fi
echo "PASS: every store suite on PostgreSQL"
