#!/usr/bin/env bash
# notices.sh - the outbox's send rate with Web Push and webhooks beside
# email: BENCH_NOTICES (1000) of each queued in a real SQLite file, then
# drained, each kind alone and the three together by one `buffertime
# worker --once` (its emails, then buffertime-notify's notices), against
# local receivers on loopback: tests/push_service.py (which checks each
# VAPID JWT and decrypts each message) and tests/hook_receiver.py.
# Prints messages per second, the median of BENCH_NOTICE_RUNS (3) runs;
# the receivers, in Python, are part of what is timed.  Slow is no
# failure; a message left unsent is (exit 1).
#
#   bench/notices.sh [TOOL]
#
# TOOL is the built buffertime (default ./buffertime; buffertime-notify
# and tests/maildrive are beside it); SRCDIR the source tree (default:
# this script's parent).
set -u

tool=${1:-./buffertime}
build=$(dirname "$tool")
notify=$build/buffertime-notify
drive=$build/tests/maildrive
src=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
n=${BENCH_NOTICES:-1000}
runs=${BENCH_NOTICE_RUNS:-3}

die() {
	echo "bench/notices.sh: $*" >&2
	exit 1
}

for p in "$tool" "$notify" "$drive"; do
	[ -x "$p" ] || die "$p is not built (make check builds it)"
done
command -v sqlite3 >/dev/null || die "sqlite3 is not installed"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-noticebench.XXXXXX") || exit 1
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
unset BUFFERTIME_NOW BUFFERTIME_DB

serve() {   # serve SCRIPT DIR: its port in $port
	mkdir -p "$2"
	python3 "$src/tests/$1" "$2" 2>"$2/stderr" &
	pids+=("$!")
	for _ in $(seq 100); do
		[ -s "$2/port" ] && break
		sleep 0.1
	done
	port=$(cat "$2/port" 2>/dev/null) || die "$1 did not start"
}
serve push_service.py "$tmp/ps"
push=http://127.0.0.1:$port/push/b
serve hook_receiver.py "$tmp/hr"
hook=http://127.0.0.1:$port/ok/discord
read -r p256dh auth < <(python3 "$src/tests/push_service.py" keys "$tmp/ps" b)

cat >"$tmp/conf" <<EOF
db = $tmp/db
key_file = $tmp/key
base_url = https://bt.example/
mail_from = bt@example.org
allow_private_urls = 1
EOF
head -c 32 /dev/urandom >"$tmp/key" && chmod 600 "$tmp/key"

median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "n/a"; exit }
		if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# fresh WHAT...: a new database with $n of each WHAT (mail, push, hook)
# queued, and one game whose seat 2 is notified and which names a chat.
fresh() {
	rm -rf "$tmp/db" "$tmp/db-wal" "$tmp/db-shm" "$tmp/folder"
	"$drive" queue "$tmp/db" "$(case " $* " in *" mail "*) echo "$n" ;; *) echo 1 ;; esac)" \
		>/dev/null || die "maildrive failed"
	game=$("$tool" admin --db "$tmp/db" create --players 2 --name Ann \
		--email ann@example.org --name Ben --email ben@example.org |
		grep -oE '[A-Za-z0-9_-]{22}' | head -n 1)
	[ -n "$game" ] || die "admin create made no game"
	local now rows
	now=$(date +%s)
	rows="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < $n) SELECT x FROM c"
	sqlite3 "$tmp/db" "
		INSERT INTO push_subs VALUES ('$game', 2, '$push', '$p256dh', '$auth', $now);
		INSERT INTO game_hooks VALUES ('$game', '$hook', 'discord', '$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')', 1, $now);" ||
		die "sqlite3 failed"
	case " $* " in *" mail "*) ;; *)   # no email to drain
		sqlite3 "$tmp/db" "UPDATE outbox SET sent = $now" ;;
	esac
	case " $* " in *" push "*)
		sqlite3 "$tmp/db" "INSERT INTO notices (game, seat, kind, channel, target, round, risk, created, next_attempt)
			SELECT '$game', 2, 'turn', 'push', '$push', 1, 12, $now, 0 FROM ($rows)" ;;
	esac
	case " $* " in *" hook "*)
		sqlite3 "$tmp/db" "INSERT INTO notices (game, seat, kind, channel, target, round, risk, created, next_attempt)
			SELECT '$game', 2, 'turn', 'hook', '$hook', 1, 12, $now, 0 FROM ($rows)" ;;
	esac
}

# timed CMD...: runs it; prints the seconds it took.
timed() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" 2>"$tmp/err" || die "$1 failed: $(tail -n 2 "$tmp/err")"
	t1=$(date +%s%N)
	awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f\n", ns / 1e9 }'
}

left() {
	sqlite3 "$tmp/db" "SELECT (SELECT count(*) FROM notices WHERE sent IS NULL)
		+ (SELECT count(*) FROM outbox WHERE sent IS NULL AND dropped IS NULL)"
}

# one_run KINDS...: messages per second of one drain of $n of each kind.
one_run() {
	local secs
	fresh "$@"
	case "$*" in
	mail) secs=$(timed "$tool" worker --config "$tmp/conf" --mail-dir "$tmp/folder" --once) ;;
	push|hook) secs=$(timed "$notify" --config "$tmp/conf" --once) ;;
	*) secs=$(timed "$tool" worker --config "$tmp/conf" --mail-dir "$tmp/folder" --once) ;;
	esac
	[ "$(left)" -eq 0 ] || die "$(left) messages left unsent ($*): $(sqlite3 "$tmp/db" "SELECT channel, attempts, last_error FROM notices WHERE sent IS NULL LIMIT 3") $(tail -n 3 "$tmp/err")"
	awk -v m=$((n * $#)) -v s="$secs" 'BEGIN { printf "%.0f\n", m / s }'
}

series() {   # series LABEL KINDS...
	local label=$1
	shift
	: >"$tmp/rates"
	for _ in $(seq "$runs"); do
		one_run "$@" >>"$tmp/rates"
	done
	printf '%-44s %8s msgs/s  (runs: %s)\n' "$label" \
		"$(median <"$tmp/rates")" "$(tr '\n' ' ' <"$tmp/rates" | sed 's/ $//')"
}

echo "notices: $n queued of each kind, drained by one --once run, median of $runs"
series "emails into a folder (fsync per email)" mail
series "Web Push (encrypted, VAPID-signed, POSTed)" push
series "webhook messages (Discord's format)" hook
series "all three, by one worker --once" mail push hook
