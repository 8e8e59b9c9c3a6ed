#!/usr/bin/env bash
# notices.sh - what goes beside email, for real: nginx and buffertime.fcgi
# on loopback (scripts/web), the worker and its buffertime-notify, a
# local Web Push service (tests/push_service.py: it checks each VAPID
# JWT and decrypts each message with python3-cryptography, independent
# of push/) and a local chat receiver (tests/hook_receiver.py).
#
# Web Push: a seat that turned notifications on (as static/push.js does)
# gets "Your turn" when the turn passes to it, with the table's address
# and never a seat link; a seat whose browser ended its subscription
# (410) has it dropped; a failing service is retried with the outbox's
# backoff, then given up; nothing goes to a seat that turned it off.
#
# The crew's chat: any seat names a webhook on the settings page; every
# seat sees it; a first message goes at once; each format (Discord with
# mentions off, Slack with & < > escaped, Matrix, ntfy, signed JSON whose
# HMAC the receiver checks with the secret the page shows) gets the
# turn; a URL that resolves to loopback is refused when private
# addresses are not allowed; a slow receiver does not hold up an email
# (the worker's daemon: the email's file is there while the receiver
# still sleeps); the per-game rate; removal; the admin's switch.
#
# BT_TEST_ENGINE=postgres: on a PostgreSQL server (testlib.sh).
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR.
# Prints one line per failure and last "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
engine_init
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start notices nginx curl python3
seed=5
python3 -c 'import cryptography' 2>/dev/null ||
	{ echo "FAIL: python3-cryptography is not installed (scripts/install-deps)"; exit 1; }

helpers=()
stop_helpers() {
	local p
	for p in "${helpers[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
}
trap 'stop_helpers; web_test_cleanup' EXIT

# serve SCRIPT DIR: starts a local server; its port in $port.
serve() {
	mkdir -p "$2"
	python3 "$SRCDIR/tests/$1" "$2" 2>"$2/stderr" &
	helpers+=("$!")
	for _ in $(seq 100); do
		[ -s "$2/port" ] && break
		sleep 0.1
	done
	port=$(cat "$2/port" 2>/dev/null)
	[ -n "$port" ] || { not_ok "$1 did not start: $(cat "$2/stderr")"; finish; }
}

serve push_service.py "$tmp/ps"
push_port=$port
serve hook_receiver.py "$tmp/hr"
hook_port=$port

run_dir=$tmp/run
mails=$tmp/mail
mkdir -p "$mails"
up "$run_dir" --set allow_private_urls=1 --set notice_timeout=2 \
	--set webhooks_per_game_hour=8
base=$url
origin=$(origin_of "$base")
db=$(db_of "$run_dir")
declare -a jar links csrf

# work [NOW]: the worker once (the emails, then buffertime-notify --once),
# at clock NOW if given; its log in $tmp/worker.log.
work() {
	BUFFERTIME_NOW=${1-} timeout 60 "$BUFFERTIME" worker --config "$run_dir/buffertime.conf" \
		--mail-dir "$mails" --once >"$tmp/worker.log" 2>&1
	cat "$tmp/worker.log" >>"$tmp/workers.log"
}

notices() {
	sql "SELECT count(*) FROM notices WHERE game = '$game' AND $1"
}

# settings SEAT: the seat's settings page, its CSRF token in csrf[SEAT].
settings() {
	req "${jar[$1]}" GET "${base}g/$game/settings${2-}"
	csrf[$1]=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
}

create 1 Ann:ann@example.org Bob:bob@example.org Cy:cy@example.org || finish
for s in 1 2 3; do
	jar[$s]=$tmp/jar.$s
	req "${jar[$s]}" GET "${links[$s]}"
done

# ---- Web Push ---------------------------------------------------------------
read -r p256dh auth < <(python3 "$SRCDIR/tests/push_service.py" keys "$tmp/ps" bob)
settings 2
req "${jar[2]}" POST "${base}g/$game/push" \
	"csrf=${csrf[2]}&push=on&endpoint=http://127.0.0.1:$push_port/push/bob&p256dh=$p256dh&auth=$auth"
expect_code "Bob turns notifications on" 303
read -r p256dh auth < <(python3 "$SRCDIR/tests/push_service.py" keys "$tmp/ps" cy)
settings 3
req "${jar[3]}" POST "${base}g/$game/push" \
	"csrf=${csrf[3]}&push=on&endpoint=http://127.0.0.1:$push_port/gone/cy&p256dh=$p256dh&auth=$auth"
expect_code "Cy turns them on, on a browser that will have ended it" 303

check "Ann moves" step
check "the push is queued with the move" [ "$(notices "channel = 'push' AND seat = 2")" = 1 ]
work
check "the worker's notifier sent one" grep -q 'notices: 1 sent, 0 failed, 0 given up' "$tmp/worker.log"
check "Bob's browser got one message" [ "$(grep -c '"message"' "$tmp/ps/bob.log" 2>/dev/null)" = 1 ]
python3 - "$tmp/ps/bob.log" "$base" "$game" >"$tmp/check" 2>&1 <<'EOF'
import json, re, sys
line = json.loads(open(sys.argv[1]).read().splitlines()[-1])
m = json.loads(line["message"])
base, game = sys.argv[2], sys.argv[3]
assert m["title"] == "Your turn", m
assert re.match(r"Round [0-9]+(, risk [0-9]+%)?, in the game with ", m["body"]), m
assert "Ann" in m["body"] and "Cy" in m["body"], m
assert m["url"] == base + "g/" + game, m
assert m["tag"] == game, m
assert "?t=" not in line["message"], "a seat link in a push"
assert line["sub"] == "mailto:buffertime@localhost" or line["sub"].startswith("mailto:"), line
assert line["topic"] == game and line["urgency"] == "normal", line
assert int(line["ttl"]) > 0, line
print("ok")
EOF
check "its words, the table's address, the VAPID contact ($(tail -n 1 "$tmp/check"))" grep -qx ok "$tmp/check"
check "it is marked sent" [ "$(notices "channel = 'push' AND sent IS NOT NULL")" = 1 ]

check "Bob moves" step
work
check "Cy's push service answered 410" grep -q '"answered": 410' "$tmp/ps/cy.log"
check "the notice is given up, saying why" grep -q 'ended its subscription' "$tmp/worker.log"
check "Cy's subscription is dropped" [ "$(sql "SELECT count(*) FROM push_subs WHERE game = '$game' AND seat = 3")" = 0 ]

# a failing service: retried after the backoff, then given up
settings 2
req "${jar[2]}" POST "${base}g/$game/push" "csrf=${csrf[2]}&push=off&endpoint=http://127.0.0.1:$push_port/push/bob"
expect_code "Bob turns this browser off" 303
read -r p256dh auth < <(python3 "$SRCDIR/tests/push_service.py" keys "$tmp/ps" bobfail)
req "${jar[2]}" POST "${base}g/$game/push" \
	"csrf=${csrf[2]}&push=on&endpoint=http://127.0.0.1:$push_port/fail/bobfail&p256dh=$p256dh&auth=$auth"
expect_code "and another on, at a failing service" 303
before=$(grep -c '"message"' "$tmp/ps/bob.log")
check "Cy moves" step
check "Ann moves" step
work
check "nothing more to the browser turned off" [ "$(grep -c '"message"' "$tmp/ps/bob.log")" = "$before" ]
check "the failing service was tried" grep -q 'answered HTTP 500' "$tmp/worker.log"
check "and is to be tried again" [ "$(notices "channel = 'push' AND target LIKE '%/fail/%' AND sent IS NULL AND dropped IS NULL AND attempts = 1")" = 1 ]
now=$(date +%s)
for i in 1 2 3 4 5; do
	now=$((now + 7 * 3600))
	work "$now"
done
check "given up after six attempts" [ "$(notices "channel = 'push' AND target LIKE '%/fail/%' AND dropped IS NOT NULL AND attempts = 6")" = 1 ]
check "saying so" grep -q 'attempt 6: answered HTTP 500; given up' "$tmp/worker.log"
check "reminders went to the browser too" [ "$(notices "channel = 'push' AND kind = 'reminder' AND target LIKE '%/fail/%'")" -ge 1 ]
check "each attempt reached the service" [ "$(grep -c '"answered": 500' "$tmp/ps/bobfail.log")" = \
	"$(sql "SELECT sum(attempts) FROM notices WHERE game = '$game' AND target LIKE '%/fail/%'")" ]

# ---- the crew's chat --------------------------------------------------------
hook() {   # hook SEAT URL KIND
	settings "$1"
	req "${jar[$1]}" POST "${base}g/$game/hook" "csrf=${csrf[$1]}&hook=on&hook_address=$2&hook_kind=$3"
}
hook_lines() {
	grep -c . "$tmp/hr/requests.log" 2>/dev/null || echo 0
}
# last_body: the body of the receiver's last request
last_body() {
	last_hook body
}
# last_hook FIELD: a field of the receiver's last request
last_hook() {
	python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read().splitlines()[-1]); v=r
for k in sys.argv[2].split("."): v=v[k]
print(v)' "$tmp/hr/requests.log" "$1"
}

settings 3
check "the settings page offers the crew's chat" grep -q 'id="chat"' "$tmp/b"
valid "the settings page with the chat form"
hook 3 "http://127.0.0.1:$hook_port/ok/discord" discord
expect_code "Cy names a Discord webhook" 303
check "back to the settings, saying so" grep -q 'settings?m=hook_on' <<<"$loc"
settings 1
check "Ann sees it, without its address" grep -q 'Messages go to Discord at 127.0.0.1:'"$hook_port"', set by Cy.' "$tmp/b"
check "the page does not show the whole address" sh -c '! grep -q "/ok/discord" "$1"' _ "$tmp/b"
work
check "the chat got a first message" [ "$(hook_lines)" = 1 ]
check "Discord's mentions are off" grep -q '"allowed_mentions":{"parse":\[\]}' <(last_body)
check "it is valid JSON" [ "$(last_hook valid_json)" = True ]
settings 2
check "every seat's page says it went through" grep -q 'The last message went through.' "$tmp/b"

turn=$(turn_seat)
name=$(sql "SELECT name FROM seats WHERE game = '$game' AND seat = $turn")
check "a move" step
turn=$(turn_seat)
name=$(sql "SELECT name FROM seats WHERE game = '$game' AND seat = $turn")
work
check "the turn is posted" [ "$(hook_lines)" = 2 ]
check "as $name's turn with the round and risk" grep -q "^{\"content\":\"$name's turn — Round [0-9]*, risk [0-9]*%" <(last_body)
check "with the table's address, not a seat link" sh -c 'tail -n 1 "$1" | grep -q "g/$2" && ! tail -n 1 "$1" | grep -q "?t="' _ "$tmp/hr/requests.log" "$game"

for kind in slack matrix ntfy; do
	hook 1 "http://127.0.0.1:$hook_port/ok/$kind" "$kind"
	expect_code "Ann names a $kind webhook" 303
	n=$(hook_lines)
	work
	check "$kind: its first message" [ "$(hook_lines)" = $((n + 1)) ]
	case $kind in
	slack) check "slack: text with the table's link" grep -q '"text":".*<http://127.0.0.1:[0-9]*/g/'"$game"'|Open the table>"' <(last_body) ;;
	matrix) check "matrix: text and html" grep -q '"html":".*<a href=\\"http' <(last_body) ;;
	ntfy) check "ntfy: plain text, the table as its Click" [ "$(last_hook headers.click)" = "${base}g/$game" ] ;;
	esac
done

# signed JSON: the receiver checks the HMAC with the secret the page shows
hook 2 "http://127.0.0.1:$hook_port/json/any" ""
expect_code "Bob names another chat (recognised: signed JSON)" 303
settings 2
secret=$(grep -o 'class="hook-secret">[0-9a-f]*<' "$tmp/b" | sed 's/.*">//; s/<$//')
check "the page shows its 64-digit secret" grep -Eq '^[0-9a-f]{64}$' <<<"$secret"
printf '%s' "$secret" >"$tmp/hr/secret"
work
check "the receiver verified the signature" [ "$(last_hook signature_ok)" = True ]
check "the JSON says the event" [ "$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["event"])' "$(last_hook body)")" = test ]

# a failing chat: tried again later, not given up at once
hook 2 "http://127.0.0.1:$hook_port/fail/x" discord
work
check "a chat that answers 500 is tried again later" \
	[ "$(notices "channel = 'hook' AND target LIKE '%/fail/%' AND attempts = 1 AND last_error = 'answered HTTP 500' AND dropped IS NULL")" = 1 ]

# a slow receiver holds up no email: the worker's daemon, its notifier
# beside it; the receiver holds each request 12 s, longer than an email
# takes by far, and the notifier would wait 30
hook 2 "http://127.0.0.1:$hook_port/slow/x" discord
n=$(hook_lines)
bash "$SRCDIR/scripts/web" down "$run_dir" >/dev/null 2>&1
up "$run_dir" --set allow_private_urls=1 --set notice_timeout=30 \
	--set webhooks_per_game_hour=8 --mailer "$mails" --mail-poll 1
base=$url
origin=$(origin_of "$base")
for _ in $(seq 100); do   # the first message (to the slow one) is under way
	[ "$(hook_lines)" -gt "$n" ] && break
	sleep 0.1
done
check "the slow receiver was reached" [ "$(hook_lines)" -gt "$n" ]
emails=$(find "$mails" -type f | wc -l)
check "a move while it holds the message" step
for _ in $(seq 100); do
	[ "$(find "$mails" -type f | wc -l)" -gt "$emails" ] && break
	sleep 0.1
done
check "the move's email went" [ "$(find "$mails" -type f | wc -l)" -gt "$emails" ]
check "while the chat's first message was still under way" \
	[ "$(notices "channel = 'hook' AND kind = 'hello' AND target LIKE '%/slow/%' AND sent IS NULL")" = 1 ]
check "the servers stop at once all the same (the POST in hand ends)" \
	sh -c 'bash "$1" down "$2" >/dev/null 2>&1' _ "$SRCDIR/scripts/web" "$run_dir"
check "no notifier is left" sh -c '! pgrep -f "[b]uffertime-notify --config $1/" >/dev/null' _ "$run_dir"
check "and that message waits to be tried again" \
	[ "$(notices "channel = 'hook' AND kind = 'hello' AND target LIKE '%/slow/%' AND sent IS NULL AND dropped IS NULL")" = 1 ]

# a notifier that dies (a crash, the OOM killer) is started again by the
# worker's daemon, which goes on
up "$run_dir" --set allow_private_urls=1 --set notice_timeout=2 \
	--set webhooks_per_game_hour=8 --mailer "$mails" --mail-poll 1
notifier_pid() {
	pgrep -f "[b]uffertime-notify --config $run_dir/" | head -n 1
}
for _ in $(seq 100); do
	[ -n "$(notifier_pid)" ] && break
	sleep 0.1
done
first=$(notifier_pid)
check "the daemon started its notifier" [ -n "$first" ]
kill -KILL "$first" 2>/dev/null
again=
for _ in $(seq 100); do   # at the end of the round (one a second)
	again=$(notifier_pid)
	[ -n "$again" ] && [ "$again" != "$first" ] && break
	sleep 0.1
done
check "a killed notifier is started again ($first, then ${again:-none})" \
	[ -n "$again" ] && [ "$again" != "$first" ]
check "the worker says so" grep -q 'buffertime-notify ended (signal 9): starting it again' "$run_dir/log/worker.log"
check "and it stops with the servers" \
	sh -c 'bash "$1" down "$2" >/dev/null 2>&1' _ "$SRCDIR/scripts/web" "$run_dir"
check "no notifier is left after it" sh -c '! pgrep -f "[b]uffertime-notify --config $1/" >/dev/null' _ "$run_dir"

up "$run_dir" --set allow_private_urls=1 --set notice_timeout=2 --set webhooks_per_game_hour=8
base=$url
origin=$(origin_of "$base")

# the per-game rate: 8 an hour
hook 1 "http://127.0.0.1:$hook_port/ok/rate" json
for _ in 1 2 3 4 5 6; do step >/dev/null; done
check "messages over the game's rate are kept, dropped, saying so" [ "$(notices "channel = 'hook' AND last_error = 'over the game''s webhook messages an hour'")" -ge 1 ]

# removal, by any seat
settings 3
req "${jar[3]}" POST "${base}g/$game/hook" "csrf=${csrf[3]}&hook=off"
expect_code "Cy removes the webhook" 303
settings 1
check "Ann's page offers a new one, shows none" sh -c '! grep -q "Messages go to" "$1"' _ "$tmp/b"
q=$(notices "channel = 'hook'")
step
check "no more is queued for the chat" [ "$(notices "channel = 'hook'")" = "$q" ]

# loopback refused when private addresses are not allowed; the admin's switch
bash "$SRCDIR/scripts/web" down "$run_dir" >/dev/null 2>&1
up "$run_dir" --set allow_private_urls=0
base=$url
origin=$(origin_of "$base")
hook 1 "http://127.0.0.1:$hook_port/ok/x" discord
expect_code "an http webhook, private addresses not allowed" 400
hook 1 "https://localhost:$hook_port/ok/refused" discord
expect_code "an https one naming localhost is taken (where it leads is checked when sent)" 303
n=$(hook_lines)
work
check "its message is refused, never sent" [ "$(hook_lines)" = "$n" ]
check "and given up at once, saying why" grep -q 'given up' "$tmp/worker.log"
settings 1
check "the page says it could not be delivered" grep -q 'The last message could not be delivered (.*): check the address.' "$tmp/b"
valid "the settings page with the chat's failure"
bash "$SRCDIR/scripts/web" down "$run_dir" >/dev/null 2>&1
up "$run_dir" --set webhooks=0
base=$url
origin=$(origin_of "$base")
settings 1
check "webhooks off: the page offers no chat" sh -c '! grep -q "id=\"chat\"" "$1"' _ "$tmp/b"
hook 1 "https://chat.example.org/hook" discord
expect_code "and a form posted anyway is refused" 400

# a revoked seat link: the browsers that had it hear no more
check "Bob still has a browser notified" [ "$(sql "SELECT count(*) FROM push_subs WHERE game = '$game' AND seat = 2")" = 1 ]
check "the admin revokes Bob's link" "$BUFFERTIME" admin --db "$db" revoke "$game" 2 >/dev/null
check "its browsers are no longer notified" [ "$(sql "SELECT count(*) FROM push_subs WHERE game = '$game' AND seat = 2")" = 0 ]

# (but for the notifier killed on purpose above)
check "no sanitizer or crash report from the worker or its notifier" \
	sh -c '! cat "$@" | grep -v "buffertime-notify ended (signal 9)" |
		grep -Eq "Sanitizer|runtime error|signal [0-9]"' _ "$tmp/workers.log" "$run_dir/log/worker.log"

finish
