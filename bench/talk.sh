#!/usr/bin/env bash
# talk.sh - what a game's table talk costs the server (issue 24): a move
# (a POST of the table's form: the append and every seat's email,
# composed inside the move's write transaction) and a GET of a seat's
# Atom feed, through nginx and buffertime.fcgi on loopback, in a 6-seat
# game whose seats all take an email for every move, first with no talk,
# then with BENCH_TALK_ROWS lines of it (written straight into the
# database, said since every seat's last turn: the most an email could
# tell).  Prints the median ms of each (curl's time_total); numbers only:
# slow is no failure, an error is (exit 1).
#
#   bench/talk.sh [BUILDDIR]
#
# BUILDDIR (default .) holds buffertime.fcgi.  The environment may set
#   BENCH_TALK_ROWS (200000)   BENCH_MOVES (7) moves timed per phase
#   BENCH_FEEDS (15) feed GETs timed per phase
# The talk goes past the game's cap (talk_per_game): it is a game's talk
# from before there was one, the worst the reads can meet.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRCDIR=$(cd "$here/.." && pwd)
build=$(cd "${1:-.}" && pwd) || exit 1
BUFFERTIME_FCGI=${BUFFERTIME_FCGI:-$build/buffertime.fcgi}
rows=${BENCH_TALK_ROWS:-200000}
moves=${BENCH_MOVES:-7}
feeds=${BENCH_FEEDS:-15}
seed=5

for t in nginx curl sqlite3; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
		{ echo "bench/talk.sh: $t is not installed" >&2; exit 1; }
done
[ -x "$BUFFERTIME_FCGI" ] || { echo "bench/talk.sh: $BUFFERTIME_FCGI is not built" >&2; exit 1; }

# shellcheck source=tests/testlib.sh
. "$SRCDIR/tests/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$SRCDIR/tests/weblib.sh"
web_test_start talkbench nginx curl sqlite3

die() {
	echo "bench/talk.sh: $*" >&2
	exit 1
}

# median: the median of the numbers on stdin, one a line.
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "?";
		else if (NR % 2) print v[(NR + 1) / 2];
		else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ms CURL-ARGS...: one request's time_total in ms (the body in $tmp/b).
ms() {
	curl -s --max-time 60 -o "$tmp/b" -w '%{time_total}\n' "$@" |
		awk '{ printf "%.1f\n", $1 * 1000 }'
}

# move: the seat to move POSTs a form of its table; its time in ms on
# stdout, nothing if no move was stored.
move() {
	local s n t
	s=$(turn_seat)
	[ "$s" -ge 1 ] 2>/dev/null || return 1
	n=$(lines)
	page "$s" >/dev/null
	form pick 'action=log' || form pick 'action=work' || form random '' ||
		return 1
	t=$(ms -b "${jar[$s]}" -c "${jar[$s]}" -H \
		'Content-Type: application/x-www-form-urlencoded' \
		--data-binary "$form_body" "$form_url")
	[ "$(lines)" -gt "$n" ] && echo "$t"
}

# phase NAME: median ms of BENCH_MOVES moves and BENCH_FEEDS feed GETs.
phase() {
	local m f i
	m=$(for ((i = 0; i < moves; i++)); do move; done | median)
	f=$(for ((i = 0; i < feeds; i++)); do ms "$feed"; done | median)
	printf '%-24s move %6s ms   feed %6s ms\n' "$1" "$m" "$f"
}

run=$tmp/run
up "$run" >/dev/null
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db
declare -a jar links
create 1 Ann:ann%40example.org Bob:bob%40example.org Cyd:cyd%40example.org \
	Dee:dee%40example.org Eve:eve%40example.org Fay:fay%40example.org ||
	die "could not create the game"
for s in 1 2 3 4 5 6; do
	jar[$s]=$tmp/jar.$s
	req "${jar[$s]}" GET "${links[$s]}"
done
sql "UPDATE seats SET notify = 'every' WHERE game = '$game'" ||
	die "cannot write the database"
req "${jar[1]}" GET "${base}g/$game/settings"
feed=$(grep -o "${base}g/$game/feed?s=[0-9]&amp;k=[A-Za-z0-9_-]*" "$tmp/b" |
	head -n 1 | sed 's/&amp;/\&/')
[ -n "$feed" ] || die "no feed address on the settings page"
move >/dev/null || die "the first move failed"

echo "bench/talk.sh: a 6-seat game, every seat mailed every move;" \
	"median of $moves moves, $feeds feeds"
phase "no talk"
start=$(date +%s)
sql "PRAGMA busy_timeout = 10000; WITH RECURSIVE c(i) AS (SELECT 0
	UNION ALL SELECT i + 1 FROM c WHERE i + 1 < $rows)
	INSERT INTO chat (game, seq, seat, text, created, at_seq)
	SELECT '$game', (SELECT coalesce(max(seq) + 1, 0) FROM chat
	WHERE game = '$game') + i, 1 + i % 6, 'a line of table talk, ' || i,
	$start - 3600 + i / 100, (SELECT seq FROM games WHERE id = '$game')
	FROM c" >/dev/null || die "cannot write the talk"
phase "$rows lines of talk"
finish >/dev/null
