#!/usr/bin/env bash
# web.sh - what the web stack serves, with wrk on loopback against nginx
# and buffertime.fcgi (2 workers unless told), next to two ceilings measured in the
# same run.  Prints numbers only: slowness is never a failure (an error
# is: exit 1).
#
#   bench/web.sh [BUILDDIR]
#
# BUILDDIR (default .) holds buffertime.fcgi and, if make check built it,
# bench/bare_fcgi; otherwise bare_fcgi is compiled here from
# bench/bare_fcgi.c with cc -lfcgi.  The environment may change:
#   BENCH_SECS (10)  each wrk run;  BENCH_CONNS (32)  BENCH_THREADS (2)
#   BENCH_RSS_REQUESTS (100000)  requests between the two RSS readings
#   BENCH_WORKERS (2)  FastCGI workers of buffertime.fcgi and of bare_fcgi
#   BENCH_SYNC (full)  the store's synchronous setting (full or normal)
#   BENCH_ROUNDS (3)  rounds of table, cond, bare (see below)
#   BENCH_DB          the store: a PostgreSQL URL of an empty database
#                     (default: a SQLite file of the run; full or normal
#                     is then synchronous_commit on or off)
#
# Measured, all through nginx (one worker process, access log off):
#   table   GET of a seat's table page (a 3-player game after a few moves)
#   cond    the same GET with If-None-Match: its ETag, as www/live.js
#           polls a table left open: a 304 from one small query, no page
#   stale   POST of an action form whose seq is outdated: the whole POST
#           path (form decoding, CSRF check, loading the game, the seq
#           compare, the 303) without a write; wrk, 32 connections
#   play    the real thing, one game per connection (bench/play.lua, as
#           many wrk threads as connections): create a game, open the 3
#           links, then GET the table of the seat to move and POST one of
#           its forms filled in as a player would, again and again, new
#           games as games end.  Legal actions/s counts the moves stored
#           (each an fsync'ed SQLite append, synchronous=FULL, after its
#           GET; a Sensor Sweep's look is half of one).  Nothing else
#           plays these games, so a refused POST is an error, and so is a
#           count of moves the store's new action lines do not match
#   static  nginx serving a file of the table page's size (ceiling)
#   bare    bench/bare_fcgi, as many workers, returning that page (ceiling)
#   RSS     of each worker before and after BENCH_RSS_REQUESTS table GETs
# table, cond and bare run in turn, BENCH_ROUNDS times, with both servers
# up, so that a shared machine's changing load falls on all three alike;
# the ratios compare their medians.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${1:-.}" && pwd) || exit 1
fcgi=${BUFFERTIME_FCGI:-$build/buffertime.fcgi}
secs=${BENCH_SECS:-10}
conns=${BENCH_CONNS:-32}
threads=${BENCH_THREADS:-2}
rounds=${BENCH_ROUNDS:-3}
case $rounds in ""|*[!0-9]*|0) echo "web.sh: BENCH_ROUNDS must be a number above 0" >&2; exit 2 ;; esac
rss_requests=${BENCH_RSS_REQUESTS:-100000}
workers=${BENCH_WORKERS:-2}
case $workers in ""|*[!0-9]*|0) echo "web.sh: BENCH_WORKERS must be a number above 0" >&2; exit 2 ;; esac

die() {
	echo "bench/web.sh: $*" >&2
	exit 1
}

command -v wrk >/dev/null || die "wrk is not installed (scripts/install-deps)"
command -v curl >/dev/null || die "curl is not installed"
db_args=()
if [ -n "${BENCH_DB:-}" ]; then
	db_args=(--db "$BENCH_DB")
	command -v psql >/dev/null || die "psql is not installed (scripts/install-deps)"
else
	command -v sqlite3 >/dev/null || die "sqlite3 is not installed (scripts/install-deps)"
fi
[ -x "$fcgi" ] || die "$fcgi is not built"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-webbench.XXXXXX") || exit 1
cleanup() {
	bash "$src/scripts/web" down "$tmp/run" >/dev/null 2>&1
	bash "$src/scripts/web" down "$tmp/bare" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

bare=$build/bench/bare_fcgi
if [ ! -x "$bare" ]; then
	bare=$tmp/bare_fcgi
	cc -O2 -o "$bare" "$src/bench/bare_fcgi.c" -lfcgi ||
		die "cannot compile bench/bare_fcgi.c (libfcgi-dev)"
fi

# The static files, plus the copy of the table page nginx serves.
mkdir -p "$tmp/www"
cp -R "$src/www/." "$tmp/www/"

# The load makes a new game whenever one ends: hundreds an hour from one
# address, past the default games_per_hour.
url=$(bash "$src/scripts/web" up "$tmp/run" --fcgi "$fcgi" --templates "$src/templates" \
	--www "$tmp/www" --workers "$workers" --access-log off --set games_per_hour=0 \
	--synchronous "${BENCH_SYNC:-full}" "${db_args[@]}" 2>"$tmp/up.err") ||
	{ cat "$tmp/up.err" >&2; die "scripts/web up failed"; }

# A game, its seat links, and a few moves so that the table is typical.
curl -s --max-time 10 -o "$tmp/created.html" -d \
	'players=3&name1=Beckett&name2=Brad&name3=Tendi&first=1' "${url}new" ||
	die "cannot create a game"
mapfile -t links < <(grep -o "${url}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" \
	"$tmp/created.html" | awk '!seen[$0]++')
[ "${#links[@]}" -eq 3 ] || die "the created page has ${#links[@]} links, not 3"
game=${links[0]#"${url}g/"}
game=${game%%\?*}
for s in 1 2 3; do
	curl -s --max-time 10 -o /dev/null -c "$tmp/jar$s" "${links[$((s - 1))]}" ||
		die "cannot open seat $s's link"
done
cookie() {
	awk -v n="bt_$game" '$6 == n { print n "=" $7 }' "$tmp/jar$1"
}

# first_form SEAT: the first action form on the seat's table, as
# "URL<tab>BODY", filled in as a browser sends it untouched (a select's
# selected or first option, the checked radio); the work form first if
# there is one.
first_form() {
	curl -s --max-time 10 -b "$tmp/jar$1" "${url}g/$game" >"$tmp/page.html"
	awk '
		function attr(name,    v) {
			if (!match($0, name "=\"[^\"]*\"")) return ""
			return substr($0, RSTART + length(name) + 2,
			              RLENGTH - length(name) - 3) }
		function add(n, v) { body = body (body == "" ? "" : "&") n "=" v }
		/<form class="act/ { inf = 1; body = ""; act = "" }
		inf && act == "" && /action="/ { act = attr("action") }
		inf && /<input type="hidden"/ { add(attr("name"), attr("value")) }
		inf && /<input type="radio".* checked/ { add(attr("name"), attr("value")) }
		inf && /<select / { sel = attr("name"); pick = "" }
		inf && sel != "" && /<option / && (pick == "" || / selected/) {
			pick = attr("value") }
		inf && sel != "" && /<\/select>/ { add(sel, pick); sel = "" }
		inf && /<\/form>/ { inf = 0
			if (body ~ /action=work/) { print act "\t" body; done = 1; exit }
			if (first == "") first = act "\t" body }
		END { if (!done && first != "") print first }' "$tmp/page.html"
}
# post_form SEAT FORM: posts first_form's FORM as SEAT; prints the
# answer's code and redirect.
post_form() {
	curl -s --max-time 10 -o /dev/null -w '%{http_code} %{redirect_url}' \
		-b "$tmp/jar$1" -d "${2#*$'\t'}" "${url%/}${2%%$'\t'*}"
}
# accepted ANSWER: 0 if post_form's ANSWER is a move taken.
accepted() {
	case $1 in
	"303 "*"m="*) return 1 ;;
	"303 "*) return 0 ;;
	*) return 1 ;;
	esac
}
for _ in $(seq 6); do
	for s in 1 2 3; do
		f=$(first_form "$s")
		[ -n "$f" ] || continue
		code=$(post_form "$s" "$f")
		accepted "$code" || die "seat $s's form was refused: $code (${f#*$'\t'})"
		break
	done
done
# The seat to move now, and a form of theirs that is about to be stale.
for s in 1 2 3; do
	f=$(first_form "$s")
	[ -n "$f" ] && break
done
[ -n "$f" ] || die "nobody has a form to post"
table_cookie=$(cookie "$s")
stale_url=${url%/}${f%%$'\t'*}
stale_body=${f#*$'\t'}
code=$(post_form "$s" "$f")
accepted "$code" || die "seat $s's form was refused: $code ($stale_body)"
code=$(post_form "$s" "$f")
case $code in
"303 "*"m=stale"*) ;;
*) die "the stale form did not get ?m=stale: $code" ;;
esac
curl -s --max-time 10 -b "$tmp/jar$s" -o "$tmp/table.html" "${url}g/$game"
size=$(wc -c <"$tmp/table.html")
cp "$tmp/table.html" "$tmp/www/bench-page.html"
etag=$(curl -s --max-time 10 -D - -o /dev/null -b "$tmp/jar$s" "${url}g/$game" |
	sed -n 's/^[Ee][Tt][Aa][Gg]: *//p' | tr -d '\r')
[ -n "$etag" ] || die "the table page has no ETag"
code=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -b "$tmp/jar$s" \
	-H "If-None-Match: $etag" "${url}g/$game")
[ "$code" = 304 ] || die "the table with If-None-Match: $etag got $code, not 304"

# wrk_run NAME ARGS...: runs wrk; prints "NAME: R req/s, p99 L (N
# requests, non-2xx/3xx K)".
wrk_run() {
	local name=$1
	shift
	wrk -t"$threads" -c"$conns" -d"${secs}s" --latency "$@" >"$tmp/wrk.out" 2>&1 ||
		die "wrk failed: $(cat "$tmp/wrk.out")"
	awk -v name="$name" '
		/Requests\/sec:/ { rps = $2 }
		/^ +99%/ { p99 = $2 }
		/requests in/ { n = $1 }
		/Non-2xx or 3xx/ { bad = $NF }
		END { printf "%-8s %9.0f req/s   p99 %-9s (%s requests%s)\n", name ":",
		      rps, p99, n, bad ? ", " bad " non-2xx/3xx" : "" }' "$tmp/wrk.out"
	sed -n 's/^ *Socket errors: /    socket errors: /p' "$tmp/wrk.out"
}
rps_of() {
	awk '/Requests\/sec:/ { print int($2) }' "$tmp/wrk.out"
}
# store_lines: the number of action lines in the store.
store_lines() {
	if [ -n "${BENCH_DB:-}" ]; then
		psql -XAtq "$BENCH_DB" -c 'SELECT count(*) FROM actions WHERE seat > 0'
		return
	fi
	sqlite3 "$tmp/run/data/buffertime.db" 'PRAGMA busy_timeout = 10000;
		SELECT count(*) FROM actions WHERE seat > 0;' | tail -n 1
}

cat >"$tmp/post.lua" <<EOF
wrk.method = "POST"
wrk.body = "$stale_body"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Cookie"] = "$table_cookie"
EOF


worker_pids() {
	local sid
	read -r sid _ <"$1/fcgi.pid"
	for f in /proc/[0-9]*/stat; do
		{ read -r line <"$f"; } 2>/dev/null || continue
		rest=${line##*) }
		set -- $rest
		p=${f#/proc/}
		p=${p%/stat}
		[ "$4" = "$sid" ] && [ "$p" != "$sid" ] && echo "$p"
	done
}
rss() {
	for p in $(worker_pids "$tmp/run"); do
		printf '%s:%s kB ' "$p" "$(awk '/^VmRSS/ { print $2 }' "/proc/$p/status")"
	done
}

echo "web bench: wrk -t$threads -c$conns -d${secs}s, nginx + $workers FastCGI workers," \
	"$(getconf _NPROCESSORS_ONLN) cores; the table page is $size bytes"
rss_before=$(rss)

bare_url=$(bash "$src/scripts/web" up "$tmp/bare" --responder "$bare $tmp/table.html" \
	--www "$tmp/www" --workers "$workers" --access-log off 2>"$tmp/up.err") ||
	{ cat "$tmp/up.err" >&2; die "scripts/web up (bare_fcgi) failed"; }
table_all='' cond_all='' bare_all=''
for _ in $(seq "$rounds"); do
	wrk_run table -H "Cookie: $table_cookie" "${url}g/$game"
	table_all="$table_all $(rps_of)"
	wrk_run cond -H "Cookie: $table_cookie" -H "If-None-Match: $etag" "${url}g/$game"
	cond_all="$cond_all $(rps_of)"
	wrk_run bare "${bare_url}g/$game"
	bare_all="$bare_all $(rps_of)"
done
bash "$src/scripts/web" down "$tmp/bare" >/dev/null 2>&1 || true
# median LIST: the median of the numbers of LIST.
median() {
	printf '%s\n' $1 | sort -n | awk '{ v[NR] = $1 }
		END { print NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
table_rps=$(median "$table_all")
cond_rps=$(median "$cond_all")
bare_rps=$(median "$bare_all")
awk -v t="$table_rps" -v c="$cond_rps" -v b="$bare_rps" -v n="$rounds" 'BEGIN {
	printf "medians of %d rounds: table %d, cond %d, bare %d req/s\n", n, t, c, b
	if (b > 0) {
	printf "table / bare: %.0f%% of the bare responder (target 50%%)\n", 100 * t / b
	printf "cond / bare:  %.0f%% of the bare responder (target 80%%)\n", 100 * c / b } }'
wrk_run stale -s "$tmp/post.lua" "$stale_url"

lines_before=$(store_lines) || die "cannot count the store's action lines"
wrk -t"$conns" -c"$conns" -d"${secs}s" --latency -s "$here/play.lua" "$url" \
	>"$tmp/wrk.out" 2>&1 || die "wrk (play) failed: $(cat "$tmp/wrk.out")"
lines_after=$(store_lines) || die "cannot count the store's action lines"
read -r _ moves looks refused games ended stuck failed play_secs \
	< <(grep '^PLAY ' "$tmp/wrk.out") ||
	die "wrk (play) printed no counts: $(cat "$tmp/wrk.out")"
awk -v c="$conns" -v m="$moves" -v l="$looks" -v r="$refused" -v g="$games" \
	-v e="$ended" -v s="$play_secs" -v k="$((lines_after - lines_before))" '
	/Requests\/sec:/ { rps = $2 }
	/^ +99%/ { p99 = $2 }
	END { printf "play:    %9.0f legal actions/s (%d moves stored, %d Sensor Sweep looks, %d refused POSTs; %d games, %d ended; wrk -t%d -c%d)\n", s ? m / s : 0, m, l, r, g, e, c, c
	      printf "         %9.0f req/s of all requests (a GET before each POST, new games), p99 %s; the store gained %d action lines\n", rps, p99, k }' "$tmp/wrk.out"
sed -n 's/^\(REFUSED\|FAILED\) /    first &/p' "$tmp/wrk.out" | head -3
[ "$refused" -eq 0 ] || die "the play load had $refused POSTs refused"
[ "$stuck" -eq 0 ] || die "the play load found $stuck games where nobody could move"
[ "$failed" -eq 0 ] || die "the play load had $failed pages that did not answer as they should"
[ "$moves" -gt 0 ] || die "the play load stored no move"
# Every move counted is a line in the store (its 303 came after the
# commit), and the only lines without a count are those of POSTs in
# flight when wrk stopped, stored or not yet: one a connection at most.
k=$((lines_after - lines_before))
[ "$k" -ge "$moves" ] && [ "$k" -le $((moves + conns)) ] ||
	die "the store gained $k action lines for $moves moves counted"

wrk_run static "${url}static/bench-page.html"
echo "RSS of the workers: at the start $rss_before; after these runs $(rss)"
bash "$src/scripts/web" down "$tmp/run" >/dev/null 2>&1 || true

# Memory: a fresh start, RSS, BENCH_RSS_REQUESTS table GETs, RSS.
url=$(bash "$src/scripts/web" up "$tmp/run" --fcgi "$fcgi" --templates "$src/templates" \
	--www "$tmp/www" --workers "$workers" --access-log off "${db_args[@]}" \
	2>"$tmp/up.err") ||
	{ cat "$tmp/up.err" >&2; die "scripts/web up (again) failed"; }
curl -s --max-time 10 -o /dev/null -H "Cookie: $table_cookie" "${url}g/$game"
rss_before=$(rss)
d=$(awk -v n="$rss_requests" -v r="$table_rps" 'BEGIN {
	d = r > 0 ? int(n / r * 1.15) + 1 : 30; print d < 2 ? 2 : d }')
wrk -t"$threads" -c"$conns" -d"${d}s" -H "Cookie: $table_cookie" "${url}g/$game" \
	>"$tmp/wrk.out" 2>&1 || die "wrk (RSS) failed"
n=$(awk '/requests in/ { print $1 }' "$tmp/wrk.out")
echo "RSS of the workers: before $rss_before; after $n table GETs $(rss)"
