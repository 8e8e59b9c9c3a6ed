#!/bin/sh
# mailer.sh - `buffertime worker` and `buffertime admin mail` on a real
# SQLite file, against tests/fake-sendmail (which delivers each message
# as a file, or fails, or hangs, or is slow, as a test tells it):
#   - every queued email arrives once, in order, with every header once
#     and in order, the values right (Date of the send, Message-ID
#     <bt.ID.GAME@HOST>, the seat's unsubscribe link, the subject
#     decoding to the text queued);
#   - a failing sendmail leaves the emails queued with its error, retried
#     on the backoff's schedule (the clock moved with BUFFERTIME_NOW) or
#     at once after `admin mail retry`; `admin mail drop` drops;
#   - a hanging sendmail is killed after --timeout, its children too;
#   - the daemon sends what is queued while it runs, and SIGTERM in the
#     middle of a send finishes that email before it exits 0;
#   - --mail-dir writes NNNNNNNNNN-ID.eml files; the settings file's keys.
# $common and the lists of delivered files are meant to split into words.
# shellcheck disable=SC2086,SC2046
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW FAKE_SENDMAIL_MODE FAKE_SENDMAIL_SLOW

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-mailer.XXXXXX") || exit 1
daemon=
cleanup() {
	if [ -n "$daemon" ]; then
		kill -KILL "$daemon" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

drive=$(dirname "$BUFFERTIME")/tests/maildrive
fake=$SRCDIR/tests/fake-sendmail
py=$(command -v python3 || true)
[ -x "$drive" ] || { echo "FAIL: $drive is not built (make check builds it)"; exit 1; }

db=$tmp/games.db
key=$tmp/server.key
head -c 32 /dev/urandom >"$key" && chmod 600 "$key"
out=$tmp/out
mkdir "$out"
FAKE_MAIL_DIR=$out
export FAKE_MAIL_DIR
common="--db $db --key-file $key --base-url http://bt.example/play/ --mail-from bt@mail.example.org"

# mail_once NOW ARGS...: one round of the mailer with the clock at NOW
# (unix seconds) through the fake sendmail.
mail_once() {
	now_=$1
	shift
	# shellcheck disable=SC2086  # $common is words
	timeout 30 env "BUFFERTIME_NOW=$now_" "$BUFFERTIME" worker "$@" \
		$common --sendmail "$fake -t -i" --once \
		>"$tmp/out.txt" 2>"$tmp/err"
	rc=$?
}

# adm NOW ARGS...: "admin mail" on the test database at NOW.
adm() {
	now_=$1
	shift
	timeout 30 env "BUFFERTIME_NOW=$now_" "$BUFFERTIME" admin --db "$db" \
		mail "$@" >"$tmp/out.txt" 2>"$tmp/err"
	rc=$?
}

# queue NOW N: N emails for a new game at NOW; sets $game.
queue() {
	game=$(env "BUFFERTIME_NOW=$1" "$drive" queue "$db" "$2") ||
		not_ok "maildrive queue $2 failed"
}

# delivered: the delivered files, oldest first.
delivered() {
	find "$out" -maxdepth 1 -name '*.eml' | sort
}
count() {
	delivered | wc -l | tr -d ' '
}

# hdr FILE NAME: the value of header NAME (first line of it).
hdr() {
	awk -v n="$2" '/^$/ { exit } index($0, n ": ") == 1 {
		print substr($0, length(n) + 3) }' "$1"
}

# fields FILE: the header names in order, on one line.
fields() {
	awk '/^$/ { exit } /^[^ \t]/ { sub(/:.*/, ""); printf "%s ", $0 }' "$1"
}

# row ID: the line of "admin mail list --all" for email ID, squeezed.
row() {
	adm "$T" list --all
	awk -v id="$1" '$1 == id' "$tmp/out.txt" | tr -s ' '
}

# matches TEXT REGEX: TEXT matches the extended regex.
matches() {
	printf '%s\n' "$1" | grep -Eq -- "$2"
}

# rfc_date T: the Date header for unix time T.
rfc_date() {
	LC_ALL=C date -u -d "@$1" '+%a, %d %b %Y %H:%M:%S +0000'
}

# iso T: how admin prints unix time T.
iso() {
	date -u -d "@$1" '+%Y-%m-%dT%H:%M:%SZ'
}

all_fields="Date From To Subject Message-ID List-Unsubscribe List-Unsubscribe-Post MIME-Version Content-Type Content-Transfer-Encoding Auto-Submitted X-Buffertime-Loop "

# ---- every email once, in order, with every header ------------------------

T=1700000000
queue "$T" 12
game1=$game
mail_once "$T"
expect_rc "mailer --once" 0
check "12 emails delivered: $(count)" [ "$(count)" -eq 12 ]
check "the round's summary: $(cat "$tmp/err")" \
	grep -q '12 sent, 0 failed' "$tmp/err"
i=0
for f in $(delivered); do
	i=$((i + 1))
	seat=$(( (i - 1) % 3 + 1 ))
	check "email $i: fields '$(fields "$f")'" [ "$(fields "$f")" = "$all_fields" ]
	check "email $i: Message-ID $(hdr "$f" Message-ID)" \
		[ "$(hdr "$f" Message-ID)" = "<bt.$i.$game1@mail.example.org>" ]
	check "email $i: To" [ "$(hdr "$f" To)" = "seat$seat.g0@example.org" ]
	check "email $i: From" [ "$(hdr "$f" From)" = "Buffer Time <bt@mail.example.org>" ]
	check "email $i: Date $(hdr "$f" Date)" [ "$(hdr "$f" Date)" = "$(rfc_date "$T")" ]
	check "email $i: List-Unsubscribe $(hdr "$f" List-Unsubscribe)" \
		matches "$(hdr "$f" List-Unsubscribe)" \
		"^<http://bt\.example/play/g/$game1/unsubscribe\?s=$seat&k=[A-Za-z0-9_-]{43}>\$"
	check "email $i: List-Unsubscribe-Post" \
		[ "$(hdr "$f" List-Unsubscribe-Post)" = "List-Unsubscribe=One-Click" ]
	check "email $i: Content-Type" [ "$(hdr "$f" Content-Type)" = "text/plain; charset=utf-8" ]
	check "email $i: Auto-Submitted" [ "$(hdr "$f" Auto-Submitted)" = "auto-generated" ]
	check "email $i: X-Buffertime-Loop" [ "$(hdr "$f" X-Buffertime-Loop)" = "mail.example.org" ]
	check "email $i: Subject not encoded" \
		grep -q '^Subject: =?UTF-8?B?[A-Za-z0-9+/=]*?=$' "$f"
	check "email $i: body" grep -qx "Email $i of 12." "$f"
done
check "the fake sendmail was not given -t -i" [ "$(sort -u "$out/.argv")" = "-t -i" ]

# A mail reader's view: Python's email package decodes the subject.
if [ -n "$py" ]; then
	"$py" - $(delivered) >"$tmp/parsed" <<'EOF'
import sys
from email import message_from_binary_file, policy
for name in sys.argv[1:]:
    with open(name, "rb") as f:
        m = message_from_binary_file(f, policy=policy.default)
    assert not m.defects, (name, m.defects)
    body = m.get_content()
    print(m["subject"], "|", m.get_content_charset(), "|",
          body.splitlines()[0])
EOF
	check "python could not parse the emails" [ $? -eq 0 ]
	seq 1 12 | awk '{ printf "Buffer Time: your turn, Büro %d | utf-8 | Email %d of 12.\n", $1, $1 }' >"$tmp/parsed.want"
	check "the subjects as a reader sees them: $(head -n 2 "$tmp/parsed")" \
		cmp -s "$tmp/parsed" "$tmp/parsed.want"
fi

adm "$T" list
expect_rc "admin mail list" 0
check "nothing should be queued: $(cat "$tmp/out.txt")" [ "$(wc -l <"$tmp/out.txt")" -eq 1 ]
adm "$T" list --all
check "list --all: 12 sent" [ "$(grep -c ' sent ' "$tmp/out.txt")" -eq 12 ]
check "row 1" [ "$(row 1)" = "1 sent turn 1 - seat1.g0@example.org" ]
mail_once "$T"
expect_rc "a second round" 0
check "a second round sent again: $(count)" [ "$(count)" -eq 12 ]

# ---- a failing sendmail: queued, the error kept, retried ------------------

queue "$T" 3      # emails 13, 14, 15
pids=$(wc -l <"$out/.pids")
touch "$out/.fail"
mail_once "$T"
expect_rc "mailer --once with a failing sendmail" 1
check "a failing sendmail delivered: $(count)" [ "$(count)" -eq 12 ]
check "the failure was not logged: $(cat "$tmp/err")" grep -qx 'buffertime worker: email 13 (turn) to seat1\.g0@example\.org, attempt 1: fake-sendmail exited with status 75: fake-sendmail: told to fail' "$tmp/err"
err="fake-sendmail exited with status 75: fake-sendmail: told to fail"
check "row 13: '$(row 13)'" [ "$(row 13)" = \
	"13 failed turn 1 $(iso $((T + 60))) seat1.g0@example.org $err" ]
adm "$T" list --failed
check "list --failed: $(cat "$tmp/out.txt")" [ "$(awk 'NR > 1 { print $1 }' "$tmp/out.txt" | tr '\n' ' ')" = "13 14 15 " ]
adm "$T" list
check "list: the failed are queued" [ "$(awk 'NR > 1 { print $1 }' "$tmp/out.txt" | tr '\n' ' ')" = "13 14 15 " ]

mail_once $((T + 30))
expect_rc "a round before the retry is due" 0
check "sendmail ran before the retry was due" [ "$(wc -l <"$out/.pids")" -eq $((pids + 3)) ]
check "attempts counted without a try" [ "$(row 14 | cut -d' ' -f4)" = 1 ]

mail_once $((T + 61))
expect_rc "the first retry, failing again" 1
check "row 14 after 2 attempts: '$(row 14)'" [ "$(row 14)" = \
	"14 failed turn 2 $(iso $((T + 61 + 120))) seat2.g0@example.org $err" ]

rm "$out/.fail"
mail_once $((T + 62))
expect_rc "a round with nothing due" 0
check "sent before its retry was due: $(count)" [ "$(count)" -eq 12 ]
adm $((T + 62)) retry 13
expect_rc "retry 13" 0
check "retry 13 said: $(cat "$tmp/out.txt")" [ "$(cat "$tmp/out.txt")" = "1 to retry" ]
mail_once $((T + 62))
expect_rc "the retried email" 0
check "retry 13 delivered: $(count)" [ "$(count)" -eq 13 ]
check "retry delivered 13" [ "$(hdr "$(delivered | tail -n 1)" Message-ID)" = "<bt.13.$game@mail.example.org>" ]
check "row 13 once sent: '$(row 13)'" [ "$(row 13)" = "13 sent turn 3 - seat1.g0@example.org" ]
adm $((T + 62)) drop 15
expect_rc "drop 15" 0
adm $((T + 62)) list
check "list after a drop: $(cat "$tmp/out.txt")" [ "$(awk 'NR > 1 { print $1 }' "$tmp/out.txt" | tr '\n' ' ')" = "14 " ]
adm $((T + 62)) retry all
check "retry all said: $(cat "$tmp/out.txt")" [ "$(cat "$tmp/out.txt")" = "1 to retry" ]
mail_once $((T + 62))
expect_rc "after retry all" 0
check "retry all delivered: $(count)" [ "$(count)" -eq 14 ]
check "15 was dropped: '$(row 15)'" [ "$(row 15 | cut -d' ' -f2)" = dropped ]
adm $((T + 62)) show 14
expect_rc "show 14" 0
check "show 14: state" grep -qx 'state: sent' "$tmp/out.txt"
check "show 14: game" grep -qx "game: $game" "$tmp/out.txt"
check "show 14: attempts" grep -qx 'attempts: 3' "$tmp/out.txt"
check "show 14: subject" grep -qx 'subject: Buffer Time: your turn, Büro 2' "$tmp/out.txt"
check "show 14: body" grep -qx 'Email 2 of 3.' "$tmp/out.txt"
for args in "drop 15" "drop 999" "retry 999" "show 999"; do
	# shellcheck disable=SC2086
	adm "$T" $args
	expect_rc "mail $args" 1 && expect_err "mail $args" 'not.found'
done
for args in "" "bogus" "show" "show 0" "show abc" "show -1" "retry" \
    "drop all" "list --bogus" "list --all x" "show 1234567890123456"; do
	# shellcheck disable=SC2086
	adm "$T" $args
	expect_rc "mail $args" 2
done

# ---- a hanging sendmail is killed ------------------------------------------

queue "$T" 1      # email 16
touch "$out/.hang"
start=$(date +%s)
timeout 30 env "BUFFERTIME_NOW=$T" "$BUFFERTIME" worker $common \
	--sendmail "$fake" --timeout 1 --once >/dev/null 2>"$tmp/err"
rc=$?
took=$(( $(date +%s) - start ))
expect_rc "a hanging sendmail" 1
# Bounds far from both sides: the timeout (1 s) against the 30 s kill.
check "a hanging sendmail took $took s" [ "$took" -lt 20 ]
check "the timeout was not recorded: '$(row 16)'" \
	[ "$(row 16 | cut -d' ' -f7-)" = "fake-sendmail took more than 1 s: killed" ]
hang_pid=$(cat "$out/.hang-pid")
sleep 0.2
check "the hanging sendmail's child lives on" sh -c \
	"! kill -0 $hang_pid 2>/dev/null || grep -q '^[0-9]* ([^)]*) Z' /proc/$hang_pid/stat"
rm "$out/.hang"
adm "$T" retry all

# ---- the daemon ------------------------------------------------------------

# Its clock stays at T + 100: no game has waited a day for a reminder.
T1=$((T + 100))

# wait_for N: waits up to 10 s for N delivered emails.
wait_for() {
	for _ in $(seq 100); do
		[ "$(count)" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# shellcheck disable=SC2086
BUFFERTIME_NOW=$T1 FAKE_SENDMAIL_SLOW=2 "$BUFFERTIME" worker $common --sendmail "$fake -t -i" \
	--poll 1 2>"$tmp/daemon.err" &
daemon=$!
check "the daemon did not send what was queued" wait_for 15
queue "$T1" 4
check "the daemon did not send what came while it ran" wait_for 19
adm "$T1" list
check "the daemon left emails queued" [ "$(wc -l <"$tmp/out.txt")" -eq 1 ]

# SIGTERM while sendmail is busy with an email: it is finished first.
touch "$out/.slow"
pids=$(wc -l <"$out/.pids")
queue "$T1" 1    # email 21
for _ in $(seq 100); do
	[ "$(wc -l <"$out/.pids")" -gt "$pids" ] && break
	sleep 0.1
done
check "the slow send did not start" [ "$(wc -l <"$out/.pids")" -gt "$pids" ]
kill -TERM "$daemon"
wait "$daemon"
rc=$?
daemon=
expect_rc "the daemon after SIGTERM" 0
check "the email in hand was not finished: $(count)" [ "$(count)" -eq 20 ]
check "the email in hand is not marked sent: '$(row 21)'" [ "$(row 21 | cut -d' ' -f2)" = sent ]
rm "$out/.slow"

# SIGINT while it waits for the next round: at once, not after --poll.
# shellcheck disable=SC2086
BUFFERTIME_NOW=$T1 "$BUFFERTIME" worker $common --sendmail "$fake" \
	--poll 60 2>/dev/null &
daemon=$!
sleep 0.5
start=$(date +%s)
kill -INT "$daemon"
wait "$daemon"
rc=$?
daemon=
expect_rc "the daemon after SIGINT" 0
check "SIGINT waited for the poll" [ $(( $(date +%s) - start )) -lt 30 ]

check "an email was delivered twice" \
	[ -z "$(grep -h '^Message-ID:' $(delivered) | sort | uniq -d)" ]

# ---- a mail folder instead of sendmail -------------------------------------

T2=$((T + 200))
queue "$T2" 3     # emails 22, 23, 24
folder=$tmp/new/mail
mkdir "$tmp/new"
# sent 7 s later: the names have the time they were queued, Date the send
timeout 30 env "BUFFERTIME_NOW=$((T2 + 7))" "$BUFFERTIME" worker $common \
	--mail-dir "$folder" --once >/dev/null 2>"$tmp/err"
rc=$?
expect_rc "mailer --mail-dir" 0
check "the folder was not said: $(head -n 1 "$tmp/err")" \
	grep -qx "buffertime worker: no mail server: each email is a file in $folder" "$tmp/err"
ls -a "$folder" >"$tmp/ls"
printf '.\n..\n1700000200-0000000022.eml\n1700000200-0000000023.eml\n1700000200-0000000024.eml\n' >"$tmp/ls.want"
check "the folder's files: $(tr '\n' ' ' <"$tmp/ls")" cmp -s "$tmp/ls" "$tmp/ls.want"
check "a file is not 0600" [ "$(stat -c %a "$folder/1700000200-0000000023.eml")" = 600 ]
f=$folder/1700000200-0000000023.eml
check "the file's fields" [ "$(fields "$f")" = "$all_fields" ]
check "the file's Message-ID" [ "$(hdr "$f" Message-ID)" = "<bt.23.$game@mail.example.org>" ]
check "the file's Date" [ "$(hdr "$f" Date)" = "$(rfc_date $((T2 + 7)))" ]
# A half-written email never has a name a *.eml reader picks up: traced,
# every file the mailer opens for writing is not *.eml, and each *.eml
# there comes from a rename.
if command -v strace >/dev/null 2>&1; then
	# a database of its own, so that the emails' numbers below stay
	tdb=$tmp/trace.db
	env "BUFFERTIME_NOW=$T2" "$drive" queue "$tdb" 2 >/dev/null ||
		not_ok "maildrive queue for the trace failed"
	timeout 60 strace -f -qq -e trace=openat,open,creat,rename,renameat,renameat2 \
		-o "$tmp/trace" env "BUFFERTIME_NOW=$((T2 + 8))" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$BUFFERTIME" worker \
		--db "$tdb" --key-file "$key" --base-url http://bt.example/play/ \
		--mail-from bt@mail.example.org --mail-dir "$folder" --once \
		>/dev/null 2>"$tmp/err"
	rc=$?
	expect_rc "mailer --mail-dir under strace" 0
	grep -E '(open|openat|creat)\(' "$tmp/trace" |
		grep -E 'O_WRONLY|O_RDWR|O_CREAT|creat\(' | grep -F "$folder/" >"$tmp/writes"
	check "the traced mailer wrote into the folder: $(wc -l <"$tmp/writes") opens" \
		[ "$(wc -l <"$tmp/writes")" -eq 2 ]
	check "a *.eml opened for writing: $(grep '\.eml"' "$tmp/writes" | head -n 1)" \
		[ -z "$(grep '\.eml"' "$tmp/writes")" ]
	grep -E 'rename(at2?)?\(' "$tmp/trace" >"$tmp/renames"
	check "each written email renamed to its *.eml name: $(head -n 1 "$tmp/renames")" \
		[ "$(grep -c '[0-9]\{10\}-000000000[12]\.eml"' "$tmp/renames")" -eq 2 ]
	check "no half-written file left: $(ls -a "$folder" | tr '\n' ' ')" \
		[ "$(ls -A "$folder" | grep -vc '^[0-9]\{10\}-[0-9]\{10\}\.eml$')" -eq 0 ]
else
	not_ok "strace is not installed (scripts/install-deps installs it): the half-written file's name is not checked"
fi
: >"$tmp/file"
timeout 30 "$BUFFERTIME" worker $common --mail-dir "$tmp/file" --once 2>"$tmp/err"
rc=$?
expect_rc "a file as the mail folder" 1

# ---- the settings file -----------------------------------------------------

conf=$tmp/bt.conf
cat >"$conf" <<EOF
# the mailer shares buffertime.fcgi's file
base_url = http://conf.example/
db = $db
key_file = $key
mail_from = cfg@conf.example
sendmail = $fake -t -i
mail_timeout = 1
mail_poll = 1
EOF
queue "$T2" 1     # email 25
before=$(count)
timeout 30 env "BUFFERTIME_NOW=$T2" "$BUFFERTIME" worker --config "$conf" \
	--once >/dev/null 2>"$tmp/err"
rc=$?
expect_rc "mailer --config" 0
check "mailer --config sent: $(count)" [ "$(count)" -eq $((before + 1)) ]
f=$(delivered | tail -n 1)
check "mail_from from the file" [ "$(hdr "$f" From)" = "Buffer Time <cfg@conf.example>" ]
check "base_url from the file" grep -q '^List-Unsubscribe: <http://conf\.example/g/' "$f"
for bad in "mail_timeout = 0" "mail_poll = 3601" "mail_from = not an address" \
    "mail_from = Eve <eve@example.org>" "sendmail =" "mail_bogus = 1"; do
	printf '%s\n' "$bad" >>"$conf"
	timeout 30 "$BUFFERTIME" worker --config "$conf" --once >/dev/null 2>"$tmp/err"
	rc=$?
	expect_rc "settings with '$bad'" 2
	sed -i '$d' "$conf"
done
for args in "--bogus" "--poll" "--timeout 0" "--timeout x" "--sendmail" \
    "--config $tmp/none.conf"; do
	# shellcheck disable=SC2086
	timeout 30 "$BUFFERTIME" worker --once $args >/dev/null 2>"$tmp/err"
	rc=$?
	expect_rc "mailer $args" 2
done
# ---- a killed daemon: its courier finishes the email -----------------------

# SIGKILL to the daemon's whole process group while a slow sendmail has
# the email: its courier (a session of its own) lives on, sendmail
# delivers, and the courier marks the email sent itself.  A mailer
# started at once, with the email made due again, waits for the courier
# instead of sending it a second time.
touch "$out/.slow"
queue "$T2" 1     # email 26
before=$(count)
pids=$(wc -l <"$out/.pids")
# shellcheck disable=SC2086
BUFFERTIME_NOW=$T2 FAKE_SENDMAIL_SLOW=2 setsid "$BUFFERTIME" worker $common \
	--sendmail "$fake -t -i" --poll 1 2>"$tmp/daemon.err" &
daemon=$!
for _ in $(seq 100); do
	[ "$(wc -l <"$out/.pids")" -gt "$pids" ] && break
	sleep 0.1
done
check "the slow send did not start" [ "$(wc -l <"$out/.pids")" -gt "$pids" ]
kill -KILL "-$daemon"
wait "$daemon" 2>/dev/null
daemon=
rm "$out/.slow"
adm "$T2" retry all
check "the email was marked before sendmail ended: $(cat "$tmp/out.txt")" \
	[ "$(cat "$tmp/out.txt")" = "1 to retry" ]
mail_once "$T2"
expect_rc "a mailer after the kill" 0
check "the killed daemon's email arrived $(( $(count) - before )) times" \
	[ "$(count)" -eq $((before + 1)) ]
check "email 26 after the kill: '$(row 26)'" \
	[ "$(row 26 | cut -d' ' -f2,4)" = "sent 1" ]
check "the courier did not say it marked: $(cat "$tmp/daemon.err")" \
	grep -q '^buffertime worker: email 26: marked sent by its courier' "$tmp/daemon.err"
check "an email was delivered twice" \
	[ -z "$(grep -h '^Message-ID:' $(delivered) | sort | uniq -d)" ]

# What a courier runs: a mark made already is left; bad arguments.
timeout 30 "$BUFFERTIME" worker --courier-mark "$db" 26 failed "late" 2>"$tmp/err"
rc=$?
expect_rc "--courier-mark failed" 0
check "--courier-mark keeps why: '$(row 26)'" [ "$(row 26 | cut -d' ' -f2,7)" = "sent late" ]
# by the old name, as a courier of a worker started before the rename runs it
timeout 30 "$BUFFERTIME" mailer --courier-mark "$db" 26 sent "" 2>"$tmp/err"
rc=$?
expect_rc "mailer --courier-mark sent, twice" 0
for args in "26 sent" "0 sent x" "26x sent x" "26 maybe x" "26 sent x y"; do
	# shellcheck disable=SC2086
	timeout 30 "$BUFFERTIME" worker --courier-mark "$db" $args 2>"$tmp/err"
	rc=$?
	expect_rc "--courier-mark $args" 2
done

# ---- reminders: each round queues the due ones -----------------------------

db2=$tmp/remind.db
game=$(env "BUFFERTIME_NOW=$T" "$drive" queue "$db2" 1) ||
	not_ok "maildrive queue for reminders"
# remind AT: a round on db2 at time AT; how many it delivered in $got.
remind() {
	before_=$(count)
	timeout 30 env "BUFFERTIME_NOW=$1" "$BUFFERTIME" worker --db "$db2" \
		--key-file "$key" --base-url http://bt.example/ \
		--mail-from bt@mail.example.org --sendmail "$fake" --once \
		>/dev/null 2>"$tmp/err"
	rc=$?
	got=$(( $(count) - before_ ))
}
remind "$T"
check "the queued email: $got" [ "$rc.$got" = 0.1 ]
remind $((T + 86400 - 10))
check "a reminder before a day: $got" [ "$rc.$got" = 0.0 ]
remind $((T + 86400 + 10))
check "no first reminder after a day: $got" [ "$rc.$got" = 0.1 ]
check "the round's summary: $(tail -n 1 "$tmp/err")" \
	grep -q '1 sent, 0 failed; 1 reminders, 0 digests queued' "$tmp/err"
f=$(delivered | tail -n 1)
check "the reminder's Message-ID" [ "$(hdr "$f" Message-ID)" = "<bt.2.$game@mail.example.org>" ]
check "the reminder's To" [ "$(hdr "$f" To)" = "seat1.g0@example.org" ]
remind $((T + 86400 + 20))
check "a reminder twice: $got" [ "$got" -eq 0 ]
remind $((T + 3 * 86400 + 10))
check "no second reminder after 3 days: $got" [ "$got" -eq 1 ]
remind $((T + 30 * 86400))
check "a third reminder: $got" [ "$got" -eq 0 ]
timeout 30 "$BUFFERTIME" admin --db "$db2" mail list --all >"$tmp/out.txt"
check "the reminders' kind" [ "$(awk 'NR > 1 { print $3 }' "$tmp/out.txt" | tr '\n' ' ')" = "turn reminder reminder " ]

# ---- the old name: `buffertime mailer` is the worker ------------------------

# Installs whose unit still runs `buffertime mailer`: the same rounds,
# the same log name.
adb=$tmp/alias.db
env "BUFFERTIME_NOW=$T" "$drive" queue "$adb" 2 >/dev/null ||
	not_ok "maildrive queue for the old name failed"
timeout 30 env "BUFFERTIME_NOW=$T" "$BUFFERTIME" mailer --db "$adb" \
	--key-file "$key" --base-url http://bt.example/ \
	--mail-from bt@mail.example.org --mail-dir "$tmp/alias" --once \
	>/dev/null 2>"$tmp/err"
rc=$?
expect_rc "mailer --once, the old name" 0
check "mailer --once wrote the 2 emails: $(ls "$tmp/alias" 2>&1 | tr '\n' ' ')" \
	[ "$(ls "$tmp/alias" | grep -c '\.eml$')" -eq 2 ]
check "mailer --once says it as the worker: $(tr '\n' '|' <"$tmp/err")" \
	grep -qx 'buffertime worker: 2 sent, 0 failed; 0 reminders, 0 digests queued' "$tmp/err"
check "mailer --once: every line the worker's" \
	[ "$(grep -vc '^buffertime worker: ' "$tmp/err")" -eq 0 ]

# ---- a killed worker's notifier ---------------------------------------------

# The worker starts buffertime-notify beside itself; killed (SIGKILL, at
# any moment: even while the notifier is being started), it takes the
# notifier with it.  80 kills at random moments up to 100 ms after the
# start: before the kernel was told so ahead of the exec, one in six or
# so left a notifier running for good.
kdb=$tmp/kills.db
"$BUFFERTIME" admin --db "$kdb" list >/dev/null 2>&1
i=0
while [ "$i" -lt 80 ]; do
	"$BUFFERTIME" worker --db "$kdb" --key-file "$key" \
		--base-url http://bt.example/ --mail-from bt@mail.example.org \
		--mail-dir "$tmp/kills" 2>/dev/null &
	pid=$!
	sleep "0.0$(( $(od -An -N1 -tu1 /dev/urandom) % 10 ))"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	i=$((i + 1))
done
left() {
	pgrep -f -- "--db $kdb" | wc -l
}
n=0
while [ "$(left)" -gt 0 ] && [ "$n" -lt 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
check "a killed worker's notifier went with it ($(left) left after 80 kills)" \
	[ "$(left)" -eq 0 ]
pkill -f -- "--db $kdb"

timeout 30 "$BUFFERTIME" worker --help >"$tmp/out.txt" 2>&1
rc=$?
expect_rc "worker --help" 0
check "worker --help" grep -q -- '--mail-dir DIR' "$tmp/out.txt"

finish
