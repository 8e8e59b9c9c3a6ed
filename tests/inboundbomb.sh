#!/usr/bin/env bash
# inboundbomb.sh - what an email that is not for us may cost `buffertime
# inbound` before any token is checked: each of these 1 MiB emails is
# piped to the real program, and its peak memory (the kernel's ru_maxrss
# of that process, tests/rusage) may exceed that of a 60-byte email by
# at most 8 MiB:
#   parts     209,690 empty MIME parts ("--a" and an empty line each);
#   headers   209,000 header fields;
#   addresses one Cc field of 262,000 addresses;
# each refused unread (exit 65, the reason in the log line); and
#   html      an HTML-only email of 80,000 tags with attributes, read (no
#             token: exit 67) within 12 MiB (24 MiB under the sanitizers,
#             whose allocations weigh more);
#   text      1 MiB of plain text lines, read (exit 67): no refusal of a
#             large ordinary email.
# And the memory bound of the whole process: with inbound_memory_mb = 2,
# the program cannot even take the email in (exit 75, try later); it is
# not set in a sanitizer build (ASan's shadow memory counts), where the
# email is read as usual.  CPU times are printed, not checked.
#
# Environment (set by "make check"): BUFFERTIME.
set -u
LC_ALL=C
export LC_ALL

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
unset BUFFERTIME_DB BUFFERTIME_NOW

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-inboundbomb.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

rusage=$(dirname "$BUFFERTIME")/tests/rusage
[ -x "$rusage" ] || { echo "FAIL: $rusage is not built (make check builds it)"; exit 1; }

head -c 32 /dev/urandom >"$tmp/key" && chmod 600 "$tmp/key"
cat >"$tmp/settings" <<EOF2
db = $tmp/games.db
key_file = $tmp/key
base_url = http://bt.example/
reply_address = play@bt.example
EOF2

head='From: <x@evil.example>
To: <play@bt.example>
Subject: hi
'
mime='MIME-Version: 1.0
Content-Type: multipart/mixed; boundary=a
'
printf '%s\nhello\n' "$head" >"$tmp/small.eml"
{ printf '%s%s\n' "$head" "$mime"; yes -- '--a
' | head -n 419380; printf -- '--a--\n'; } >"$tmp/parts.eml"
{ printf '%s' "$head"; yes 'X: y' | head -n 209000; printf '\nhi\n'; } \
	>"$tmp/headers.eml"
{ printf '%sCc: a@b' "$head"; yes ',a@b' | head -n 262000 | tr -d '\n'
  printf '\n\nhi\n'; } >"$tmp/addresses.eml"
{ printf '%sContent-Type: text/html\n\n' "$head"
  yes '<p a=b c=d>x' | head -n 80000; } >"$tmp/html.eml"
{ printf '%s\n' "$head"; yes 'a line of an ordinary email, and then some more' |
  head -n 21800; } >"$tmp/text.eml"

# cost NAME [SETTINGS]: pipes NAME.eml in; sets rc, kib, ms.
cost() {
	local out
	out=$("$rusage" "$tmp/$1.eml" "$BUFFERTIME" inbound --config \
		"${2:-$tmp/settings}" 2>"$tmp/err")
	rc=$?
	read -r kib ms <<<"$out"
	echo "$1: $(wc -c <"$tmp/$1.eml") bytes, exit $rc, peak ${kib:-?} KiB," \
		"${ms:-?} ms CPU: $(head -c 200 "$tmp/err")"
}

for f in parts headers addresses html text; do
	size=$(wc -c <"$tmp/$f.eml")
	check "$f.eml is $size bytes, not 1 MiB or a little less" \
		test "$size" -le 1048576 -a "$size" -gt 1000000
done

cost small
expect_rc "a small email not for us" 67
cost small   # again: the first made the database
expect_rc "a small email not for us, again" 67
base=$kib
sanitized=0
if ldd "$BUFFERTIME" 2>/dev/null | grep -q 'libasan'; then sanitized=1; fi

# over NAME REASON: refused unread, within 8 MiB of the small one
over() {
	cost "$1"
	expect_rc "$1: refused" 65
	expect_err "$1: the reason" "unreadable: $2"
	check "$1: peak $kib KiB, more than 8 MiB over a small email's $base" \
		test "$((kib - base))" -le 8192
}
over parts 'the message has too many MIME parts: more than 256 lines start with "--"$'
over headers 'the message has too many header fields: more than 2000$'
over addresses 'the address fields are too long: more than 8192 bytes$'

cost html
expect_rc "html: read, no token" 67
bound=12288
[ "$sanitized" = 1 ] && bound=24576
check "html: peak $kib KiB, more than $bound KiB over a small email's $base" \
	test "$((kib - base))" -le "$bound"

cost text
expect_rc "text: read, no token" 67

cp "$tmp/settings" "$tmp/tight"
echo 'inbound_memory_mb = 2' >>"$tmp/tight"
cost small "$tmp/tight"
if [ "$sanitized" = 1 ]; then
	expect_rc "a sanitizer build sets no memory limit" 67
else
	expect_rc "2 MB of memory is too little to take an email in" 75
	expect_err "2 MB: the reason" "out of memory|could not read the message"
fi

finish
