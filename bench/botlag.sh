#!/usr/bin/env bash
# botlag.sh - how soon the worker plays a bot's move after the move before
# it, as a table of friends sees it: nginx, buffertime.fcgi and the worker
# (scripts/web, the worker's default poll and bot_rollouts) on loopback.
# Ann plays against bots (BENCH_BOT_PLAYERS, default 6: the most thinking
# a move), one move at a time through her table; a new game when one
# ends (no limit on games or emails a day).
# A bot move's delay runs from the store's line before it (Ann's POST
# returning, or the previous bot's line) to its own, seen by reading the
# store every 20 ms.  Numbers only: slow is no failure; a bot that does
# not move within 60 s is (exit 1).
#
#   bench/botlag.sh [BUILD]        BENCH_BOT_MOVES (60) bot moves, alone
#   bench/botlag.sh --web [BUILD]  the same while bench/web.sh runs (its
#                                  own servers, its own figures printed),
#                                  playing on until it ends
#
# BUILD is the build directory (default .): buffertime, buffertime.fcgi.
# BENCH_BOT_ROLLOUTS sets the worker's bot_rollouts (default: its own).
# BENCH_DB: the store, a PostgreSQL URL of an empty database (default: a
# SQLite file of the run); there the worker is woken by the server when
# Ann's move queues the bot's turn, where on a file it looks each second.
# Prints the bot moves' delays (median, p99, largest) and, with --web,
# bench/web.sh's output.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
beside_web=''
if [ "${1-}" = --web ]; then
	beside_web=1
	shift
fi
build=$(cd "${1:-.}" && pwd) || exit 1
fcgi=$build/buffertime.fcgi
players=${BENCH_BOT_PLAYERS:-6}
moves=${BENCH_BOT_MOVES:-60}
rollouts=${BENCH_BOT_ROLLOUTS:-}
case $players in [2-6]) ;; *) echo "botlag.sh: BENCH_BOT_PLAYERS is 2..6" >&2; exit 2 ;; esac
case $moves in ""|*[!0-9]*|0) echo "botlag.sh: BENCH_BOT_MOVES must be a number above 0" >&2; exit 2 ;; esac
settings=(--set games_per_hour=0 --set seat_mails_per_day=0)
case $rollouts in
"") ;;
*[!0-9]*|0) echo "botlag.sh: BENCH_BOT_ROLLOUTS must be a number above 0" >&2; exit 2 ;;
*) settings+=(--set "bot_rollouts=$rollouts") ;;
esac

die() {
	echo "bench/botlag.sh: $*" >&2
	exit 1
}

db_args=()
store_tool=sqlite3
if [ -n "${BENCH_DB:-}" ]; then
	db_args=(--db "$BENCH_DB")
	store_tool=psql
fi
for t in curl "$store_tool" nginx; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
		die "$t is not installed (scripts/install-deps)"
done
[ -x "$fcgi" ] || die "$fcgi is not built"
[ -x "$build/buffertime" ] || die "$build/buffertime is not built"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-botlag.XXXXXX") || exit 1
web_pid=''
cleanup() {
	[ -n "$web_pid" ] && kill "$web_pid" 2>/dev/null && wait "$web_pid"
	bash "$src/scripts/web" down "$tmp/run" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

url=$(bash "$src/scripts/web" up "$tmp/run" --fcgi "$fcgi" \
	--buffertime "$build/buffertime" --templates "$src/templates" \
	--www "$src/www" --access-log off --mailer "$tmp/mail" \
	"${settings[@]}" "${db_args[@]}" 2>"$tmp/up.err") ||
	{ cat "$tmp/up.err" >&2; die "scripts/web up failed"; }
db=$tmp/run/data/buffertime.db

sql() {
	if [ -n "${BENCH_DB:-}" ]; then
		psql -XAtq "$BENCH_DB" -c "$1" 2>/dev/null
	else
		sqlite3 -batch "$db" "$1" 2>/dev/null
	fi
}

# now_ms: milliseconds of a monotonic-enough clock (GNU date).
now_ms() {
	echo $(( $(date +%s%N) / 1000000 ))
}

# new_game: Ann and the bots, Ann first; sets game and Ann's cookie jar.
new_game() {
	local body="players=$players&name1=Ann&email1=ann%40example.org&first=1" s link
	for s in $(seq 2 "$players"); do
		body="$body&bot$s=1"
	done
	code=$(curl -s --max-time 30 -o "$tmp/created.html" -w '%{http_code}' \
		-d "$body" "${url}new") || die "cannot create a game"
	link=$(grep -o "${url}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" \
		"$tmp/created.html" | head -n 1)
	[ -n "$link" ] || die "the created page (status $code) has no seat link: $(head -c 300 "$tmp/created.html")"
	game=${link#"${url}g/"}
	game=${game%%\?*}
	rm -f "$tmp/jar"
	curl -s --max-time 15 -o /dev/null -c "$tmp/jar" "$link" ||
		die "cannot open Ann's link"
}

# ann_moves: one move of Ann's from her table (a log, else work, else any
# form: a Sensor Sweep's look, then its order); 0 once it is stored.  Her
# line's count and the time her POST was answered (it is stored by then)
# go to ann_lines and ann_at: a bot may answer before the next look (a
# worker woken at once), so that look cannot be where the wait begins.
ann_moves() {
	local n line
	n=$(sql "SELECT count(*) FROM actions WHERE game = '$game'")
	curl -s --max-time 15 -b "$tmp/jar" -o "$tmp/page.html" "${url}g/$game" ||
		return 1
	line=$(awk -v mode=pick -v want=action=log -v only='/act$' \
		-f "$src/tests/forms.awk" "$tmp/page.html") ||
	line=$(awk -v mode=pick -v want=action=work -v only='/act$' \
		-f "$src/tests/forms.awk" "$tmp/page.html") ||
	line=$(awk -v mode=random -v want='' -v seed="$RANDOM" -v only='/act$' \
		-f "$src/tests/forms.awk" "$tmp/page.html") || return 1
	case ${line%%$'\t'*} in
	/*) form_url=${url%/}${line%%$'\t'*} ;;
	http*) form_url=${line%%$'\t'*} ;;
	*) form_url=${url}g/${line%%$'\t'*} ;;
	esac
	curl -s --max-time 15 -b "$tmp/jar" -o /dev/null -d "${line#*$'\t'}" \
		"$form_url" || return 1
	ann_at=$(now_ms)
	ann_lines=$((n + 1))
	[ "$(sql "SELECT count(*) FROM actions WHERE game = '$game'")" -gt "$n" ]
}

# bots_move: after Ann's move, each bot line's delay (ms) into
# $tmp/delays, until the turn is Ann's again or the game is over.
bots_move() {
	local t_prev t_read n seen state turn t
	t_prev=$ann_at
	t_read=$t_prev
	seen=$ann_lines
	while :; do
		state=$(sql "SELECT (SELECT count(*) FROM actions WHERE game = g.id)
			|| ' ' || turn_seat FROM games g WHERE g.id = '$game'")
		n=${state% *}
		turn=${state#* }
		t=$(now_ms)
		if [ "$n" -gt "$seen" ]; then
			# Several new lines in one read: the first took the time
			# since the line before; each other one came after it,
			# since the last read (a bound: its true delay is less).
			echo $((t - t_prev)) >>"$tmp/delays"
			for _ in $(seq $((n - seen - 1))); do
				echo $((t - t_read)) >>"$tmp/delays"
			done
			seen=$n
			t_prev=$t
		fi
		t_read=$t
		[ "$turn" = 1 ] || [ "$turn" = 0 ] && return 0
		[ $((t - t_prev)) -lt 60000 ] || die "no bot move within 60 s"
		sleep 0.02
	done
}

# play: Ann's moves and the bots' answers until MOVES bot moves were
# seen, or (with --web) until the web bench ends.
play() {
	: >"$tmp/delays"
	new_game
	while :; do
		if [ -n "$beside_web" ]; then
			kill -0 "$web_pid" 2>/dev/null || break
		elif [ "$(wc -l <"$tmp/delays")" -ge "$moves" ]; then
			break
		fi
		if [ "$(sql "SELECT turn_seat FROM games WHERE id = '$game'")" != 1 ]; then
			new_game
			continue
		fi
		ann_moves || die "Ann could not move in game $game"
		bots_move
	done
}

if [ -n "$beside_web" ]; then
	bash "$here/web.sh" "$build" >"$tmp/web.out" 2>&1 &
	web_pid=$!
fi
play
if [ -n "$beside_web" ]; then
	wait "$web_pid" || { cat "$tmp/web.out" >&2; web_pid=''; die "bench/web.sh failed"; }
	web_pid=''
fi

sort -n "$tmp/delays" | awk -v p="$players" -v web="$beside_web" \
	-v engine="${BENCH_DB:+, on PostgreSQL}" '
	{ v[NR] = $1 }
	END {
		if (NR == 0) { print "bot moves: none seen"; exit 1 }
		i99 = int(NR * 0.99 + 0.999); if (i99 > NR) i99 = NR
		med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "bot moves (%d players%s%s): %d, delay after the move before: median %d ms, p99 %d ms, largest %d ms\n",
		    p, web ? ", beside bench/web.sh" : "", engine, NR, med, v[i99], v[NR]
	}'
if [ -n "$beside_web" ]; then
	cat "$tmp/web.out"
fi
