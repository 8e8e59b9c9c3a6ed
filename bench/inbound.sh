#!/bin/sh
# inbound.sh - how long `buffertime inbound` takes for a typical reply
# (a move by its menu number: parse, check the token and the sender,
# append the move with its emails, queue the answer), process start
# included: BENCH_REPLIES (200) replies in 3-seat games, each timed
# alone by bench/spawn_time, with synchronous = full and then normal
# (the fsync of each commit is the difference), while another process
# holds the database open as a running server's worker does (so the
# write-ahead log stays between replies, as it does on a server; with no
# other connection each reply would also checkpoint and delete it).
# Prints the median and
# p99 in ms of each, and beside them, timed in turn with the replies so
# that both see the same machine, what starting a process costs here:
# /bin/true, and `buffertime --help` (the tool's libraries loaded).
# Numbers only: slow is no failure; a reply not handled is (exit 1).
#
#   bench/inbound.sh [TOOL]
#
# TOOL is the built buffertime (default ./buffertime); tests/replydrive
# and bench/spawn_time beside it (make check builds them) write the
# replies, untimed, and time the runs.
set -u

tool=${1:-./buffertime}
drive=$(dirname "$tool")/tests/replydrive
timer=$(dirname "$tool")/bench/spawn_time
replies=${BENCH_REPLIES:-200}

die() {
	echo "bench/inbound.sh: $*" >&2
	exit 1
}

for p in "$tool" "$drive" "$timer"; do
	[ -x "$p" ] || die "$p is not built (make check builds it)"
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-bench-inbound.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# run SYNC: for each of BENCH_REPLIES replies, a line of three times in
# ns: the reply, /bin/true, buffertime --help.
run() {
	db=$tmp/$1.db
	key=$tmp/server.key
	[ -f "$key" ] || { head -c 32 /dev/urandom >"$key" && chmod 600 "$key"; }
	printf 'db = %s\nkey_file = %s\nbase_url = http://bt.example/\n%s\n%s\n' \
		"$db" "$key" "reply_address = play@bt.example" \
		"synchronous = $1" >"$tmp/$1.conf"
	"$drive" new "$db" 1 >/dev/null || die "creating a game"
	rm -f "$tmp/hold"
	mkfifo "$tmp/hold" || die "mkfifo failed"
	"$drive" hold "$db" <"$tmp/hold" >"$tmp/held" &
	exec 3>"$tmp/hold"
	until [ -s "$tmp/held" ]; do
		kill -0 $! 2>/dev/null || die "replydrive hold failed"
		sleep 0.1
	done
	i=0
	while [ "$i" -lt "$replies" ]; do
		i=$((i + 1))
		out=$("$drive" next "$db" "$key" "b$1$i" "$tmp/msg") ||
			die "replydrive failed"
		if [ "$out" = done ]; then
			"$drive" new "$db" 1 >/dev/null || die "creating a game"
			"$drive" next "$db" "$key" "b$1$i" "$tmp/msg" >/dev/null ||
				die "replydrive failed"
		fi
		t=$("$timer" "$tmp/msg" "$tool" inbound --config "$tmp/$1.conf" \
			2>>"$tmp/log") ||
			die "a reply was not handled: $(tail -n 1 "$tmp/log")"
		echo "$t $("$timer" /dev/null /bin/true)" \
			"$("$timer" /dev/null "$tool" --help)"
	done
	exec 3>&-
	wait
}

# stats COLUMN: median and p99 (ms) of that column of standard input.
stats() {
	cut -d ' ' -f "$1" | sort -n | awk '{ v[NR] = $1 } END {
		m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.99 + 0.999)]
		printf "median %.2f ms, p99 %.2f ms", m / 1e6, p / 1e6 }'
}

for sync in full normal; do
	run "$sync" >"$tmp/times" || exit 1
	printf 'synchronous = %s: %s (%d replies)\n' "$sync" \
		"$(stats 1 <"$tmp/times")" "$replies"
	printf '  beside them: /bin/true %s; buffertime --help %s\n' \
		"$(stats 2 <"$tmp/times")" "$(stats 3 <"$tmp/times")"
done
