#!/bin/bash
# inboundkill.sh - replies under fire: INBOUNDKILL_REPLIES (1000) replies
# to turn emails, as players of 3-seat games would write them
# (tests/replydrive: the greedy crew's choice by its menu number, the
# Sensor Sweep's look and order), are piped to `buffertime inbound` the
# way an MTA delivers them; half the deliveries are killed with SIGKILL
# after a random 0 to 14 ms, and a killed or "try again" (75) delivery
# is delivered again, as an MTA does after a crash; every tenth reply is
# delivered once more after it was handled (a duplicate).  Then:
#   doubled  moves made twice for one reply: the actions must number
#            exactly the move replies;
#   lost     a reply handled (exit 0) whose move is not there: the same;
#   answers  at most one answer per reply (a move that hands the turn on
#            gets none: the seat's next turn email tells it), one per
#            look at least, and each Message-ID recorded once;
#   and `admin check` replays every game to its stored state.
# BT_TEST_ENGINE=postgres: on a PostgreSQL server (testlib.sh).
set -u
LC_ALL=C
export LC_ALL

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
unset BUFFERTIME_DB BUFFERTIME_NOW

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-inboundkill.XXXXXX") || exit 1
trap 'db_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

drive=$(dirname "$BUFFERTIME")/tests/replydrive
[ -x "$drive" ] || { echo "FAIL: $drive is not built (make check builds it)"; exit 1; }
replies=${INBOUNDKILL_REPLIES:-1000}
engine_init

db_new db "$tmp/games.db"
key=$tmp/server.key
head -c 32 /dev/urandom >"$key" && chmod 600 "$key"
cat >"$tmp/settings" <<EOF
db = $db
key_file = $key
base_url = http://bt.example/
reply_address = play@bt.example
EOF

"$drive" new "$db" 2 >/dev/null || not_ok "creating games"

# deliver FILE: until it is handled; prints the exit status it ended on.
deliver() {
	local rc p
	while :; do
		"$BUFFERTIME" inbound --config "$tmp/settings" <"$1" \
			2>>"$tmp/inbound.log" &
		p=$!
		if [ $((RANDOM % 2)) -eq 0 ]; then
			sleep "0.0$(printf %02d $((RANDOM % 15)))"
			kill -KILL "$p" 2>/dev/null && kills=$((kills + 1))
		fi
		wait "$p" 2>/dev/null
		rc=$?
		case $rc in
			137|75) again=$((again + 1)) ;;   # killed, or busy
			*) return "$rc" ;;
		esac
	done
}

kills=0 again=0 moves=0 looks=0 dups=0 sent=0 bad=0
for i in $(seq "$replies"); do
	out=$("$drive" next "$db" "$key" "r$i" "$tmp/msg") ||
		{ not_ok "replydrive failed at reply $i"; break; }
	if [ "$out" = done ]; then
		"$drive" new "$db" 1 >/dev/null
		out=$("$drive" next "$db" "$key" "r$i" "$tmp/msg") || break
	fi
	deliver "$tmp/msg"
	rc=$?
	[ "$rc" -eq 0 ] || { bad=$((bad + 1)); echo "reply $i: exit $rc"; }
	sent=$((sent + 1))
	case $out in
		move*) moves=$((moves + 1)) ;;
		look*) looks=$((looks + 1)) ;;
	esac
	if [ $((i % 10)) -eq 0 ]; then
		deliver "$tmp/msg" || bad=$((bad + 1))
		dups=$((dups + 1))
	fi
done

actions=$(sql "SELECT count(*) FROM actions")
recorded=$(sql "SELECT count(*) FROM replies")
answers=$(sql "SELECT count(*) FROM outbox WHERE kind = 'answer'")
games=$(sql "SELECT count(*) FROM games")
echo "replies $sent ($moves moves, $looks looks) in $games games," \
	"duplicates $dups, kills $kills, deliveries again $again"
echo "actions $actions, replies recorded $recorded, answers $answers"
check "$bad replies were not handled (see the log above)" [ "$bad" -eq 0 ]
check "the actions ($actions) are not the move replies ($moves)" \
	[ "$actions" -eq "$moves" ]
check "replies recorded $recorded, sent $sent" [ "$recorded" -eq "$sent" ]
check "answers $answers, replies $sent" [ "$answers" -le "$sent" ]
check "answers $answers, looks $looks" [ "$answers" -ge "$looks" ]
check "no delivery was killed" [ "$kills" -gt 0 ]
check "a game does not replay to its state" \
	timeout 120 "$BUFFERTIME" admin --db "$db" check
check "the replies were not handled in one go: $(grep -c 'moved' \
	"$tmp/inbound.log") moved lines" grep -q 'moved' "$tmp/inbound.log"
finish
