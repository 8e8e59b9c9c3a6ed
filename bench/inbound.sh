#!/bin/sh
# inbound.sh - how long `buffertime inbound` takes for a typical reply
# (a move by its menu number: parse, check the token and the sender,
# append the move with its emails, queue the answer), process start
# included: BENCH_REPLIES (200) replies in 3-seat games, each timed
# alone, with synchronous = full and then normal (the fsync of each
# commit is the difference).  Prints the median and p99 in ms of each.
# Numbers only: slow is no failure; a reply not handled is (exit 1).
#
#   bench/inbound.sh [TOOL]
#
# TOOL is the built buffertime (default ./buffertime); tests/replydrive
# beside it writes the replies (make check builds it), untimed.
set -u

tool=${1:-./buffertime}
drive=$(dirname "$tool")/tests/replydrive
replies=${BENCH_REPLIES:-200}

die() {
	echo "bench/inbound.sh: $*" >&2
	exit 1
}

for p in "$tool" "$drive"; do
	[ -x "$p" ] || die "$p is not built (make check builds it)"
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-bench-inbound.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# run SYNC: the times of BENCH_REPLIES replies, in ns, one per line.
run() {
	db=$tmp/$1.db
	key=$tmp/server.key
	[ -f "$key" ] || { head -c 32 /dev/urandom >"$key" && chmod 600 "$key"; }
	printf 'db = %s\nkey_file = %s\nbase_url = http://bt.example/\n%s\n%s\n' \
		"$db" "$key" "reply_address = play@bt.example" \
		"synchronous = $1" >"$tmp/$1.conf"
	"$drive" new "$db" 1 >/dev/null || die "creating a game"
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
		t0=$(date +%s%N)
		"$tool" inbound --config "$tmp/$1.conf" <"$tmp/msg" \
			2>>"$tmp/log" || die "a reply was not handled: $(tail -n 1 "$tmp/log")"
		t1=$(date +%s%N)
		echo $((t1 - t0))
	done
}

# stats: median and p99 (ms) of the numbers on standard input.
stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.99 + 0.999)]
		printf "median %.2f ms, p99 %.2f ms (%d replies)", \
			m / 1e6, p / 1e6, NR }'
}

for sync in full normal; do
	printf 'synchronous = %s: %s\n' "$sync" "$(run "$sync" | stats)"
done
