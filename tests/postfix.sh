#!/usr/bin/env bash
# postfix.sh - a whole game played only by replying to its emails,
# through a real MTA: Debian's Postfix on loopback hands each reply to
# `buffertime inbound` through a pipe transport, as the example
# etc/postfix-buffertime.cf.in sets it up.
#
# Postfix runs from a scratch folder (its own main.cf and master.cf,
# queue and data directories, an SMTP listener on a free port of
# 127.0.0.1, its log in maillog_file) and the lines of the example
# etc/postfix-buffertime.cf.in: the domain bt.test is delivered to the
# pipe transport `buffertime` (user nobody), every other domain is
# discarded (the bounces Postfix writes to the players).  The game's side
# is the SQLite file and `buffertime worker --once --mail-dir`: three
# seats, the turn emails as files.  Each step reads the turn email of the
# seat to move, takes a number from its menu and replies with swaks to
# its Reply-To from the seat's address; a Sensor Sweep is looked at and
# ordered by replies.  On the way: a stale reply, a duplicate Message-ID,
# a forged token (Postfix bounces it: the pipe's 67, "user unknown"), a
# wrong sender (the seat is asked to confirm), an auto-reply and a bounce
# (both ignored).  At the end the exported record replays to the state
# the database holds.
#
# Needs root (Postfix's master runs as root).  Installs postfix and
# swaks if they are missing and it can (scripts/install-deps lists
# them); skips (77) only if they are missing and cannot be installed, or
# without root.  POSTFIX_SEED picks the deal and the moves (the default,
# 7, offers a Sensor Sweep; not every seed does); POSTFIX_KEEP=1 keeps the
# scratch folder.  BT_TEST_ENGINE=postgres: the game on a PostgreSQL
# server (testlib.sh), which the pipe's user reaches by its socket.
# shellcheck disable=SC2317  # cleanup runs from the EXIT trap
set -u
LC_ALL=C
export LC_ALL

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${SRCDIR:?set SRCDIR to the source tree}"
example=$SRCDIR/etc/postfix-buffertime.cf.in
unset BUFFERTIME_DB BUFFERTIME_NOW

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: Postfix's master must start as root"
	exit 77
fi
have_tools() {
	[ -x /usr/sbin/postfix ] && command -v swaks >/dev/null 2>&1 &&
		command -v sqlite3 >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1
}
if ! have_tools && command -v apt-get >/dev/null 2>&1; then
	# "No configuration": the package must not set up a system mail
	# server on port 25 of its own.
	echo 'postfix postfix/main_mailer_type select No configuration' |
		debconf-set-selections 2>/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=120 \
		install --no-install-recommends postfix swaks sqlite3 python3 \
		>/dev/null 2>&1
fi
if ! have_tools; then
	echo "SKIP: postfix, swaks, sqlite3 or python3 missing and not installable"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-postfix.XXXXXX") || exit 1
pf=$tmp/pf
started=no
cleanup() {
	# The test's own shell only: a subshell that a signal reaches before
	# it drops the traps runs them, and must not stop the servers and
	# remove the folder while the test goes on (seen once in CI).
	[ "$BASHPID" = "$$" ] || return 0
	if [ "$started" = yes ]; then
		/usr/sbin/postfix -c "$pf/etc" stop >/dev/null 2>&1 ||
			echo "FAIL: postfix -c $pf/etc stop"
		# the master's pid file goes when it has stopped
		for _ in $(seq 50); do
			[ -f "$pf/queue/pid/master.pid" ] || break
			sleep 0.1
		done
	fi
	db_cleanup
	if [ -n "${POSTFIX_KEEP-}" ]; then
		echo "kept: $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
engine_init
seed=${POSTFIX_SEED:-7}
RANDOM=$seed
t0=$SECONDS

# ---- the game's side: its files belong to the pipe's user ----------------

# The folder is readable for nobody (the pipe's user) and Postfix; the
# tool is copied in, so that the build's folder need not be.
chmod 755 "$tmp"
mkdir -p "$tmp/bin" "$tmp/data" "$tmp/mail" "$pf/etc" "$pf/queue" "$pf/data"
cp "$BUFFERTIME" "$tmp/bin/buffertime"
cp "$(dirname "$BUFFERTIME")/buffertime-notify" "$tmp/bin/buffertime-notify"
chmod 755 "$tmp/bin/buffertime" "$tmp/bin/buffertime-notify"
tool=$tmp/bin/buffertime
db_new db "$tmp/data/games.db"
key=$tmp/data/server.key
head -c 32 /dev/urandom >"$key"
chmod 600 "$key"
domain=bt.test
cat >"$tmp/data/settings" <<EOF
db = $db
key_file = $key
base_url = http://bt.example/
mail_from = buffertime@$domain
reply_address = play@$domain
EOF
chown -R nobody:nogroup "$tmp/data" "$tmp/mail"
chmod 644 "$tmp/data/settings"

# bt ARGS...: the tool as the pipe's user, with a time limit; stdout in
# $tmp/out, stderr in $tmp/err, exit status in $rc.
bt() {
	timeout 60 runuser -u nobody -- "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# ---- Postfix --------------------------------------------------------------

port=$(free_port) || { echo "FAIL: no free port"; exit 1; }
chown postfix "$pf/data"
cat >"$pf/etc/main.cf" <<EOF
# written by tests/postfix.sh
compatibility_level = 3.6
queue_directory = $pf/queue
data_directory = $pf/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.$domain
mydomain = $domain
myorigin = $domain
mydestination = $domain
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relayhost =
relay_domains =
alias_maps =
alias_database =
# every local part of bt.test goes to the pipe, which says who is unknown
local_recipient_maps =
# the players' domain and the rest: thrown away (no DNS, no relay)
default_transport = discard
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
maillog_file = $pf/maillog
maillog_file_prefixes = $pf
biff = no
# the lines of etc/postfix-buffertime.cf.in, for this domain
EOF
sed -n 's/reply\.example\.org/'"$domain"'/g; /^[a-z_]* = /p' "$example" >>"$pf/etc/main.cf"
cat >"$pf/etc/master.cf" <<EOF
# written by tests/postfix.sh: no chroot, one SMTP listener
127.0.0.1:$port inet n - n - - smtpd
pickup     unix  n - n 60 1 pickup
cleanup    unix  n - n -  0 cleanup
qmgr       unix  n - n 300 1 qmgr
rewrite    unix  - - n -  - trivial-rewrite
bounce     unix  - - n -  0 bounce
defer      unix  - - n -  0 bounce
trace      unix  - - n -  0 bounce
verify     unix  - - n -  1 verify
flush      unix  n - n 1000? 0 flush
proxymap   unix  - - n -  - proxymap
proxywrite unix  - - n -  1 proxymap
smtp       unix  - - n -  - smtp
relay      unix  - - n -  - smtp
showq      unix  n - n -  - showq
error      unix  - - n -  - error
retry      unix  - - n -  - error
discard    unix  - - n -  - discard
anvil      unix  - - n -  1 anvil
scache     unix  - - n -  1 scache
postlog    unix-dgram n - n - 1 postlogd
EOF
# the example's service, run as nobody with this test's files
sed -n '/^# buffertime unix/,/^#$/p' "$example" | sed -e '/^#$/d' -e 's/^# //' \
	-e 's/user=buffertime/user=nobody/' \
	-e "s|argv=.*|argv=$tool inbound --config $tmp/data/settings|" >>"$pf/etc/master.cf"
for want in transport_maps recipient_delimiter message_size_limit \
	buffertime_destination_recipient_limit; do
	check "the example sets $want" grep -q "^$want = " "$pf/etc/main.cf"
done
check "the example's pipe service" grep -q '^buffertime  *unix .* pipe$' "$pf/etc/master.cf"
check "the example's pipe flags" grep -q '^  *flags=DRhu user=nobody$' "$pf/etc/master.cf"
if ! /usr/sbin/postfix -c "$pf/etc" start >"$tmp/start.log" 2>&1; then
	echo "FAIL: Postfix did not start: $(tail -n 5 "$tmp/start.log")"
	tail -n 5 "$pf/maillog" 2>/dev/null
	exit 1
fi
started=yes
ok

# ---- the emails --------------------------------------------------------------

# The parts of a message the players read, by Python's email package
# (the turn emails may be quoted-printable): `mail.py body FILE` prints
# its text, `mail.py index FILE...` a line "FILE TO REPLY-TO" for each.
cat >"$tmp/mail.py" <<'EOF'
import email, email.policy, email.utils, sys

def read(path):
    with open(path, "rb") as f:
        return email.message_from_binary_file(f, policy=email.policy.default)

def addr(m, name):
    return email.utils.parseaddr(str(m.get(name, "")))[1] or "-"

if sys.argv[1] == "body":
    part = read(sys.argv[2]).get_body(preferencelist=("plain",))
    sys.stdout.write(part.get_content() if part else "")
else:
    for path in sys.argv[2:]:
        m = read(path)
        print(path, addr(m, "To"), addr(m, "Reply-To"))
EOF
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3   # starts faster than a pyenv's
body_of() { "$py" "$tmp/mail.py" body "$1"; }

seen=$tmp/seen
: >"$seen"
: >"$tmp/index"
# deliver: one mailer round; the new messages go to $tmp/fresh, one line
# "FILE TO REPLY-TO" each, oldest first (and to $tmp/index, all of them).
deliver() {
	bt worker --config "$tmp/data/settings" --mail-dir "$tmp/mail" --once
	[ "$rc" -eq 0 ] || not_ok "mailer --once: exit $rc: $(head -c 300 "$tmp/err")"
	find "$tmp/mail" -maxdepth 1 -type f -name '*.eml' | sort >"$tmp/all"
	comm -13 "$seen" "$tmp/all" >"$tmp/new"
	cp "$tmp/all" "$seen"
	: >"$tmp/fresh"
	if [ -s "$tmp/new" ]; then
		# shellcheck disable=SC2046  # the names have no spaces
		"$py" "$tmp/mail.py" index $(cat "$tmp/new") >"$tmp/fresh"
	fi
	cat "$tmp/fresh" >>"$tmp/index"
}

# fresh_for ADDRESS: the newest of the fresh messages for ADDRESS, or "".
fresh_for() {
	awk -v a="$1" '$2 == a { f = $1 } END { print f }' "$tmp/fresh"
}

# to_of FILE, reply_to_of FILE: a delivered message's addresses.
to_of() { awk -v f="$1" '$1 == f { print $2 }' "$tmp/index"; }
reply_to_of() { awk -v f="$1" '$1 == f { print $3 }' "$tmp/index"; }

# ---- replies through Postfix --------------------------------------------------

sent=0
# send ARGS...: one message over SMTP to Postfix (swaks ARGS); waits
# until Postfix has a final word for it in its log; $result is that
# line ("status=sent ..."), $qid its queue id.
send() {
	local out=$tmp/swaks.out
	sent=$((sent + 1))
	timeout 60 swaks --server 127.0.0.1 --port "$port" --helo players.test \
		--hide-informational "$@" >"$out" 2>&1
	qid=$(sed -n 's/.*250 2\.0\.0 Ok: queued as \([0-9A-F]*\).*/\1/p' "$out" | head -n 1)
	result=''
	if [ -z "$qid" ]; then
		not_ok "Postfix did not take message $sent: $(grep -m1 '<\*\*\|^ *<- *[45]' "$out")"
		return 1
	fi
	for _ in $(seq 300); do
		result=$(grep -m1 "$qid: to=<.*status=" "$pf/maillog")
		[ -n "$result" ] && return 0
		sleep 0.05
	done
	not_ok "message $sent ($qid): no delivery in 15 s: $(grep "$qid" "$pf/maillog" | tail -n 2)"
	return 1
}

# expect_delivered WHAT: the pipe took it (exit 0).
expect_delivered() {
	if echo "$result" | grep -q 'relay=buffertime.* status=sent'; then
		ok
	else
		not_ok "$1: $result"
	fi
}

# bounced_unknown: Postfix bounced the last message as "user unknown"
# (5.1.1: the pipe's exit status 67).
bounced_unknown() {
	case $result in
	*relay=buffertime*dsn=5.1.1*status=bounced*[Uu]nknown*) return 0 ;;
	esac
	return 1
}

n_id=0
# reply SEAT REPLY-TO BODY [SWAKS-ARGS...]: the seat's answer, from its
# address, with a Message-ID of its own.
reply() {
	local seat=$1 to=$2 body=$3
	shift 3
	n_id=$((n_id + 1))
	msgid="<reply.$n_id.$seed@players.test>"
	send --to "$to" --from "${email[$seat]}" \
		--header "Subject: Re: Buffer Time" --header "Message-Id: $msgid" \
		--body "$body" "$@"
}

# ---- the game ------------------------------------------------------------------

email=("" mariner@players.test boimler@players.test tendi@players.test)

# Made two days ago, so that the mailer's first round reminds seat 1 of
# its turn, with the menu (admin create sends no emails itself).
ago=$(( $(date +%s) - 2 * 86400 ))
timeout 30 runuser -u nobody -- env "BUFFERTIME_NOW=$ago" "$tool" admin --db "$db" \
	create --players 3 --first 1 --seed "$(printf '%032x' "$seed")" \
	--name Beckett --name Brad --name Tendi \
	--email "${email[1]}" --email "${email[2]}" --email "${email[3]}" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc "admin create" 0 || finish
game=$(cat "$tmp/out")

# state KEY: a number of the game's state view ("turn", "status"...).
state() {
	bt admin --db "$db" show "$game"
	sed -n "s/.*\"$1\": *\"\{0,1\}\([A-Za-z0-9_-]*\).*/\1/p" "$tmp/out" | head -n 1
}
actions() { sql "SELECT count(*) FROM actions WHERE game = '$game'"; }
answers() { sql "SELECT count(*) FROM outbox WHERE game = '$game' AND kind = 'answer'"; }

# The email each seat replies to: the newest with a Reply-To of ours.
last_mail=("" "" "" "")
deliver
take_fresh() {
	local s f
	for s in 1 2 3; do
		f=$(fresh_for "${email[$s]}")
		if [ -n "$f" ] && reply_to_of "$f" | grep -q "^play+.*@$domain\$"; then
			last_mail[s]=$f
		fi
	done
}
take_fresh
check "the first reminder carries a Reply-To to reply to" [ -n "${last_mail[1]}" ]
check "and a menu" grep -q 'Reply with the number, or the words' "${last_mail[1]:-/dev/null}"

moves=0 looks=0 orders=0 replies_ok=0
stale_done=0 dup_done=0 forged_done=0 wrong_done=0 auto_done=0 bounce_done=0
old_mail='' look=''
told=(0 0 0 0)
over=0
for step in $(seq 400); do
	[ "$(state status)" = playing ] || { over=1; break; }
	seat=$(state turn)
	f=${last_mail[$seat]}
	if [ -z "$f" ]; then
		not_ok "step $step: seat $seat has no email to reply to"
		break
	fi
	to=$(reply_to_of "$f")
	body_of "$f" >"$tmp/body"
	if [ "${told[seat]}" = 1 ]; then
		check "step $step: seat $seat's turn email tells its last move" \
			grep -q '^Your last move: you ' "$tmp/body"
		told[seat]=0
	fi
	before=$(actions)
	answers_before=$(answers)

	# ---- the odd mail, once each, early in the game ---------------------
	if [ "$moves" -eq 2 ] && [ "$wrong_done" -eq 0 ]; then
		# a wrong sender: nothing done, the seat is asked to confirm
		n_id=$((n_id + 1))
		send --to "$to" --from someone@elsewhere.test --body 1 \
			--header "Message-Id: <wrong.$seed@elsewhere.test>"
		expect_delivered "a wrong sender's reply"
		deliver
		a=$(fresh_for "${email[$seat]}")
		check "a wrong sender applies nothing" [ "$(actions)" = "$before" ]
		check "the seat is asked to confirm" grep -q 'not your address' "${a:-/dev/null}"
		wrong_done=1
	fi
	if [ "$moves" -eq 3 ] && [ "$forged_done" -eq 0 ]; then
		# a forged token: one character changed; Postfix bounces it
		tok=${to#play+}
		tok=${tok%@*}
		c=${tok:5:1}
		case $c in a|A) n=b ;; *) n=a ;; esac
		forged="play+${tok:0:5}$n${tok:6}@$domain"
		send --to "$forged" --from "${email[$seat]}" --body 1
		check "a forged token is bounced as an unknown user: $result" \
			bounced_unknown
		check "a forged token applies nothing" [ "$(actions)" = "$before" ]
		check "a forged token is answered by no one" [ "$(answers)" = "$answers_before" ]
		forged_done=1
	fi
	if [ "$moves" -eq 4 ] && [ "$auto_done" -eq 0 ]; then
		reply "$seat" "$to" 1 --header "Auto-Submitted: auto-replied" \
			--header "Subject: Out of office"
		expect_delivered "an auto-reply"
		check "an auto-reply applies nothing" [ "$(actions)" = "$before" ]
		check "an auto-reply gets no answer" [ "$(answers)" = "$answers_before" ]
		auto_done=1
	fi
	if [ "$moves" -eq 5 ] && [ "$bounce_done" -eq 0 ]; then
		cat >"$tmp/dsn.eml" <<-EOF
		From: MAILER-DAEMON@players.test (Mail Delivery System)
		To: $to
		Subject: Undelivered Mail Returned to Sender
		Message-Id: <dsn.$seed@players.test>
		MIME-Version: 1.0
		Content-Type: multipart/report; report-type=delivery-status;
		 boundary="BOUND"
		Auto-Submitted: auto-replied

		--BOUND
		Content-Type: text/plain

		1
		This is the mail system: your message could not be delivered.

		--BOUND
		Content-Type: message/delivery-status

		Reporting-MTA: dns; mx.players.test

		Final-Recipient: rfc822; ${email[$seat]}
		Action: failed
		Status: 5.1.1

		--BOUND--
		EOF
		send --to "$to" --from '<>' --data "$tmp/dsn.eml"
		expect_delivered "a bounce"
		check "a bounce applies nothing" [ "$(actions)" = "$before" ]
		check "a bounce gets no answer" [ "$(answers)" = "$answers_before" ]
		bounce_done=1
	fi

	# ---- the move: a number of the menu, or the sweep's order -----------
	if [ -n "$look" ]; then
		# the look's answer numbers the cards; the order replies to the
		# turn email's address (no move yet: its token still holds)
		k=$(body_of "$look" | grep -c '^[1-3]\. ')
		case $k in
			3) body="order 2 3 1" ;;
			2) body="order 2 1" ;;
			*) body="order 1" ;;
		esac
		kind=order
	else
		n=$(grep -c '^[0-9][0-9]*\. ' "$tmp/body")
		if [ "$n" -eq 0 ]; then
			not_ok "step $step: no menu in the email seat $seat replies to"
			head -n 40 "$tmp/body"
			break
		fi
		sweep=$(grep -m1 '^[0-9][0-9]*\. .*Sensor Sweep' "$tmp/body" | cut -d. -f1)
		if [ -n "$sweep" ] && [ "$looks" -eq 0 ]; then
			body=$sweep
			kind=look
		else
			body=$((RANDOM % n + 1))
			kind=move
		fi
	fi
	reply "$seat" "$to" "$body"
	expect_delivered "step $step: seat $seat replies '$body'"
	first_id=$msgid
	deliver
	a=$(fresh_for "${email[$seat]}")
	look=''
	case $kind in
	look)
		check "a look applies no action" [ "$(actions)" = "$before" ]
		if grep -q 'Only you see these cards' "${a:-/dev/null}"; then
			ok
			look=$a
		else
			not_ok "step $step: the look is not answered with the cards"
			break
		fi
		looks=$((looks + 1))
		;;
	*)
		if [ "$(actions)" = $((before + 1)) ]; then
			ok
		else
			not_ok "step $step: seat $seat's reply '$body' did not move" \
				"($(actions) actions, were $before): $(body_of "${a:-/dev/null}" | head -n 3)"
			break
		fi
		# one email a turn: a move that hands the turn on gets no
		# answer of its own; the seat's next turn email tells it
		if [ "$(state status)" = playing ] && [ "$(state turn)" != "$seat" ]; then
			check "step $step: no answer besides the next turn email" \
				[ "$(answers)" = "$answers_before" ]
			told[seat]=1
		fi
		[ "$kind" = order ] && orders=$((orders + 1))
		moves=$((moves + 1))
		;;
	esac
	replies_ok=$((replies_ok + 1))

	# the same Message-ID again: handled once
	if [ "$kind" = move ] && [ "$dup_done" -eq 0 ]; then
		after=$(actions)
		n_answers=$(answers)
		send --to "$to" --from "${email[$seat]}" --body "$body" \
			--header "Message-Id: $first_id"
		expect_delivered "a duplicate"
		check "a duplicate applies nothing" [ "$(actions)" = "$after" ]
		check "a duplicate is not answered twice" [ "$(answers)" = "$n_answers" ]
		dup_done=1
	fi
	# an old email's token after the game moved on: nothing, an answer
	if [ "$kind" = move ] && [ -n "$old_mail" ] && [ "$stale_done" -eq 0 ]; then
		after=$(actions)
		n_answers=$(answers)
		old_seat=$(to_of "$old_mail")
		for s in 1 2 3; do [ "${email[$s]}" = "$old_seat" ] && old_seat=$s; done
		reply "$old_seat" "$(reply_to_of "$old_mail")" 1
		expect_delivered "a stale reply"
		check "a stale reply applies nothing" [ "$(actions)" = "$after" ]
		check "a stale reply is answered" [ "$(answers)" = $((n_answers + 1)) ]
		stale_done=1
	fi
	[ -n "$old_mail" ] || old_mail=$f

	take_fresh
done
check "the game ended by replies (after $moves moves)" [ "$over" = 1 ]
check "a Sensor Sweep was looked at ($looks)" [ "$looks" -ge 1 ]
check "a Sensor Sweep was ordered ($orders)" [ "$orders" -ge 1 ]
for what in stale dup forged wrong auto bounce; do
	v=${what}_done
	check "the $what case was tried" [ "${!v}" = 1 ]
done

# ---- the record replays to the stored state ------------------------------------
bt admin --db "$db" export "$game"
expect_rc "admin export" 0 && cp "$tmp/out" "$tmp/record"
# same A B: A is not empty and has B's bytes.
same() { [ -s "$1" ] && cmp -s "$1" "$2"; }
for s in all 1 2 3; do
	seat_arg=()
	[ "$s" = all ] || seat_arg=(--seat "$s")
	bt admin --db "$db" show "$game" "${seat_arg[@]}"
	cp "$tmp/out" "$tmp/stored.$s"
	bt replay "${seat_arg[@]}" "$tmp/record"
	check "the record replays to the stored state (view $s)" \
		same "$tmp/out" "$tmp/stored.$s"
done
check "Postfix logged no deferral" sh -c "! grep -q 'status=deferred' '$pf/maillog'"
# how long the pipe's command took, as Postfix measured it (the last of
# its delays=a/b/c/d), over every delivery to buffertime
took=$(sed -n 's/.*relay=buffertime, .*delays=[0-9.]*\/[0-9.]*\/[0-9.]*\/\([0-9.]*\),.*/\1/p' \
	"$pf/maillog" | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)], v[NR] }')
echo "buffertime inbound under Postfix: median ${took% *} s, slowest ${took#* } s"
echo "game $game: $moves moves ($looks looks, $orders orders), $sent messages" \
	"through Postfix ($replies_ok replies to turn emails), $((SECONDS - t0)) s"
finish
