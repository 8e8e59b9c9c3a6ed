# shellcheck shell=bash
# pg-cluster.sh - a throwaway PostgreSQL cluster for the tests, sourced
# (it only defines functions):
#
#   pg_cluster_start DIR   makes a cluster in DIR (which must not exist,
#                          or be empty), its only socket in DIR itself
#                          (no TCP), its log in DIR/log; starts it, makes
#                          the database buffertime (user buffertime, no
#                          password) and exports and prints BT_PG_URL.
#   pg_cluster_stop DIR    stops it (immediate: nothing in it is kept)
#                          and removes DIR; harmless if already gone.
#
# The server is the newest in /usr/lib/postgresql/*/bin (Debian's
# layout); none is a failure, never a skip.  initdb and the server refuse
# to run as root, so under root (CI) they run as nobody, which then owns
# DIR and must be able to reach it: the folders above it get o+x (search,
# not read) where they lack it.  A unix socket's path is short (107
# bytes): DIR should be short, e.g. under mktemp -d in /tmp.

# The server's binaries, or a failure saying how to get them.
pg_cluster_bindir() {
	local d
	d=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
	if [ -z "$d" ] || [ ! -x "$d/initdb" ] || [ ! -x "$d/pg_ctl" ]; then
		echo "pg-cluster: no PostgreSQL server found" \
			"(/usr/lib/postgresql/*/bin/initdb): install it" \
			"(apt-get install postgresql, or scripts/install-deps)" >&2
		return 1
	fi
	echo "$d"
}

# pg_cluster_as CMD...: runs CMD as the cluster's owner: nobody under
# root, else the caller.  From DIR ($pg_cluster_dir_), which the owner
# can read: initdb and pg_ctl look for their own folder from there.
pg_cluster_as() {
	if [ "$(id -u)" -eq 0 ]; then
		(cd "$pg_cluster_dir_" &&
			setpriv --reuid=nobody --regid=nogroup --init-groups \
				--reset-env "$@")
	else
		(cd "$pg_cluster_dir_" && "$@")
	fi
}

# Under root: DIR owned by nobody, and every folder above it searchable.
pg_cluster_reach() {
	local dir=$1 up
	[ "$(id -u)" -eq 0 ] || return 0
	chown nobody:nogroup "$dir" || return 1
	up=$(dirname "$dir")
	while [ "$up" != / ]; do
		if ! setpriv --reuid=nobody --regid=nogroup --init-groups \
			test -x "$up"; then
			chmod o+x "$up" || return 1
		fi
		up=$(dirname "$up")
	done
	if ! setpriv --reuid=nobody --regid=nogroup --init-groups \
		test -w "$dir"; then
		echo "pg-cluster: user nobody cannot write to $dir" >&2
		return 1
	fi
}

pg_cluster_start() {
	local dir=${1:?pg_cluster_start DIR}
	local bin
	bin=$(pg_cluster_bindir) || return 1
	case $dir in
	/*) ;;
	*) dir=$PWD/$dir ;;
	esac
	# postgresql.conf quotes it; a socket's path is at most 107 bytes
	case $dir in
	*[\',[:space:]]*)
		echo "pg-cluster: $dir: no quotes, commas or spaces, please" >&2
		return 1 ;;
	esac
	if [ "${#dir}" -gt 90 ]; then
		echo "pg-cluster: $dir is too long for a socket's path" \
			"(90 bytes at most): use a shorter folder" >&2
		return 1
	fi
	mkdir -p "$dir" || return 1
	if [ -n "$(ls -A "$dir")" ]; then
		echo "pg-cluster: $dir is not empty" >&2
		return 1
	fi
	pg_cluster_reach "$dir" || return 1
	pg_cluster_dir_=$dir
	if ! pg_cluster_as "$bin/initdb" -D "$dir/data" -A trust \
		-U buffertime -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
		echo "pg-cluster: initdb failed:" >&2
		tail -n 20 "$dir/initdb.log" >&2
		return 1
	fi
	cat >>"$dir/data/postgresql.conf" <<-EOF
		# pg-cluster.sh: a test's own server, reached by its socket only
		listen_addresses = ''
		unix_socket_directories = '$dir'
		shared_buffers = 32MB
		max_connections = 50
	EOF
	if ! pg_cluster_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
		-t 60 start >/dev/null; then
		echo "pg-cluster: the server did not start; its log:" >&2
		tail -n 20 "$dir/log" >&2
		return 1
	fi
	if ! "$bin/psql" -X -q -h "$dir" -U buffertime -d postgres \
		-c 'CREATE DATABASE buffertime' >/dev/null; then
		echo "pg-cluster: could not create the database buffertime" >&2
		return 1
	fi
	BT_PG_URL="postgresql:///buffertime?host=$dir&user=buffertime"
	export BT_PG_URL
	echo "BT_PG_URL=$BT_PG_URL"
}

pg_cluster_stop() {
	local dir=${1:?pg_cluster_stop DIR}
	local bin
	case $dir in
	/*) ;;
	*) dir=$PWD/$dir ;;
	esac
	[ -d "$dir" ] || return 0
	if [ -f "$dir/data/postmaster.pid" ] && bin=$(pg_cluster_bindir); then
		pg_cluster_dir_=$dir
		pg_cluster_as "$bin/pg_ctl" -D "$dir/data" -m immediate -w \
			stop >/dev/null 2>&1
	fi
	# only what pg_cluster_start makes
	rm -rf "$dir/data" "$dir/log" "$dir/initdb.log" "$dir"/.s.PGSQL.*
	rmdir "$dir"
}
