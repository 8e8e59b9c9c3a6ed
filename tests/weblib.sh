# shellcheck shell=bash disable=SC2154
# weblib.sh - what the shell tests of the web stack share, sourced after
# testlib.sh once they set $tmp and the runs array: starting the servers,
# one HTTP request at a time with curl, and filling in a page's forms
# (forms.awk).  Globals: $url (after up), $code, $loc, $tmp/h and $tmp/b
# (after req), $page_url and $origin (for form), $seed (random choices).

weblib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# web_test_start NAME TOOL...: what a test of the web stack does first:
# skips (exit 77) if a TOOL is missing, makes the scratch folder $tmp
# (bt-NAME.XXXXXX), and on exit stops the servers of every run folder in
# $runs (see up) and removes $tmp.
web_test_start() {
	local name=$1 t
	shift
	for t in "$@"; do
		if ! command -v "$t" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$t" ]; then
			echo "SKIP: $t is not installed (scripts/install-deps installs it)"
			exit 77
		fi
	done
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-$name.XXXXXX") || exit 1
	runs=()
	trap web_test_cleanup EXIT
	trap 'exit 1' HUP INT TERM
}

web_test_cleanup() {
	local r
	# The test's own shell only: a subshell that a signal reaches before
	# it drops the traps runs them, and must not stop the servers and
	# remove the folder while the test goes on (seen once in CI).
	[ "$BASHPID" = "$$" ] || return 0
	for r in "${runs[@]}"; do
		bash "$SRCDIR/scripts/web" down "$r" >/dev/null 2>&1 ||
			echo "FAIL: could not stop the servers of $r"
	done
	db_cleanup
	rm -rf "$tmp"
}

# up RUNDIR [ARGS...]: starts the servers; sets $url.  A failure to start
# ends the test, with the program's log.  A move that may be taken back
# mails and wakes the bots at once here (a test's --set may say
# otherwise: the last line wins).  On a server (engine_init, postgres)
# the run folder's database is made at its first up, and named by --db
# (db_of RUNDIR says which).
up() {
	local r=$1 db_arg=()
	shift
	runs+=("$r")
	if [ "$test_engine" = postgres ]; then
		case " ${made_dbs-} " in
		*" $r "*) ;;
		*) db_new made_db_ "$r/data/buffertime.db"
		   made_dbs="${made_dbs-} $r" ;;
		esac
		db_arg=(--db "$(db_of "$r")")
	fi
	if ! url=$(bash "$SRCDIR/scripts/web" up "$r" --fcgi "$BUFFERTIME_FCGI" \
		--templates "$SRCDIR/templates" --www "$SRCDIR/www" --wait 30 \
		--set take_back_grace=0 --set bot_wait=0 "${db_arg[@]}" "$@" \
		2>"$tmp/up.err"); then
		cat "$tmp/up.err"
		not_ok "scripts/web up $r $*"
		finish
	fi
	ok
}

# req JAR METHOD URL [BODY]: one request with the cookies of JAR ("" for
# none; a file, updated).  Sets $code, $loc (Location), and the files
# $tmp/h (headers) and $tmp/b (body).  Never follows a redirect.
req() {
	local jar=$1 method=$2 u=$3 args=()
	[ -n "$jar" ] && args+=(-b "$jar" -c "$jar")
	if [ "$method" = POST ]; then
		args+=(-H 'Content-Type: application/x-www-form-urlencoded'
			--data-binary "${4-}")
	fi
	code=$(curl -s --max-time 15 -X "$method" -D "$tmp/h" -o "$tmp/b" \
		-w '%{http_code}' "${args[@]}" "$u" 2>/dev/null) || code=000
	loc=$(sed -n 's/^[Ll]ocation: *\([^[:space:]]*\).*/\1/p' "$tmp/h" | tail -n 1)
}

# header NAME: the value of response header NAME (the last one).
header() {
	sed -n "s/^$1: *//Ip" "$tmp/h" | tr -d '\r' | tail -n 1
}

# expect_code NAME WANT: checks $code.
expect_code() {
	if [ "$code" = "$2" ]; then
		ok
		return 0
	fi
	not_ok "$1: status $code, want $2"
	return 1
}

# resolve URL: an action attribute made absolute against $page_url.
resolve() {
	case $1 in
	http://*|https://*) echo "$1" ;;
	/*) echo "$origin$1" ;;
	*) echo "${page_url%/*}/$1" ;;
	esac
}

# form MODE WANT [ONLY]: from the page in $tmp/b (fetched from $page_url),
# the form to send, among those whose action matches the regex ONLY
# (default: the moves, /act$); sets $form_url and $form_body.  Returns 1
# if none fits.
form() {
	local line
	line=$(awk -v mode="$1" -v want="$2" -v seed="$seed" -v only="${3-/act\$}" \
		-f "$weblib_dir/forms.awk" "$tmp/b") || return 1
	[ -n "$line" ] || return 1
	form_url=$(resolve "${line%%$'\t'*}")
	form_body=${line#*$'\t'}
	seed=$((seed + 1))
}

# The moves of one game $game, played through its seats' browsers
# (jar[SEAT] cookie jars).

# page SEAT [QUERY]: the seat's table (into $tmp/b).
page() {
	page_url=${base}g/$game${2-}
	req "${jar[$1]}" GET "$page_url"
}

# turn_seat: the seat to move, from the store (0 once over).
turn_seat() {
	sql "SELECT turn_seat FROM games WHERE id = '$game'"
}

# lines: the game's record lines.
lines() {
	sql "SELECT count(*) FROM actions WHERE game = '$game'"
}

# step: the seat to move logs if it can, else works, else plays any
# form it has (a Sensor Sweep's look, then its order); 0 once a move was
# stored.
step() {
	local s n
	s=$(turn_seat)
	[ "$s" -ge 1 ] 2>/dev/null || return 1
	n=$(lines)
	for _ in 1 2 3; do
		page "$s"
		if form pick 'action=log' || form pick 'action=work' ||
			form random ''; then
			req "${jar[$s]}" POST "$form_url" "$form_body"
		fi
		[ "$(lines)" -gt "$n" ] && return 0
	done
	return 1
}

# restart RUN NOW [UP-ARGS...]: the servers of RUN again (same folder,
# same data) with their clock at NOW; sets url, base and origin.
restart() {
	local r=$1 now=$2
	shift 2
	bash "$SRCDIR/scripts/web" down "$r" >/dev/null 2>&1 ||
		not_ok "scripts/web down $r"
	BUFFERTIME_NOW=$now up "$r" "$@"
	base=$url
	origin=$(origin_of "$base")
}

# db_of RUNDIR: the database of the run folder's servers: its file, or
# on a server the database up made for it.
db_of() {
	if [ "$test_engine" = postgres ]; then
		pg_url "$(pg_name "$1/data/buffertime.db")"
	else
		echo "$1/data/buffertime.db"
	fi
}

# sql QUERY: one answer from the store $db (a file, or a server's URL).
sql() {
	db_sql "$db" "$1" 2>"$tmp/sql.err"
}

# origin_of URL: scheme, host and port of URL.
origin_of() {
	echo "$1" | sed 's|^\(https\{0,1\}://[^/]*\).*|\1|'
}

# create FIRST SPEC...: a game made with the home page's form, one SPEC a
# seat: NAME or NAME:EMAIL (urlencoded; EMAIL may be empty); sets $game
# and links[1..N] (the seat links the page shows).
create() {
	local first=$1 i=1 body n=$(($# - 1)) spec email
	shift
	body="players=$n&first=$first"
	for spec in "$@"; do
		email=''
		case $spec in *:*) email=${spec#*:} ;; esac
		body="$body&name$i=${spec%%:*}&email$i=$email&minutes$i=$((i * 10))"
		i=$((i + 1))
	done
	req "" POST "${base}new" "$body"
	expect_code "create a $n-player game" 200 || return 1
	mapfile -t links < <(grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" \
		"$tmp/b" | awk '!seen[$0]++')
	if [ "${#links[@]}" -ne "$n" ]; then
		not_ok "the created page shows ${#links[@]} seat links, want $n"
		return 1
	fi
	links=("" "${links[@]}")
	game=${links[1]#"${base}g/"}
	game=${game%%\?*}
}

# valid NAME: the page in $tmp/b is valid HTML5 for tidy (the flags of
# tests/browser.sh), one check; nothing without tidy (scripts/install-deps
# installs it).
valid() {
	local msg
	command -v tidy >/dev/null 2>&1 || return 0
	msg=$(tidy -q -e -utf8 --show-warnings yes --show-info no \
		--drop-empty-elements no --drop-empty-paras no "$tmp/b" 2>&1 |
		grep -v 'proprietary attribute "inputmode"')
	if [ -z "$msg" ]; then
		ok
	else
		not_ok "$1 is not valid HTML (tidy): $(printf '%s' "$msg" | head -n 5)"
	fi
}
