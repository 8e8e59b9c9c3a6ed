#!/usr/bin/env bash
# slowconn.sh - many slow connections from one address do not take the
# site down for another: nginx (www/nginx.conf.in, as scripts/web writes
# it) and buffertime.fcgi on loopback, curl, and tests/slowclient as the
# attacker, from 127.0.0.2.
#
#   held     the attacker holds 2,000 connections that send a header line
#            a second and never end it, and 100 that send a POST's body
#            a byte a second (opening each again a second after the
#            server closes it): nginx holds all 2,000 at once, with room
#            for more;
#   plays    meanwhile Ann and Ben, from 127.0.0.1, open the home page
#            five times, make a game and play 8 moves with curl: every
#            request is answered (200 or 303; no reset, no time-out);
#   limited  nginx's log shows its per-address limit (limit_conn) refusing
#            the attacker's slow bodies beyond 64 at once, and never the
#            players; and never "worker_connections are not enough".
#
# A header that never ends is not counted by limit_conn (nginx counts a
# request once its header is read): those are bounded by
# client_header_timeout and by the room worker_connections gives.  The
# counts are of connections and requests, never of time.
# SLOWCONN_HEADERS (2000), SLOWCONN_BODIES (100) and SLOWCONN_MOVES (8)
# change the run.
#
# Environment (set by "make check"): BUFFERTIME_FCGI, SRCDIR.  Prints one
# line per failure and last "N passed, M failed".
set -u

: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start slowconn nginx curl sqlite3 ss
seed=11
run=$tmp/run
db=$run/data/buffertime.db
headers=${SLOWCONN_HEADERS:-2000}
bodies=${SLOWCONN_BODIES:-100}
moves=${SLOWCONN_MOVES:-8}
attacker=127.0.0.2
slow=$(dirname "$BUFFERTIME_FCGI")/tests/slowclient
slow_pid=''

if [ ! -x "$slow" ]; then
	not_ok "$slow not built (make check builds it)"
	finish
fi
trap '[ -z "$slow_pid" ] || kill "$slow_pid" 2>/dev/null; web_test_cleanup' EXIT

# Every request the players make is logged with its answer.
eval "players_$(declare -f req)"
req() {
	players_req "$@"
	echo "$code $2 $3" >>"$tmp/codes"
}

up "$run"
base=$url
origin=$(origin_of "$base")
port=${origin##*:}

# held: the server's established connections from the attacker (those
# nginx has accepted, and those the kernel holds for it to accept).
held() {
	ss -Htn state established "( sport = :$port )" dst "$attacker" | wc -l
}

# ---- held ----------------------------------------------------------------------
"$slow" "$attacker" 127.0.0.1 "$port" "$headers" "$bodies" 60 \
	>"$tmp/slow.out" 2>"$tmp/slow.err" &
slow_pid=$!
# All the headers, and the bodies up to the limit (the rest refused).
want=$((headers + (bodies < 64 ? bodies : 64)))
most=0
for _ in $(seq 100); do
	n=$(held)
	[ "$n" -le "$most" ] || most=$n
	[ "$most" -lt "$want" ] || break
	sleep 0.2
done
check "the attacker holds $want slow connections at once (held $most)" \
	[ "$most" -ge "$want" ]

# ---- plays ---------------------------------------------------------------------
: >"$tmp/codes"
samples=''
for _ in 1 2 3 4 5; do
	req "" GET "$base"
done
if create 1 Ann Ben; then
	jar=("" "$tmp/jar1" "$tmp/jar2")
	for s in 1 2; do
		req "${jar[$s]}" GET "${links[$s]}"
		expect_code "seat $s opens its link while the attack goes on" 303
	done
	for i in $(seq "$moves"); do
		step || not_ok "move $i was not made"
		samples+=" $(held)"
	done
fi
bad=$(awk '$1 != 200 && $1 != 303' "$tmp/codes")
total=$(wc -l <"$tmp/codes")
check "every one of the players' $total requests is answered (failed: $(echo "$bad" | grep -c .): $(echo "$bad" | head -n 5 | tr '\n' ';'))" \
	[ -z "$bad" ]
check "... and they were $((moves * 2 + 8)) or more" [ "$total" -ge $((moves * 2 + 8)) ]
echo "attacker's connections held while the players played:$samples"

kill "$slow_pid" 2>/dev/null
wait "$slow_pid"
slow_pid=''
echo "slowclient: $(cat "$tmp/slow.out" "$tmp/slow.err")"

# ---- limited -------------------------------------------------------------------
log=$run/log/nginx-error.log
refused=$(grep -c "limiting connections by zone \"bt_conn\", client: $attacker," "$log")
check "nginx's per-address limit refuses the attacker's slow bodies ($refused in its log)" \
	[ "$refused" -ge 1 ]
read -r _ _ _ _ _ _ _ _ _ _ _ slow_refused _ <"$tmp/slow.out" || slow_refused=0
check "... with a 429 the attacker sees ($slow_refused)" [ "${slow_refused:-0}" -ge 1 ]
others=$(grep "limiting connections" "$log" | grep -vc "client: $attacker,")
check "... and never a player's request ($others)" [ "$others" -eq 0 ]
short=$(grep -c 'worker_connections are not enough' "$log")
check "nginx never runs out of connections ($short times in its log)" [ "$short" -eq 0 ]

# What nginx said, counted by kind, when something failed.
[ "$fail" -eq 0 ] || sed -E 's/^[0-9/: ]+//; s/, client: .*//; s/[0-9]+#[0-9]+: (\*[0-9]+ )?//' "$log" |
	sort | uniq -c | sort -rn | head -n 10

finish
