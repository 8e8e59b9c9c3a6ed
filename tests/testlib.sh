# shellcheck shell=sh disable=SC2154
# testlib.sh - what the shell tests share, sourced after they set $tmp:
# counting results, one-line checks, and running the buffertime tool with
# a time limit.  Each test ends with `finish`, whose last line is the
# plain "N passed, M failed" that CI reads.

pass=0
fail=0

ok() {
	pass=$((pass + 1))
}

not_ok() {
	fail=$((fail + 1))
	echo "FAIL: $*"
}

# check NAME COMMAND...: one test that passes if COMMAND succeeds; NAME
# says what went wrong when it does not.
check() {
	name_=$1
	shift
	if "$@"; then
		ok
	else
		not_ok "$name_"
	fi
}

# run ARGS...: runs the tool with a time limit; stdout in $tmp/out,
# stderr in $tmp/err, exit status in $rc.
run() {
	timeout 30 "$BUFFERTIME" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# expect_rc NAME WANT: checks $rc; a crash (signal) or a timeout is
# always a failure, with its stderr shown.
expect_rc() {
	if [ "$rc" -eq "$2" ]; then
		ok
		return 0
	fi
	if [ "$rc" -gt 128 ] || [ "$rc" -eq 124 ]; then
		not_ok "$1: crashed or timed out (exit $rc)"
	else
		not_ok "$1: exit $rc, want $2"
	fi
	head -c 2000 "$tmp/err"
	return 1
}

# expect_err NAME REGEX: the first stderr line matches the extended regex.
expect_err() {
	if head -n 1 "$tmp/err" | grep -Eq -- "$2"; then
		ok
	else
		not_ok "$1: stderr '$(head -c 300 "$tmp/err")' does not match '$2'"
	fi
}

# free_port: a port of 127.0.0.1 that can be bound now, never 8080 (a
# start's default), from below the kernel's ephemeral range: a port
# drawn from inside it may be any client connection's local port
# meanwhile, which no connect test sees and which a listener cannot take.
free_port() {
	local p low=32768 high
	read -r low high </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
	[ "$low" -gt 11000 ] 2>/dev/null || low=32768
	for _ in $(seq 50); do
		p=$((10000 + (RANDOM * 32768 + RANDOM) % (low - 10000)))
		[ "$p" != 8080 ] || continue
		if python3 -c 'import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))' "$p" 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# finish: the closing line, and the exit status.
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
