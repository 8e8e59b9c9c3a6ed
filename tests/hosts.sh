#!/usr/bin/env bash
# hosts.sh - two hosts, one PostgreSQL database (a throwaway server,
# tests/pg-cluster.sh), and the database restarting under play.
#
# Host A and host B each run buffertime.fcgi and the worker (bots,
# reviews, emails as files in a folder of each host's own), all on the
# same database and the same server key; A's nginx passes requests to
# an upstream of both programs (scripts/web up --also-fcgi).  HOSTS_GAMES
# (20) games of a person and a bot are made and played to their end
# through A's pages, the bots moved by whichever worker claims them,
# while host B's programs (its FastCGI program or its worker, in turn)
# are killed with SIGKILL at random moments and started again, at least
# HOSTS_KILLS (20) times.  Then:
#   - every move the pages accepted (a 303 that is not "stale") is in
#     its game's record, and every game ended;
#   - every email was written exactly once, by one host or the other,
#     and the outbox has none left to send;
#   - every bot move was made by a job of its turn, once, and no job is
#     left undone;
#   - `buffertime admin check` passes.
# Then a game of two people is played with its moves posted through B
# and its pages read through A's upstream: each page shows the move
# just made (a program keeps the tables it read until the database
# says they changed).  A flood of that news while no page is asked for
# is read by the idle workers.  Then the database server stops in the middle of a game: the table and
# a move answer 503 with Retry-After (nothing half-written), and once it
# is back the same move is accepted and the game goes on to its end.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR.
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to the FastCGI program}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW
games=${HOSTS_GAMES:-20}
kills_wanted=${HOSTS_KILLS:-20}

# shellcheck source=tests/testlib.sh
. "$SRCDIR/tests/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$SRCDIR/tests/weblib.sh"
# shellcheck source=tests/pg-cluster.sh
. "$SRCDIR/tests/pg-cluster.sh"

web_test_start hosts nginx curl psql
chmod 711 "$tmp"   # the server's user (nobody, under root) reaches its folder
# after the servers of the runs are down (web_test_cleanup), the database
trap 'web_test_cleanup; pg_cluster_stop "$tmp/pg"' EXIT
if ! pg_cluster_start "$tmp/pg" >/dev/null; then
	echo "FAIL: no PostgreSQL server for two hosts to share"
	exit 1
fi
pg=$BT_PG_URL

# sql QUERY: one answer from the shared database (weblib's, on psql).
sql() {
	psql -XAtq -v ON_ERROR_STOP=1 "$pg" -c "$1" 2>"$tmp/sql.err"
}

seed=1
head -c 32 /dev/urandom >"$tmp/server.key"
chmod 600 "$tmp/server.key"
mkdir "$tmp/mail-a" "$tmp/mail-b"
# What both hosts are given: the database, the key, quick bots.
shared=(--db "$pg" --set "key_file=$tmp/server.key" --set bot_rollouts=4
	--set games_per_hour=0
	--set review_rollouts=8 --mail-poll 1)

up "$tmp/host-a" "${shared[@]}" --mailer "$tmp/mail-a" \
	--also-fcgi "unix:$tmp/host-b/fcgi.sock"
base=$url
origin=$(origin_of "$base")

# host_b_up: host B's programs, its links on A's address.
host_b_up() {
	bash "$SRCDIR/scripts/web" up "$tmp/host-b" --fcgi "$BUFFERTIME_FCGI" \
		--templates "$SRCDIR/templates" --www "$SRCDIR/www" \
		--set take_back_grace=0 --set bot_wait=0 "${shared[@]}" \
		--mailer "$tmp/mail-b" --base-url "$base" \
		>/dev/null 2>>"$tmp/b-up.log"
}
runs+=("$tmp/host-b")
check "host B starts on the same database" host_b_up

# ---- the games ----------------------------------------------------------------
# game_ids[i], and jars[i]: the cookies of game i's person (seat 1).
game_ids=()
jars=()
for i in $(seq 1 "$games"); do
	req "" POST "${base}new" \
		"players=2&first=$((i % 2 + 1))&name1=P$i&email1=p$i%40example.org&name2=Bot&bot2=1"
	if [ "$code" != 200 ]; then
		not_ok "game $i made through the upstream: status $code"
		continue
	fi
	link=$(grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
	id=${link#"${base}g/"}
	id=${id%%\?*}
	jars[i]=$tmp/jar$i
	req "${jars[i]}" GET "$link"
	[ "$code" = 303 ] || not_ok "game $i: the seat link answered $code"
	game_ids[i]=$id
done
check "$games games made through the pages" test "${#game_ids[@]}" = "$games"

# ---- host B killed at random, and started again -----------------------------------
# killer: until $tmp/stop exists, SIGKILLs host B's FastCGI program or its
# worker (the whole session: a host that dies takes its children), then
# starts B again; one line per kill in $tmp/kills.
killer() {
	local n=0 what pid
	while [ ! -e "$tmp/stop" ]; do
		# every 2 to 6 s: 20 kills well inside the games (a few
		# minutes), without host B spending the test starting up
		sleep "$((RANDOM % 4 + 2)).$((RANDOM % 10))"
		[ $((n % 2)) = 0 ] && what=fcgi || what=worker
		pid=$(head -n 1 "$tmp/host-b/$what.pid" 2>/dev/null | cut -d' ' -f1)
		case $pid in ''|*[!0-9]*) continue ;; esac
		kill -KILL -- "-$pid" 2>/dev/null || continue
		n=$((n + 1))
		echo "$what" >>"$tmp/kills"
		bash "$SRCDIR/scripts/web" down "$tmp/host-b" >/dev/null 2>&1
		host_b_up || echo "host B did not start again" >>"$tmp/killer.err"
	done
}
: >"$tmp/kills"
killer &
killer_pid=$!

# watch_turns: until $tmp/turns.stop exists, every game's seat to move
# ("ID SEAT" lines, the file replaced whole) into $tmp/turns, a few times
# a second, one psql for all: each player asking the server on its own
# (a psql connection a look) took more of the machine than the hosts.
watch_turns() {
	while [ ! -e "$tmp/turns.stop" ]; do
		psql -XAtq -F ' ' "$pg" -c 'SELECT id, turn_seat FROM games' \
			>"$tmp/turns.new" 2>/dev/null &&
			mv -f "$tmp/turns.new" "$tmp/turns"
		sleep 0.3
	done
}
turns=$tmp/turns

# seen_turn: $seen, the seat to move in game $game as the watcher last
# saw it ("" if it has not yet).
seen_turn() {
	local id t
	seen=''
	while read -r id t; do
		[ "$id" = "$game" ] && seen=$t && return 0
	done <"$turns"
}

# pick_form: the move form a player sends from the page: log if it can,
# else work, else any.
pick_form() {
	form pick 'action=log' || form pick 'action=work' || form random ''
}

# move I: one move of game I's person through the pages (their turn, as
# the watcher saw it: a page without a move form is stuck only if the
# store says so too): 0 if one was made or none could be, 1 if stuck.
# A move the program accepted (303, not "stale") must be in the record
# at once: counted in $accepted and, if not, in $lost.
move() {
	local i=$1 n
	n=$(lines)
	jar=("" "${jars[i]}")
	page 1
	[ "$code" = 200 ] || return 0          # B just died: later
	if ! pick_form; then
		[ "$(turn_seat)" = 1 ] || return 0     # the watcher was behind
		page 1                  # (the bot may have moved meanwhile)
		[ "$code" = 200 ] || return 0
		pick_form || return 1
	fi
	req "${jars[i]}" POST "$form_url" "$form_body"
	if [ "$code" = 303 ] && [[ $loc != *m=stale* ]]; then
		accepted=$((accepted + 1))
		[ "$(lines)" -gt "$n" ] || lost=$((lost + 1))
	fi
	return 0
}

# player I: game I's person, in a process (and a scratch folder: weblib's
# answer files) of their own, moving whenever it is their turn until the
# game ends; "accepted lost stuck" into $tmp/played.I.
player() {
	local i=$1 accepted=0 lost=0 stuck=0 seen
	game=${game_ids[i]}
	tmp=$tmp/player$i
	mkdir -p "$tmp"
	seed=$i
	while [ "$SECONDS" -lt "$deadline" ]; do
		seen_turn
		if [ "$seen" = 1 ]; then
			move "$i" || stuck=$((stuck + 1))
		elif [ "$seen" = 0 ] && [ "$(turn_seat)" = 0 ]; then
			break
		fi
		# the watcher's next look
		sleep 0.3
	done
	echo "$accepted $lost $stuck" >"${tmp%/*}/played.$i"
}

deadline=$((SECONDS + 600))
watch_turns &
watcher_pid=$!
for _ in $(seq 100); do
	[ -s "$turns" ] && break
	sleep 0.1
done
players=()
for i in "${!game_ids[@]}"; do
	player "$i" &
	players+=($!)
done
wait "${players[@]}"
echo "the games were played in $SECONDS s"
touch "$tmp/turns.stop"
wait "$watcher_pid"
# the killer goes on until it has killed often enough
while [ "$(wc -l <"$tmp/kills")" -lt "$kills_wanted" ] &&
	[ "$SECONDS" -lt "$deadline" ]; do
	sleep 0.5
done
accepted=0 lost=0 stuck=0
for i in "${!game_ids[@]}"; do
	read -r a l k <"$tmp/played.$i" || { not_ok "game $i's player said nothing"; continue; }
	accepted=$((accepted + a)) lost=$((lost + l)) stuck=$((stuck + k))
done
check "no player was left without a form to play ($stuck times)" test "$stuck" = 0
touch "$tmp/stop"
wait "$killer_pid"
kills=$(wc -l <"$tmp/kills")
check "host B was killed $kills times ($(grep -c fcgi "$tmp/kills") its FastCGI program)" \
	test "$kills" -ge "$kills_wanted"
echo "host B killed $kills times; $accepted moves accepted through the pages"
check "host B always started again" test ! -s "$tmp/killer.err"
check "host B is up at the end" bash "$SRCDIR/scripts/web" status "$tmp/host-b"
ended=$(sql "SELECT count(*) FROM games WHERE status <> 'playing'")
check "every game ended ($ended of $games)" test "$ended" = "$games"
check "every accepted move is in its record ($accepted accepted, $lost missing)" \
	test "$lost" = 0 -a "$accepted" -gt 0

# ---- the work each host did -------------------------------------------------------
# Every email queued is sent, once: the workers drain the outbox.
for _ in $(seq 300); do
	[ "$(sql "SELECT count(*) FROM outbox WHERE sent IS NULL AND dropped IS NULL")" = 0 ] && break
	sleep 0.2
done
check "the outbox is empty" \
	test "$(sql "SELECT count(*) FROM outbox WHERE sent IS NULL AND dropped IS NULL")" = 0
sent=$(sql "SELECT count(*) FROM outbox WHERE sent IS NOT NULL")
find "$tmp/mail-a" "$tmp/mail-b" -name '*.eml' -printf '%f\n' |
	sed 's/^[0-9]*-0*\([0-9][0-9]*\)\.eml$/\1/' | sort -n >"$tmp/ids"
written=$(wc -l <"$tmp/ids")
check "every email written once ($written files, $sent sent, by A $(find "$tmp/mail-a" -name '*.eml' | wc -l), by B $(find "$tmp/mail-b" -name '*.eml' | wc -l))" \
	test "$written" = "$sent" -a "$(sort -u "$tmp/ids" | wc -l)" = "$written"
check "no email was written twice" test -z "$(uniq -d "$tmp/ids")"
bot_lines=$(sql "SELECT count(*) FROM actions WHERE made_by = 'bot'")
check "every bot move ($bot_lines) made by the job of its turn" \
	test "$(sql "SELECT count(*) FROM actions a WHERE a.made_by = 'bot'
		AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'move'
		AND j.game = a.game AND j.seq = a.seq)")" = 0
for _ in $(seq 300); do
	[ "$(sql "SELECT count(*) FROM jobs WHERE done IS NULL")" = 0 ] && break
	sleep 0.2
done
check "no job is left undone" test "$(sql "SELECT count(*) FROM jobs WHERE done IS NULL")" = 0
run admin --db "$pg" check
check "admin check on the shared database" test "$rc" = 0

# ---- a page read on one host after a move on the other ----------------------------
# Two people, no bot: each move is posted through host B's own nginx
# (B's program alone), and the next player's page is read through A's
# upstream (either program, each keeping the tables it read): the page
# must show the move at once, its form accepted the first time.
b_base=$(cat "$tmp/host-b/url")
create 1 Ann Bob
for s in 1 2; do
	jar[s]=$tmp/jar-cross$s
	req "${jar[s]}" GET "${links[s]}"
done
fresh=0 moves=0
for _ in $(seq "${HOSTS_CROSS_MOVES:-30}"); do
	s=$(turn_seat)
	[ "$s" -ge 1 ] 2>/dev/null || break
	page "$s"
	form pick 'action=log' || form pick 'action=work' || form random '' || break
	moves=$((moves + 1))
	# a form of an outdated page is refused as stale
	req "${jar[s]}" POST "${b_base%/}${form_url#"${base%/}"}" "$form_body"
	[ "$code" = 303 ] && [[ $loc != *m=* ]] && fresh=$((fresh + 1))
done
echo "$fresh of $moves moves posted through B taken at once from A's pages"
check "every page read on host A after a move on host B showed it ($fresh of $moves forms taken at once)" \
	test "$fresh" = "$moves" -a "$moves" -ge 5

# ---- a worker that answers nothing still reads the server's news -------------------
# Every program that keeps tables listens for changed games, and the
# server keeps what a listener has not read for all of them: a flood of
# news while no page is asked for must be read by the waiting workers,
# or the server's queue of it stays full (and, at its end, no move
# commits).  The second, smaller flood has the server let go of what
# every listener read.
sql "SELECT pg_notify('buffertime_pages', 'elsewhere ' || g)
	FROM generate_series(1, 100000) AS g" >/dev/null
sleep 1
sql "SELECT pg_notify('buffertime_pages', 'elsewhere again ' || g)
	FROM generate_series(1, 2000) AS g" >/dev/null
sleep 1
usage=$(sql "SELECT pg_notification_queue_usage()")
echo "the server's queue of news after 102,000 of it: $usage full"
check "the workers read the news while idle (queue usage $usage)" \
	awk -v u="$usage" 'BEGIN { exit !(u != "" && u + 0 < 0.0001) }'

# ---- the database server restarting -----------------------------------------------
req "" POST "${base}new" "players=2&first=1&name1=Rae&email1=rae%40example.org&name2=Bot&bot2=1"
link=$(grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
game=${link#"${base}g/"}
game=${game%%\?*}
jar=("" "$tmp/jar-rae")
req "${jar[1]}" GET "$link"
page 1
expect_code "Rae's table" 200
form pick 'action=log' || form pick 'action=work' || form random '' ||
	not_ok "Rae has no move"
n=$(lines)
check "the database server stops" pg_cluster_as "$(pg_cluster_bindir)/pg_ctl" \
	-D "$tmp/pg/data" -m fast -w -s stop
page 1
expect_code "the table while the database is down" 503
check "... with Retry-After" test -n "$(header Retry-After)"
req "${jar[1]}" POST "$form_url" "$form_body"
expect_code "a move while the database is down" 503
check "the database server starts again" pg_cluster_as "$(pg_cluster_bindir)/pg_ctl" \
	-D "$tmp/pg/data" -l "$tmp/pg/log" -w -s start
check "nothing of the refused move was written" test "$(lines)" = "$n"
req "${jar[1]}" POST "$form_url" "$form_body"
expect_code "the same move once it is back" 303
check "... and in the record" test "$(lines)" -gt "$n"
for _ in $(seq 400); do
	[ "$(turn_seat)" = 0 ] && break
	[ "$(turn_seat)" = 1 ] && { step || break; }
	sleep 0.05
done
check "the game goes on to its end" test "$(turn_seat)" = 0
run admin --db "$pg" check
check "admin check after the restart" test "$rc" = 0
finish
