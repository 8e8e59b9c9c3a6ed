# shellcheck shell=sh disable=SC2154
# testlib.sh - what the shell tests share, sourced after they set $tmp:
# counting results, one-line checks, and running the buffertime tool with
# a time limit.  Each test ends with `finish`, whose last line is the
# plain "N passed, M failed" that CI reads.

pass=0
fail=0

ok() {
	pass=$((pass + 1))
}

not_ok() {
	fail=$((fail + 1))
	echo "FAIL: $*"
}

# check NAME COMMAND...: one test that passes if COMMAND succeeds; NAME
# says what went wrong when it does not.
check() {
	name_=$1
	shift
	if "$@"; then
		ok
	else
		not_ok "$name_"
	fi
}

# run ARGS...: runs the tool with a time limit; stdout in $tmp/out,
# stderr in $tmp/err, exit status in $rc.
run() {
	timeout 30 "$BUFFERTIME" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# expect_rc NAME WANT: checks $rc; a crash (signal) or a timeout is
# always a failure, with its stderr shown.
expect_rc() {
	if [ "$rc" -eq "$2" ]; then
		ok
		return 0
	fi
	if [ "$rc" -gt 128 ] || [ "$rc" -eq 124 ]; then
		not_ok "$1: crashed or timed out (exit $rc)"
	else
		not_ok "$1: exit $rc, want $2"
	fi
	head -c 2000 "$tmp/err"
	return 1
}

# expect_err NAME REGEX: the first stderr line matches the extended regex.
expect_err() {
	if head -n 1 "$tmp/err" | grep -Eq -- "$2"; then
		ok
	else
		not_ok "$1: stderr '$(head -c 300 "$tmp/err")' does not match '$2'"
	fi
}

# free_port: a port of 127.0.0.1 that can be bound now, never 8080 (a
# start's default), from below the kernel's ephemeral range: a port
# drawn from inside it may be any client connection's local port
# meanwhile, which no connect test sees and which a listener cannot take.
free_port() {
	local p low=32768 high
	read -r low high </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
	[ "$low" -gt 11000 ] 2>/dev/null || low=32768
	for _ in $(seq 50); do
		p=$((10000 + (RANDOM * 32768 + RANDOM) % (low - 10000)))
		[ "$p" != 8080 ] || continue
		if python3 -c 'import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))' "$p" 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# finish: the closing line, and the exit status.
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

# ---- the store's engine ------------------------------------------------------
# A test that runs on both engines calls engine_init, then names each
# database by db_new (weblib's up does it for a run folder) and reads it
# with sql.  BT_TEST_ENGINE=postgres (make check TEST_ENGINE=postgres)
# puts its databases in one throwaway PostgreSQL cluster of its own
# (tests/pg-cluster.sh, in $tmp/pg; db_cleanup stops it); unset or
# sqlite, they are the files the test names, as ever.  A test that never
# calls engine_init is on SQLite whatever the variable says: its subject
# is the file.
test_engine=sqlite
pg_dir=
pg_bin=
testlib_dir=$(dirname "$0")

# engine_init: the engine of BT_TEST_ENGINE for this test.
engine_init() {
	case ${BT_TEST_ENGINE:-sqlite} in
	sqlite|postgres) test_engine=${BT_TEST_ENGINE:-sqlite} ;;
	*) echo "FAIL: BT_TEST_ENGINE=$BT_TEST_ENGINE: sqlite or postgres"
	   exit 1 ;;
	esac
	echo "engine: $test_engine"
}

# pg_url NAME: the URL of database NAME of the test's cluster (known
# before the cluster starts: db_of may name a run's database first).
pg_url() {
	echo "postgresql:///$1?host=$tmp/pg&user=buffertime"
}

# pg_name FILE: the database standing for FILE on a server (one for
# each path: a test's files have names of their own).
pg_name() {
	echo "bt_$(printf '%s' "$1" | cksum | cut -d ' ' -f 1)"
}

# pg_start: the test's cluster, started at the first need.  Not being
# able to is a failure, never a skip: the run is about PostgreSQL.
pg_start() {
	[ -z "$pg_dir" ] || return 0
	# shellcheck source=tests/pg-cluster.sh
	. "$testlib_dir/pg-cluster.sh"
	pg_dir=$tmp/pg
	if ! pg_bin=$(pg_cluster_bindir) ||
		! pg_cluster_start "$pg_dir" >/dev/null; then
		not_ok "no PostgreSQL cluster for BT_TEST_ENGINE=postgres"
		finish
	fi
}

# db_new VAR FILE: a new, empty database for what SQLite keeps in FILE
# (which must not exist yet), its target (FILE, or a URL) in VAR.
db_new() {
	if [ "$test_engine" = sqlite ]; then
		eval "$1=\$2"
		return 0
	fi
	pg_start
	db_psql "$(pg_url buffertime)" "CREATE DATABASE $(pg_name "$2")" ||
		{ not_ok "CREATE DATABASE for $2"; finish; }
	# shellcheck disable=SC2034  # read by the eval below
	url_=$(pg_url "$(pg_name "$2")")
	eval "$1=\$url_"
}

# db_drop TARGET: a database gone, as its file removed (with its -wal,
# -shm and lock files), to be made again by db_new.
db_drop() {
	case $1 in
	postgresql:*)
		db_psql "$(pg_url buffertime)" \
			"DROP DATABASE $(echo "$1" | sed 's|^postgresql:///\([^?]*\).*|\1|') WITH (FORCE)" ;;
	*) rm -f "$1" "$1"-* ;;
	esac
}

# db_psql URL QUERY: QUERY on a server, its rows one a line, fields
# joined by | (as sqlite3 prints them); any error ends it, nonzero.
db_psql() {
	"$pg_bin/psql" -XAtq -v ON_ERROR_STOP=1 -d "$1" -c "$2"
}

# db_sql TARGET QUERY: QUERY on the database TARGET (a file or a URL).
db_sql() {
	case $1 in
	postgresql:*) db_psql "$1" "$2" ;;
	*) sqlite3 -batch "$1" "$2" ;;
	esac
}

# sql QUERY: QUERY on the test's database $db.
sql() {
	db_sql "$db" "$1"
}

# db_cleanup: stops the test's cluster, if it started one (its exit
# trap calls it, after stopping what uses it).
db_cleanup() {
	[ -n "$pg_dir" ] || return 0
	pg_cluster_stop "$pg_dir" || echo "FAIL: could not stop the cluster in $pg_dir"
	pg_dir=
}
