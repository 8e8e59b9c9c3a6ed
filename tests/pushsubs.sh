#!/usr/bin/env bash
# pushsubs.sh - turning a seat's turn notifications on and off (Web
# Push subscriptions), for real: nginx and buffertime.fcgi on loopback
# (scripts/web), driven with curl as static/push.js drives the settings
# page's push form, the store looked at.
#
# The settings page shows the push form with the server's VAPID public
# key, the one of the key file the program made (read independently with
# python3-cryptography), and how many browsers are notified.  A
# subscription posted with the seat's CSRF token is kept (once however
# often it comes), an http endpoint is refused while allow_private_urls
# is off, so is a key of the wrong shape, a form without CSRF token is a
# 403; "off" drops it; another seat's page counts only its own.
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
web_test_start pushsubs nginx curl python3
seed=3

subs() {
	sql "SELECT count(*) FROM push_subs WHERE game = '$game' AND seat = $1"
}


# ============================================================================
run_dir=$tmp/run
up "$run_dir"
base=$url
db=$(db_of "$run_dir")
declare -a jar links

create 1 Ann:ann@example.org Bob:bob@example.org || finish
for s in 1 2; do
	jar[$s]=$tmp/jar.$s
	req "${jar[$s]}" GET "${links[$s]}"
done

req "${jar[1]}" GET "${base}g/$game/settings"
expect_code "Ann's settings" 200
key=$(grep -o 'class="push-form"[^>]*data-key="[^"]*"' "$tmp/b" | sed 's/.*data-key="//; s/"$//')
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
check "the push form carries a P-256 public key" grep -Eq '^B[A-Za-z0-9_-]{86}$' <<<"$key"
check "it is the key file's" [ "$(python3 -c '
import base64, sys
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_private_key
k = load_pem_private_key(open(sys.argv[1], "rb").read(), None)
raw = k.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
print(base64.urlsafe_b64encode(raw).rstrip(b"=").decode())' "$run_dir/data/vapid.pem")" = "$key" ]
check "the key file is private" [ "$(stat -c %a "$run_dir/data/vapid.pem")" = 600 ]
check "none notified yet" grep -q 'No browser of this seat is notified yet.' "$tmp/b"
check "push.js is loaded" grep -q '<script src="/static/push.js?v=[^"]*" defer></script>' "$tmp/b"
valid "the settings with the push form"

p256dh=BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4
auth=BTBZMqHH6r4Tts7J_aSIgg
endpoint=https://push.example.net/wpush/v2/gAAAAABk
form="csrf=$csrf&push=on&endpoint=$endpoint&p256dh=$p256dh&auth=$auth"
req "${jar[1]}" POST "${base}g/$game/push" "$form"
expect_code "turn it on" 303
check "back to the settings, saying so" grep -q "settings?m=push_on" <<<"$loc"
check "one subscription kept" [ "$(subs 1)" = 1 ]
req "${jar[1]}" POST "${base}g/$game/push" "$form"
check "the same browser again: still one" [ "$(subs 1)" = 1 ]
req "${jar[1]}" GET "${base}g/$game/settings?m=push_on"
check "the page says one is notified" grep -q '1 browser of this seat is notified.' "$tmp/b"
check "and what was done" grep -q 'now shows a notification' "$tmp/b"
req "${jar[2]}" GET "${base}g/$game/settings"
check "Bob's page counts his own" grep -q 'No browser of this seat is notified yet.' "$tmp/b"

req "${jar[1]}" POST "${base}g/$game/push" "csrf=$csrf&push=on&endpoint=http://push.example.net/x&p256dh=$p256dh&auth=$auth"
expect_code "an http endpoint" 400
req "${jar[1]}" POST "${base}g/$game/push" "csrf=$csrf&push=on&endpoint=$endpoint/2&p256dh=${p256dh:1}&auth=$auth"
expect_code "a key of the wrong length" 400
req "${jar[1]}" POST "${base}g/$game/push" "push=on&endpoint=$endpoint/3&p256dh=$p256dh&auth=$auth"
expect_code "no CSRF token" 403
req "${jar[1]}" POST "${base}g/$game/push" "csrf=$csrf&push=maybe&endpoint=$endpoint"
expect_code "neither on nor off" 400
req "" POST "${base}g/$game/push" "$form"
expect_code "no seat" 403
check "nothing more kept" [ "$(subs 1)" = 1 ]

req "${jar[1]}" POST "${base}g/$game/push" "csrf=$csrf&push=off&endpoint=$endpoint"
expect_code "turn it off" 303
check "saying so" grep -q "settings?m=push_off" <<<"$loc"
check "none kept" [ "$(subs 1)" = 0 ]
req "${jar[1]}" POST "${base}g/$game/push" "csrf=$csrf&push=off&endpoint=$endpoint"
expect_code "off again: harmless" 303

finish
