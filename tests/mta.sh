#!/bin/sh
# mta.sh - one run with a real MTA's sendmail program: `buffertime
# mailer` hands the emails to Debian's msmtp (as `msmtp -t -i`, the way
# it would run /usr/sbin/sendmail), which delivers them over SMTP to
# Python's aiosmtpd on loopback; a small handler there keeps each
# message's bytes as they came.  Checks that every email arrived intact
# (byte for byte the message the mailer writes into a folder for the
# same row and clock, line ends aside), to the right envelope recipient,
# and that with the SMTP server down the emails stay queued with
# msmtp's error and go out on the retry.
#
# Skips (77) only if msmtp or python3-aiosmtpd are missing and cannot be
# installed (scripts/install-deps lists them).
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
unset BUFFERTIME_DB BUFFERTIME_NOW

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-mta.XXXXXX") || exit 1
sink=
cleanup() {
	if [ -n "$sink" ]; then
		kill "$sink" 2>/dev/null
		wait "$sink" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

drive=$(dirname "$BUFFERTIME")/tests/maildrive
[ -x "$drive" ] || { echo "FAIL: $drive is not built (make check builds it)"; exit 1; }

# A Python that has aiosmtpd: Debian's, which the package installs into.
find_python() {
	py=
	for p in /usr/bin/python3 python3; do
		if "$p" -c 'import aiosmtpd' 2>/dev/null; then
			py=$p
			return 0
		fi
	done
	return 1
}
if ! command -v msmtp >/dev/null 2>&1 || ! find_python; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get -y -q -o \
			DPkg::Lock::Timeout=120 install --no-install-recommends \
			msmtp python3-aiosmtpd >"$tmp/apt.log" 2>&1
	fi
	if ! command -v msmtp >/dev/null 2>&1 || ! find_python; then
		echo "SKIP: msmtp or python3-aiosmtpd missing and not installable"
		exit 77
	fi
fi

# The SMTP sink: aiosmtpd with a handler that writes each message's
# bytes (as received, CRLF and all) and its envelope to files.
mkdir "$tmp/sink" "$tmp/py"
cat >"$tmp/py/btsink.py" <<'EOF'
import os

class Sink:
    def __init__(self, folder):
        self.folder = folder
        self.n = 0

    @classmethod
    def from_cli(cls, parser, *args):
        return cls(args[0])

    async def handle_DATA(self, server, session, envelope):
        self.n += 1
        base = os.path.join(self.folder, "%03d" % self.n)
        with open(base + ".env", "w") as f:
            f.write("from %s\n" % envelope.mail_from)
            for r in envelope.rcpt_tos:
                f.write("to %s\n" % r)
        with open(base + ".tmp", "wb") as f:
            f.write(envelope.original_content or envelope.content)
        os.rename(base + ".tmp", base + ".eml")
        return "250 Message accepted"
EOF
port=$("$py" -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

start_sink() {
	PYTHONPATH=$tmp/py "$py" -m aiosmtpd -n -l "127.0.0.1:$port" \
		-c btsink.Sink "$tmp/sink" >"$tmp/sink.log" 2>&1 &
	sink=$!
	for _ in $(seq 100); do
		if "$py" -c "import socket
socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}
stop_sink() {
	kill "$sink"
	wait "$sink" 2>/dev/null
	sink=
}

cat >"$tmp/msmtprc" <<EOF
defaults
auth off
tls off
logfile $tmp/msmtp.log
account sink
host 127.0.0.1
port $port
from bt@mail.example.org
account default : sink
EOF
chmod 600 "$tmp/msmtprc"

db=$tmp/games.db
key=$tmp/server.key
head -c 32 /dev/urandom >"$key" && chmod 600 "$key"
T=1700000000
game=$(env "BUFFERTIME_NOW=$T" "$drive" queue "$db" 3) || not_ok "maildrive queue"
# The same rows in a copy: the reference messages come from it.
cp "$db" "$tmp/ref.db"

common="--key-file $key --base-url https://bt.example/ --mail-from bt@mail.example.org"
# mail DB ARGS...: one round at T.
mail() {
	db_=$1
	shift
	# shellcheck disable=SC2086
	timeout 60 env "BUFFERTIME_NOW=$T" "$BUFFERTIME" worker --db "$db_" \
		$common --once "$@" >/dev/null 2>"$tmp/err"
	rc=$?
}

mail "$tmp/ref.db" --mail-dir "$tmp/ref"
expect_rc "the reference messages" 0

# ---- with the SMTP server down: queued, with msmtp's error --------------

mail "$db" --sendmail "msmtp -C $tmp/msmtprc -t -i"
expect_rc "msmtp with no server" 1
timeout 30 "$BUFFERTIME" admin --db "$db" mail list --failed >"$tmp/list"
check "the failures are not listed: $(cat "$tmp/list")" \
	[ "$(grep -c ' failed .*msmtp exited with status [0-9]*: msmtp: ' "$tmp/list")" -eq 3 ]
sed -n 2p "$tmp/list"

# ---- delivered ------------------------------------------------------------

if start_sink; then
	ok
else
	not_ok "the SMTP sink did not start: $(cat "$tmp/sink.log")"
fi
timeout 30 env "BUFFERTIME_NOW=$T" "$BUFFERTIME" admin --db "$db" mail retry all >/dev/null
mail "$db" --sendmail "msmtp -C $tmp/msmtprc -t -i"
expect_rc "msmtp to the sink" 0
stop_sink
n=$(find "$tmp/sink" -name '*.eml' | wc -l)
check "the sink received $n messages" [ "$n" -eq 3 ]
timeout 30 "$BUFFERTIME" admin --db "$db" mail list >"$tmp/list"
check "emails left queued: $(cat "$tmp/list")" [ "$(wc -l <"$tmp/list")" -eq 1 ]

i=0
for ref in $(find "$tmp/ref" -name '*.eml' | sort); do
	i=$((i + 1))
	got=$tmp/sink/$(printf %03d $i)
	check "message $i: not CRLF on the wire" grep -q "$(printf '\r')\$" "$got.eml"
	tr -d '\r' <"$got.eml" >"$got.lf"
	if cmp -s "$ref" "$got.lf"; then
		ok
	else
		not_ok "message $i did not arrive intact"
		diff "$ref" "$got.lf" | head -n 10
	fi
	seat=$(( (i - 1) % 3 + 1 ))
	printf 'from bt@mail.example.org\nto seat%d.g0@example.org\n' "$seat" >"$got.want"
	check "message $i: envelope $(tr '\n' ' ' <"$got.env")" cmp -s "$got.env" "$got.want"
	check "message $i: Message-ID" grep -qx "Message-ID: <bt.$i.$game@mail.example.org>" "$got.lf"
	check "message $i: the dot line" grep -qx '\.' "$got.lf"
	check "message $i: a line over 998 bytes" [ "$(LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m }' "$got.lf")" -le 998 ]
done
check "no reference messages" [ "$i" -eq 3 ]

finish
