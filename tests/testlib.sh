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

# finish: the closing line, and the exit status.
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
