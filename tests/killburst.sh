#!/usr/bin/env bash
# killburst.sh - FastCGI workers killed with SIGKILL during a burst of
# moves: nginx and buffertime.fcgi on loopback (scripts/web), driven by
# several curl clients at once.
#
# Each client plays 2-player games of its own through the web (made
# beforehand with the tool, as the new-game form has a rate limit; the
# next one when its game ends), one move form after another, as a player
# would: the table page, a legal form from it (forms.awk), the POST.
# Meanwhile a killer (python3: a request lasts a millisecond, too short
# for a shell loop to catch) sends SIGKILL every few hundred milliseconds
# to one worker of the program, one in the middle of a request when it
# sees one (its pid only, as a crash would).  A client whose request got
# no answer (502, a reset) sends the same form again: the retry either
# applies the move, or is refused as stale (the form's sequence number)
# because the killed request had stored it before it died; as each game
# has one client, that refusal means the move is in.  At the end every
# game's record must hold exactly the moves the clients know were taken,
# under the sequence numbers they were taken at:
#   lost     moves answered as taken that are not in the record: 0;
#   extra    record lines no client took (a move applied twice): 0;
# and admin check passes, some requests were cut off and retried, the
# parent saw every kill and started a worker again at once (all workers
# run before nearly every kill: it used to wait a second after each
# death, so kills faster than that emptied the pool), and all run at the
# end.
# KILLBURST_CLIENTS (8), KILLBURST_MOVES (520 move posts in all),
# KILLBURST_WORKERS (3), KILLBURST_PAUSE_MS (250: the mean pause between
# kills) change the run.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR,
# TESTDATA.  Skips (77) without nginx, curl or sqlite3.
# BT_TEST_ENGINE=postgres: on a PostgreSQL server (testlib.sh).
set -u
LC_ALL=C   # sort and comm agree on the order
export LC_ALL

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start killburst nginx curl sqlite3 python3
engine_init

clients=${KILLBURST_CLIENTS:-8}
moves=${KILLBURST_MOVES:-520}
workers=${KILLBURST_WORKERS:-3}
pause_ms=${KILLBURST_PAUSE_MS:-250}
quota=$(((moves + clients - 1) / clients))
games_each=$((quota / 10 + 2))   # a game lasts some 20 moves or more
run=$tmp/run
db=$(db_of "$run")
top=$tmp

# ---- a client (run in a subshell of its own: its own $tmp) --------------------

# again: one more try after a request got no answer.
again() {
	retries=$((retries + 1))
	sleep 0.05
}

# fetch JAR URL WANT: GET URL until it answers WANT (a gateway error or a
# busy 503 is tried again, 100 times at most).
fetch() {
	for _ in $(seq 100); do
		req "$1" GET "$2"
		[ "$code" = "$3" ] && return 0
		case $code in
		000|502|503|504) again ;;
		*) echo "GET $2: $code" >>"$tmp/odd"; return 1 ;;
		esac
	done
	return 1
}

# new_game: the client's next game of the pool, both seats opened; sets
# $game, $jar1, $jar2; 1 if the pool is used up.
new_game() {
	local line
	line=$(sed -n "$((games + 1))p" "$top/pool.$client_n")
	[ -n "$line" ] || { echo "client $client_n: no game left" >>"$tmp/odd"; return 1; }
	read -r game links1 links2 <<<"$line"
	games=$((games + 1))
	jar1=$tmp/jar1.$games
	jar2=$tmp/jar2.$games
	: >"$jar1"
	: >"$jar2"
	fetch "$jar1" "$links1" 303 && fetch "$jar2" "$links2" 303 || return 1
	echo "$game" >>"$tmp/games"
}

# pick_move: a form of the seat to move (log, else work, else any);
# sets $mover, $form_url, $form_body; 1 if nobody has one (game over).
pick_move() {
	page_url=${base}g/$game
	for mover in "$jar1" "$jar2"; do
		fetch "$mover" "$page_url" 200 || return 1
		form pick action=log || form pick action=work || form random '' ||
			continue
		return 0
	done
	return 1
}

# post_move: sends the form until it gets an answer; notes what it came
# to in $tmp/acks ("GAME SEQ", the move's place in the record).
post_move() {
	local seq action lost=no
	seq=$(sed -n 's/.*\(^\|&\)seq=\([0-9]*\).*/\2/p' <<<"$form_body")
	action=$(sed -n 's/.*\(^\|&\)action=\([a-z]*\).*/\2/p' <<<"$form_body")
	for _ in $(seq 100); do
		posts=$((posts + 1))
		req "$mover" POST "$form_url" "$form_body"
		case $code in
		303)
			if [ "$action" = look ]; then
				# a Sensor Sweep's first step: no record line
				looks=$((looks + 1))
			elif [ "${loc%m=stale}" = "$loc" ]; then
				accepted=$((accepted + 1))
				echo "$game $seq" >>"$tmp/acks"
			elif [ "$lost" = yes ]; then
				# the killed request stored it
				blind=$((blind + 1))
				echo "$game $seq" >>"$tmp/acks"
			else
				echo "stale without a lost answer: $game $seq" >>"$tmp/odd"
			fi
			return 0 ;;
		000|502|504) lost=yes; again ;;
		503) again ;;   # busy: nothing written
		*) echo "POST $action: $code" >>"$tmp/odd"; return 1 ;;
		esac
	done
	echo "POST $action: no answer in 100 tries" >>"$tmp/odd"
	return 1
}

# client N: plays until it has sent its quota of move posts; its counts
# go to $tmp/stats.
client() {
	tmp=$top/c$1
	mkdir -p "$tmp"
	: >"$tmp/acks"
	: >"$tmp/games"
	seed=$1
	client_n=$1
	game=
	posts=0 accepted=0 blind=0 retries=0 looks=0 games=0
	new_game || return 1
	while [ "$posts" -lt "$quota" ]; do
		if pick_move; then
			post_move || break
		else
			new_game || break
		fi
	done
	echo "$posts $accepted $blind $retries $looks $games" >"$tmp/stats"
}

# ---- the killer ---------------------------------------------------------------

# workers_of: the pids of the program's workers (children of $parent).
workers_of() {
	ps -o pid= -o stat= --ppid "$parent" | awk '$2 !~ /^Z/ { print $1 }'
}

# killer PARENT WORKERS PAUSE_MS STOPFILE OUT: until STOPFILE exists,
# every PAUSE_MS or so (from half to one and a half) kills one worker of
# PARENT with SIGKILL: one caught in the middle of a request if one is
# seen within 200 ms (a request takes a millisecond or so: shell loops
# would not see one; it holds the connection from nginx besides the
# listening socket), else any.  Before each kill it notes whether all
# WORKERS run.  Writes "kills busy_kills samples full" to OUT.
killer() {
	python3 - "$@" <<'PY'
import os, random, signal, sys, time

parent, nworkers, pause_ms = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
stop, out = sys.argv[4], sys.argv[5]

def workers():
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                rest = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(rest[1]) == parent and rest[0] != "Z":
            found.append(int(d))
    return found

def serving(pid):
    n = 0
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
            except OSError:
                pass
    except OSError:
        return False
    return n > 1

kills = busy = samples = full = 0
while not os.path.exists(stop):
    time.sleep(random.uniform(pause_ms / 2000, pause_ms * 1.5 / 1000))
    pids = workers()
    samples += 1
    full += len(pids) >= nworkers
    victim, deadline = None, time.monotonic() + 0.2
    while victim is None and pids and time.monotonic() < deadline:
        victim = next((p for p in pids if serving(p)), None)
        time.sleep(0.0002)
    hit_busy = victim is not None
    if victim is None:
        pids = workers()
        if not pids:
            continue
        victim = random.choice(pids)
    try:
        os.kill(victim, signal.SIGKILL)
        kills += 1
        busy += hit_busy
    except ProcessLookupError:
        pass
with open(out, "w") as f:
    print(kills, busy, samples, full, file=f)
PY
}

# ============================================================================
up "$run" --workers "$workers" --access-log off
base=$url
origin=$(origin_of "$base")
read -r parent _ <"$run/fcgi.pid"

# The games, made beforehand with the tool (the web's new-game form has
# a rate limit): a pool of its own for each client, more than it needs.
for n in $(seq "$clients"); do
	for _ in $(seq "$games_each"); do
		g=$(timeout 30 "$BUFFERTIME" admin --db "$db" create --players 2 \
			--name Ann --name Bob) || break
		l1=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$g" 1 \
			--key-file "$run/data/server.key" --base-url "$base") || break
		l2=$(timeout 30 "$BUFFERTIME" admin --db "$db" link "$g" 2 \
			--key-file "$run/data/server.key" --base-url "$base") || break
		echo "$g $l1 $l2"
	done >"$tmp/pool.$n"
done
check "the games made ($(cat "$tmp"/pool.* | wc -l))" \
	[ "$(cat "$tmp"/pool.* | wc -l)" -eq $((clients * games_each)) ]
start=$SECONDS

pids=()
for n in $(seq "$clients"); do
	client "$n" &
	pids+=($!)
done
killer "$parent" "$workers" "$pause_ms" "$tmp/stop" "$tmp/kills" &
killer_pid=$!
for _ in $(seq 1500); do   # 150 s at most
	alive=0
	for p in "${pids[@]}"; do
		kill -0 "$p" 2>/dev/null && alive=$((alive + 1))
	done
	[ "$alive" -eq 0 ] && break
	sleep 0.1
done
[ "$alive" -eq 0 ] || { not_ok "the burst took more than 150 s"; kill "${pids[@]}" 2>/dev/null; }
: >"$tmp/stop"
wait "$killer_pid"
for p in "${pids[@]}"; do
	wait "$p"
done
took=$((SECONDS - start))

# ---- the count ------------------------------------------------------------------
read -r kills busy_kills samples full <"$tmp/kills" ||
	{ not_ok "the killer said nothing"; kills=0 busy_kills=0 samples=0 full=0; }
posts=0 accepted=0 blind=0 retries=0 looks=0 games=0
for n in $(seq "$clients"); do
	if ! read -r p a b r l g <"$tmp/c$n/stats"; then
		not_ok "client $n did not finish"
		continue
	fi
	posts=$((posts + p)) accepted=$((accepted + a)) blind=$((blind + b))
	retries=$((retries + r)) looks=$((looks + l)) games=$((games + g))
done
cat "$tmp"/c*/odd 2>/dev/null | head -n 5
odd=$(cat "$tmp"/c*/odd 2>/dev/null | wc -l)
sort "$tmp"/c*/acks >"$tmp/acks"
sort -u "$tmp"/c*/games >"$tmp/games"
ids=$(sed "s/.*/'&'/" "$tmp/games" | paste -sd, -)
sql "SELECT game || ' ' || seq FROM actions WHERE seat > 0 AND game IN (${ids:-''})" |
	sort >"$tmp/record"
lost=$(comm -23 "$tmp/acks" "$tmp/record" | wc -l)
extra=$(comm -13 "$tmp/acks" "$tmp/record" | wc -l)
twice=$(uniq -d "$tmp/acks" | wc -l)
# The parent sees the last kill and starts a worker again soon, but
# "soon" on a loaded machine is not a fixed time: wait for it, 30 s at
# most, and say how long it took.
waited=0
while :; do
	restarted=$(grep -c 'ended (status 9); restarting' "$run/log/fcgi.log")
	now=$(workers_of | wc -l)
	if { [ "$restarted" -ge "$kills" ] && [ "$now" -eq "$workers" ]; } ||
		[ "$waited" -ge 300 ]; then
		break
	fi
	sleep 0.1
	waited=$((waited + 1))
done
echo "the parent had restarted every killed worker $((waited / 10)).$((waited % 10)) s after the burst"

echo "kills $kills ($busy_kills in the middle of a request), move posts $posts, moves taken $accepted + $blind whose answer a kill took, retries $retries, looks $looks, games $games, in ${took} s"
echo "record lines $(wc -l <"$tmp/record"), lost $lost, extra $extra, odd answers $odd, restarts $restarted, workers now $now, all workers up at $full of $samples kills"
check "at least 20 kills ($kills)" [ "$kills" -ge 20 ]
check "at least $((moves * 24 / 25)) move posts ($posts)" [ "$posts" -ge $((moves * 24 / 25)) ]
check "some moves were taken ($accepted)" [ "$accepted" -gt 0 ]
check "some requests were cut off by a kill and sent again ($retries)" [ "$retries" -gt 0 ]
check "$lost moves answered as taken are not in the record" [ "$lost" -eq 0 ]
check "$extra record lines no client took" [ "$extra" -eq 0 ]
check "$twice moves taken twice" [ "$twice" -eq 0 ]
check "$odd unexpected answers" [ "$odd" -eq 0 ]
check "every kill seen and a worker started again ($restarted of $kills)" \
	[ "$restarted" -eq "$kills" ]
check "the program runs its $workers workers again ($now)" [ "$now" -eq "$workers" ]
# A worker killed is replaced at once: the pool stays whole between kills
# (the parent waits only for a worker that dies as soon as it starts).
check "all $workers workers up before most kills ($full of $samples)" \
	[ $((full * 10)) -ge $((samples * 8)) ]
run admin --db "$db" check
expect_rc "admin check after the burst" 0
req "" GET "$base"
expect_code "the home page after the burst" 200

finish
