#!/bin/sh
# mailer.sh - how fast `buffertime worker --once` drains a full outbox:
# BENCH_MAILS (10000) emails queued in a real SQLite file (by
# tests/maildrive: seat emails of ~1.5 KB, UTF-8 subjects), then one
# round through bench/fake_sendmail, a sendmail that reads the message
# and exits (a process started per email, as with a real sendmail).
# Prints messages per second, the median of BENCH_MAIL_RUNS (3) runs,
# and the same for a round that writes each email as a file in a folder
# (--mail-dir: one fsync'd file and rename per email).  Only prints
# numbers: slow is no failure; an email left unsent is (exit 1).
#
#   bench/mailer.sh [TOOL]
#
# TOOL is the built buffertime (default ./buffertime); tests/maildrive
# and bench/fake_sendmail are beside it (make check builds them).
set -u

tool=${1:-./buffertime}
build=$(dirname "$tool")
drive=$build/tests/maildrive
fake=$build/bench/fake_sendmail
mails=${BENCH_MAILS:-10000}
runs=${BENCH_MAIL_RUNS:-3}

die() {
	echo "bench/mailer.sh: $*" >&2
	exit 1
}

for p in "$tool" "$drive" "$fake"; do
	[ -x "$p" ] || die "$p is not built (make check builds it)"
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-mailbench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
unset BUFFERTIME_NOW BUFFERTIME_DB FAKE_MAIL_DIR
head -c 32 /dev/urandom >"$tmp/key" && chmod 600 "$tmp/key"

median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "n/a"; exit }
		if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# one_run ARGS...: queues $mails emails in a new database and prints the
# messages per second of one mailer round with ARGS.
one_run() {
	rm -rf "$tmp/db" "$tmp/db-wal" "$tmp/db-shm" "$tmp/folder"
	"$drive" queue "$tmp/db" "$mails" >/dev/null || die "maildrive failed"
	t0=$(date +%s%N)
	"$tool" worker --db "$tmp/db" --key-file "$tmp/key" \
		--base-url https://bt.example/ --mail-from bt@example.org \
		--once "$@" 2>"$tmp/err" || die "the mailer failed: $(tail -n 2 "$tmp/err")"
	t1=$(date +%s%N)
	left=$("$tool" admin --db "$tmp/db" mail list | wc -l)
	[ "$left" -eq 1 ] || die "$((left - 1)) emails left queued"
	awk -v n="$mails" -v ns=$((t1 - t0)) 'BEGIN { printf "%.0f\n", n / (ns / 1e9) }'
}

# series LABEL ARGS...: $runs runs, the median and each run.
series() {
	label=$1
	shift
	: >"$tmp/rates"
	for _ in $(seq "$runs"); do
		one_run "$@" >>"$tmp/rates"
	done
	printf '%-46s %8s msgs/s  (runs: %s)\n' "$label" \
		"$(median <"$tmp/rates")" "$(tr '\n' ' ' <"$tmp/rates" | sed 's/ $//')"
}

echo "mailer: $mails queued emails drained by one --once round, median of $runs"
series "through a fake sendmail (a process per email)" --sendmail "$fake -t -i"
series "into a folder (--mail-dir, fsync per email)" --mail-dir "$tmp/folder"
