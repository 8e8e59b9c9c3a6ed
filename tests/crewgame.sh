#!/usr/bin/env bash
# crewgame.sh - a whole crew's game in a real browser: Debian's chromium,
# headless, driven by playwright-core (tests/browser/crew.mjs) against
# nginx, buffertime.fcgi and the worker (`buffertime worker`, writing each
# email as a file *.eml into a folder), as scripts/web starts them.
#
# Four seats made with the new-game form: Ann on a phone (390x844, touch),
# Ben on a desktop (1280x800), Cy by email only (she answers her turn
# emails through `buffertime inbound`, never opening a page) and a bot
# that talks at the table.  They play the game to its end; on the way
# Ann takes a move back at 390 px, and the first screen after a move is
# kept as a screenshot.  Then a game that can no longer be won
# (tests/data/out-of-reach.rec, imported) says so at both widths.
# axe-core checks the pages; no console error, CSP violation or failed
# request may happen.  Screenshots go to tests/crewgame-out/ of the
# current (build) folder, or $BROWSER_OUT.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR,
# TESTDATA.  The npm packages as tests/browser.sh has them (the same
# $BT_NODE_CACHE).  Skips (77) only if chromium, node 18 or newer, npm,
# the npm packages, nginx or sqlite3 cannot be had (scripts/test counts
# a skip as a failure).  Prints one line per check and last
# "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/browserlib.sh
. "$(dirname "$0")/browserlib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed"

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

# ---- the servers and the worker ------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-crewgame.XXXXXX") || exit 1
run=$tmp/run
maildir=$tmp/mail
trap 'bash "$SRCDIR/scripts/web" down "$run" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# Cy answers by email (reply_address); the bot moves at once (bot_wait),
# and a moved seat's emails are not held for a take-back (take_back_grace).
if ! url=$(bash "$SRCDIR/scripts/web" up "$run" --fcgi "$BUFFERTIME_FCGI" \
	--templates "$SRCDIR/templates" --www "$SRCDIR/www" --wait 30 \
	--mailer "$maildir" --mail-poll 1 --set games_per_hour=0 \
	--set reply_address=play@bt.example --set bot_rollouts=300 \
	--set take_back_grace=0 --set bot_wait=0 2>"$tmp/up.err"); then
	cat "$tmp/up.err"
	not_ok "scripts/web up"
	finish
fi
ok

out=${BROWSER_OUT:-$PWD/tests/crewgame-out}
rm -rf "$out"
mkdir -p "$out" || { not_ok "cannot create $out"; finish; }

# ---- the browser ------------------------------------------------------------
BASE_URL=$url OUT_DIR=$out NODE_DEPS=$deps CHROMIUM=$chromium \
	DB=$run/data/buffertime.db KEY_FILE=$run/data/server.key \
	CONFIG=$run/buffertime.conf MAIL_DIR=$maildir BUFFERTIME=$BUFFERTIME \
	OUT_OF_REACH=${TESTDATA:-$SRCDIR/tests/data}/out-of-reach.rec \
	timeout 400 node "$src/crew.mjs" >"$tmp/crew.out" 2>&1
rc=$?
cat "$tmp/crew.out"
p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/crew.out")
f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/crew.out")
pass=$((pass + ${p:-0}))
fail=$((fail + ${f:-0}))
if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
	not_ok "crew.mjs exited with $rc"
fi

# What the servers wrote to their logs about the game, if anything failed.
if [ "$fail" -ne 0 ]; then
	for log in "$run"/log/fcgi.log "$run"/log/worker.log "$run"/log/nginx-error.log; do
		[ -s "$log" ] && { echo "--- $log (last lines)"; tail -n 20 "$log"; }
	done
fi
check "the store checks after the game" "$BUFFERTIME" admin --db "$run/data/buffertime.db" check
echo "screenshots: $out"
finish
