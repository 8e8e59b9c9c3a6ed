#!/usr/bin/env bash
# driver_pg.sh - the PostgreSQL driver (db/driver_pg.c) against a real
# server: starts a throwaway cluster (tests/pg-cluster.sh) in a folder of
# its own, runs the Check suite tests/check_driver_pg with its BT_PG_URL,
# and always stops and removes the cluster.  No PostgreSQL server is a
# failure (scripts/install-deps installs it), never a skip.
#
# Environment (set by "make check"): BUFFERTIME, whose folder holds the
# built tests/check_driver_pg.  Exits with the suite's status.
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
suite=$(dirname "$BUFFERTIME")/tests/check_driver_pg
# shellcheck source=tests/pg-cluster.sh
. "$(dirname "$0")/pg-cluster.sh"

if [ ! -x "$suite" ]; then
	echo "FAIL: $suite not built (make check builds it)"
	exit 1
fi
# short (a socket's path is), and searchable by the server's user when
# root runs the test (pg-cluster.sh runs it as nobody then)
base=$(mktemp -d /tmp/bt-pg.XXXXXX) || exit 1
chmod 711 "$base"
trap 'pg_cluster_stop "$base/pg"; rm -rf "$base"' EXIT

if ! pg_cluster_start "$base/pg" >/dev/null; then
	echo "FAIL: no PostgreSQL server to test the driver against"
	exit 1
fi
"$suite"
