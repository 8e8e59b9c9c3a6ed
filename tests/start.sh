#!/usr/bin/env bash
# start.sh - scripts/start keeps the port (and base URL) a run folder was
# first given, since the links emailed to players name it:
#   - a later start with the same run folder, no --port, uses the same
#     port again (run/address keeps it);
#   - if that port is taken by then (a listener of this test holds it),
#     start stops with a message naming the port and --port, starts no
#     server and keeps the saved port;
#   - --port P given again moves it, saying that the links sent before
#     stop working, and the next start keeps P;
#   - --run-dir DIR is another run folder with a port and a --base-url
#     (with its path) of its own, both kept;
#   - a run folder from before run/address keeps the port of its url.
# Runs the real scripts/start, nginx and buffertime.fcgi, on 127.0.0.1
# only, from a scratch tree of links to the source tree and the built
# programs (its Makefile does nothing: nothing is built here).  Stops
# everything it started.  Skips (77) without nginx, curl or python3.
# Prints one line per failure and last "N passed, M failed".
# shellcheck disable=SC2317  # cleanup runs from the EXIT trap
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW BUFFERTIME_SENDMAIL MAKEFLAGS MFLAGS MAKELEVEL

nginx=$(command -v nginx || true)
[ -n "$nginx" ] || [ ! -x /usr/sbin/nginx ] || nginx=/usr/sbin/nginx
if [ -z "$nginx" ] || ! command -v curl >/dev/null 2>&1 ||
	! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: nginx, curl or python3 is not installed"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-start.XXXXXX") || exit 1
root=$tmp/root
starter=''
holders=()
rundirs=("$root/run" "$tmp/other" "$tmp/legacy")
cleanup() {
	local p d
	# The test's own shell only: a subshell that a signal reaches before
	# it drops the traps runs them, and must not stop the servers and
	# remove the folder while the test goes on (seen once in CI).
	[ "$BASHPID" = "$$" ] || return 0
	stop_start quiet
	for d in "${rundirs[@]}"; do
		[ ! -d "$d" ] || bash "$SRCDIR/scripts/web" down "$d" >/dev/null 2>&1 ||
			echo "FAIL: could not stop the servers of $d"
	done
	for p in "${holders[@]}"; do
		kill -TERM "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

# The scratch tree: scripts/start finds everything through its root.
mkdir -p "$root"
for f in scripts www templates; do
	ln -s "$SRCDIR/$f" "$root/$f"
done
ln -s "$BUFFERTIME" "$root/buffertime"
ln -s "$BUFFERTIME_FCGI" "$root/buffertime.fcgi"
# configured in place (config.status), built (an empty make): start only runs
: >"$root/config.status"
printf 'all:\n\t@:\n' >"$root/Makefile"
printf '#!/bin/sh\nexit 0\n' >"$root/configure"
chmod +x "$root/configure"

# busy P: something listens on 127.0.0.1:P.
busy() {
	timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# hold P: a listener of this test takes 127.0.0.1:P (another program).
hold() {
	python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(8)
print("held", flush=True)
time.sleep(300)
' "$1" >"$tmp/hold.$1" 2>&1 &
	holders+=("$!")
	for _ in $(seq 50); do
		grep -q held "$tmp/hold.$1" 2>/dev/null && return 0
		sleep 0.1
	done
	not_ok "could not hold port $1: $(cat "$tmp/hold.$1")"
	return 1
}

# start ARGS...: scripts/start ARGS in the background (its servers run in
# sessions of their own); returns when it says it runs (sets $url) or has
# exited (sets $rc).
start() {
	url=''
	rc=''
	bash "$root/scripts/start" "$@" </dev/null >"$tmp/start.out" 2>&1 &
	starter=$!
	for _ in $(seq 600); do
		url=$(sed -n 's/^ *Buffer Time Online is running: *//p' "$tmp/start.out")
		[ -z "$url" ] || return 0
		if ! kill -0 "$starter" 2>/dev/null; then
			wait "$starter"
			rc=$?
			starter=''
			return 0
		fi
		sleep 0.1
	done
	not_ok "scripts/start $* neither ran nor stopped in 60 s: $(tail -n 3 "$tmp/start.out")"
}

# stop_start [quiet]: SIGTERM to the running start, as Ctrl-C; it must
# stop its servers and exit.
stop_start() {
	local pid=$starter
	[ -n "$pid" ] || return 0
	starter=''
	kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 200); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		[ -n "${1:-}" ] || not_ok "scripts/start did not stop in 20 s"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
}

# stopped DIR: no server of run folder DIR runs.
stopped() {
	! bash "$SRCDIR/scripts/web" status "$1" >/dev/null 2>&1
}

# free P: nothing listens on 127.0.0.1:P.
free() {
	! busy "$1"
}

# said: what start said about itself and its servers, for a failure.
said() {
	grep -E '^(web|start|buffertime|nginx)' "$tmp/start.out" | tail -n 4 | tr '\n' ' '
}

# saved DIR KEY: KEY's value in DIR/address.
saved() {
	sed -n "s|^$2=||p" "$1/address" 2>/dev/null
}

# conf_base DIR: the links' base in the program's settings of DIR.
conf_base() {
	sed -n 's/^base_url = //p' "$1/buffertime.conf" 2>/dev/null
}

# Each port is drawn just before its first use: the other tests of a
# parallel "make check" take ports of their own meanwhile.
p1=$(free_port) || { not_ok "no free port"; finish; }
run=$root/run

# ---- the first start: the port it is given is kept --------------------------
group_before=$(cat /proc/self/autogroup 2>/dev/null)
start --port "$p1"
check "first start runs on $p1: '$url' $(said)" \
	[ "$url" = "http://127.0.0.1:$p1/" ]
# The worker's scheduling group (Linux's autogroup, one a session) is at
# nice 10, and the caller's is left alone, however soon after its launch
# the group is set.
if [ -n "$group_before" ]; then
	worker=$(cut -d ' ' -f 1 "$run/worker.pid" 2>/dev/null)
	check "the worker's group is at nice 10: $(cat "/proc/$worker/autogroup" 2>&1)" \
		grep -q ' nice 10$' "/proc/$worker/autogroup"
	check "the caller's group keeps its nice: '$group_before', now '$(cat /proc/self/autogroup)'" \
		[ "$(cat /proc/self/autogroup)" = "$group_before" ]
else
	echo "note: no /proc/self/autogroup here (a kernel without autogroups)"
fi
check "the home page answers" \
	[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$url")" = 200 ]

# ---- a move by reply, with no mail server: start --reply -------------------
check "the emails name a reply address: $(grep reply_address "$run/buffertime.conf")" \
	grep -qx 'reply_address = play@localhost' "$run/buffertime.conf"
# a game made two days ago: the running mailer reminds seat 1, with a menu
timeout 30 env "BUFFERTIME_NOW=$(( $(date +%s) - 2 * 86400 ))" "$BUFFERTIME" admin \
	--db "$run/data/buffertime.db" create --players 3 --first 1 \
	--email a@example.org --email b@example.org --email c@example.org >/dev/null
# mail_with REGEX: the first email of run/mail/ matching, within 60 s.
mail_with() {
	local f
	for _ in $(seq 600); do
		f=$(grep -l -- "$1" "$run/mail"/*.eml 2>/dev/null | head -n 1)
		[ -n "$f" ] && { echo "$f"; return 0; }
		sleep 0.1
	done
	return 1
}
turn=$(mail_with '^Reply-To: play+.*@localhost')
check "a reminder with a Reply-To reaches run/mail/" [ -n "$turn" ]
bash "$root/scripts/start" --reply "${turn:-/dev/null}" 1 >"$tmp/reply.out" 2>&1
check "start --reply FILE 1 is handled: $(tail -n 2 "$tmp/reply.out")" \
	grep -q '^start: handled' "$tmp/reply.out"
has_mail() { mail_with "$1" >/dev/null; }
# the move hands the turn on: the next seat's turn email tells it (the
# mover's own answer waits for its next turn: one email a turn)
check "the move by reply reaches the next seat's turn email in run/mail/" \
	has_mail '^It is your turn in the game'
stop_start
check "start stopped its servers" stopped "$run"
check "the port is free again" free "$p1"
check "run/address keeps port $p1: '$(saved "$run" port)'" [ "$(saved "$run" port)" = "$p1" ]

# ---- a later start: the same port ------------------------------------------
start
check "a later start runs on $p1 again: '$url' $(said)" \
	[ "$url" = "http://127.0.0.1:$p1/" ]
check "the links still name port $p1: '$(conf_base "$run")'" \
	[ "$(conf_base "$run")" = "http://127.0.0.1:$p1/" ]
stop_start

# ---- the port taken: start refuses, and says why and what to do --------------
hold "$p1"
start
check "start with its port taken exits 1: rc '$rc', url '$url'" [ "$rc" = 1 ]
stop_start
check "the refusal names port $p1: $(head -n 1 "$tmp/start.out")" \
	grep -q "port $p1 .*taken" "$tmp/start.out"
check "the refusal says the links would stop working" \
	grep -q 'links would stop working' "$tmp/start.out"
check "the refusal tells of --port and --run-dir" \
	sh -c "grep -q -- '--port P' '$tmp/start.out' && grep -q -- '--run-dir' '$tmp/start.out'"
check "no server runs after the refusal" stopped "$run"
check "no nginx was started: $(cat "$run/nginx.pid" 2>/dev/null)" \
	[ ! -f "$run/nginx.pid" ]
check "the refusal keeps port $p1" [ "$(saved "$run" port)" = "$p1" ]

# ---- --port moves it, on purpose -------------------------------------------
p2=$(free_port) || { not_ok "no free port"; finish; }
start --port "$p2"
check "--port $p2 moves the game: '$url' $(said)" \
	[ "$url" = "http://127.0.0.1:$p2/" ]
check "moving says the links sent before stop working" \
	grep -q "links sent before.*stop working" "$tmp/start.out"
stop_start
start
check "the next start keeps $p2: '$url'" [ "$url" = "http://127.0.0.1:$p2/" ]
stop_start

# ---- another run folder, with a base URL of its own --------------------------
other=$tmp/other
p3=$(free_port) || { not_ok "no free port"; finish; }
start --run-dir "$other" --port "$p3" --base-url http://games.example.org/bt/
check "--run-dir with a base URL: '$url' $(said)" \
	[ "$url" = "http://127.0.0.1:$p3/bt/" ]
stop_start
check "the main run folder keeps $p2" [ "$(saved "$run" port)" = "$p2" ]
start --run-dir "$other"
check "a later start keeps port and path: '$url'" [ "$url" = "http://127.0.0.1:$p3/bt/" ]
check "a later start keeps the base URL: '$(conf_base "$other")'" \
	[ "$(conf_base "$other")" = http://games.example.org/bt/ ]
stop_start

# ---- a run folder from before run/address: the port of its url ---------------
mkdir -p "$tmp/legacy"
p4=$(free_port) || { not_ok "no free port"; finish; }
echo "http://127.0.0.1:$p4/" >"$tmp/legacy/url"
hold "$p4"
start --run-dir "$tmp/legacy"
check "an older run folder keeps the port of its url: rc '$rc', url '$url'" [ "$rc" = 1 ]
stop_start
check "the refusal names port $p4" grep -q "port $p4 .*taken" "$tmp/start.out"

finish
