#!/usr/bin/env bash
# webpush.sh - push/'s Web Push against an independent implementation:
# Debian's python3-cryptography (tests/webpush_check.py) makes a
# browser's key pair and auth secret; tests/pushdrive encrypts messages
# for them with push/ and signs a VAPID header; the Python side decrypts
# each (ASCII, UTF-8, the longest a record holds) and verifies the JWT
# (ES256 by the key it names, the endpoint's origin, the expiry).  A body
# changed by one byte, or opened with another browser's key, does not
# decrypt; a header's signature changed does not verify.
#
# Environment (set by "make check"): BUFFERTIME (its folder holds
# tests/pushdrive), SRCDIR.  Prints one line per failure and last
# "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${SRCDIR:?set SRCDIR to the source tree}"

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
drive=$(dirname "$BUFFERTIME")/tests/pushdrive
checker=$SRCDIR/tests/webpush_check.py
[ -x "$drive" ] || { echo "FAIL: $drive not built (make check builds it)"; exit 1; }
python3 -c 'import cryptography' 2>/dev/null ||
	{ echo "FAIL: python3-cryptography is not installed (scripts/install-deps)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-webpush.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

read -r ua_private ua_public auth < <(python3 "$checker" keys)
read -r other_private _ other_auth < <(python3 "$checker" keys)
endpoint=https://push.example.net:8443/wpush/v2/gAAAAABk
now=$(date +%s)

# send MESSAGE: body and header into $body, $header.
send() {
	local out
	out=$("$drive" "$tmp/vapid.pem" "$ua_public" "$auth" "$endpoint" \
		$((now + 43200)) "$1") || { not_ok "pushdrive failed for '${1:0:30}'"; return 1; }
	body=$(printf '%s\n' "$out" | sed -n 1p)
	header=$(printf '%s\n' "$out" | sed -n 2p)
}

# the most one record holds: 4096 less the header (86), tag (16), delimiter
long=$(head -c 3993 /dev/zero | tr '\0' 'x')
for msg in "Ben's turn — Round 3, risk 12%" '{"title":"Buffer Time","url":"https://bt.example/g/x"}' "$long"; do
	send "$msg" || continue
	got=$(python3 "$checker" open "$ua_private" "$auth" "$body" 2>&1)
	check "decrypted independently: ${msg:0:30}" [ "$got" = "$msg" ]
	sub=$(python3 "$checker" vapid "$header" "$endpoint" "$now" 2>&1)
	check "the VAPID header verifies" [ "$sub" = "mailto:admin@example.org" ]
done
check "the key file was made private" [ "$(stat -c %a "$tmp/vapid.pem")" = 600 ]

send "Ben's turn"
check "another browser's key opens nothing" \
	sh -c '! python3 "$1" open "$2" "$3" "$4" 2>/dev/null' _ "$checker" "$other_private" "$other_auth" "$body"
# a character of the ciphertext (past the 86 bytes of header: 115 characters)
case ${body:130:1} in A) swap=B ;; *) swap=A ;; esac
check "a changed byte opens nothing" \
	sh -c '! python3 "$1" open "$2" "$3" "$4" 2>/dev/null' _ "$checker" "$ua_private" "$auth" "${body:0:130}$swap${body:131}"
token=${header#vapid t=}
sig=${token%%, k=*}
sig=${sig##*.}
case ${sig:5:1} in A) c=B ;; *) c=A ;; esac
forged=${header/$sig/${sig:0:5}$c${sig:6}}
check "a changed signature does not verify" \
	sh -c '! python3 "$1" vapid "$2" "$3" "$4" 2>/dev/null' _ "$checker" "$forged" "$endpoint" "$now"
check "another origin is not the audience" \
	sh -c '! python3 "$1" vapid "$2" https://elsewhere.example/x "$3" 2>/dev/null' _ "$checker" "$header" "$now"

finish
