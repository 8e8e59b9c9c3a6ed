#!/usr/bin/env bash
# browser.sh - the pages in a real browser: Debian's chromium, headless,
# driven by playwright-core (tests/browser/play.mjs) against nginx and
# buffertime.fcgi started as in tests/web.sh.  Two seats play several
# turns from two browser contexts, a Sensor Sweep among them, then use
# the table talk, the history, the settings, My games and the spectator's
# link; a rigged game's last move comes from a browser with JavaScript
# off while another seat's open table must show it by itself (live.js).
# There must be no console error, no CSP violation, no failed request, no
# page wider than the window, and every page the browser received must be
# valid HTML5 (tidy, errors and warnings).
# Full-page screenshots of every page at phone (390x844) and desktop
# (1280x800) widths (axe-PAGE-WIDTH.png), and the pages' HTML, are kept in
# tests/browser-out/ of the current (build) folder, or $BROWSER_OUT.
#
# axe-core checks every page, at both widths, inside the browser: any
# accessibility violation fails.
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR,
# TESTDATA as for web.sh.  playwright-core and axe-core (the versions
# pinned in tests/browser/package-lock.json) are installed with npm, once,
# into $BT_NODE_CACHE (default ~/.cache/buffertime/browser-HASH, HASH from
# the lock file); the source tree is never written.  Works with Debian
# 12's node 18.  Skips (77) if chromium, node 18 or newer, npm or the
# npm packages cannot be had, or nginx is missing (scripts/test counts
# a skip as a failure).
# Prints one line per check and last "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/browserlib.sh
. "$(dirname "$0")/browserlib.sh"
command -v tidy >/dev/null 2>&1 || skip "tidy is not installed"

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

# ---- the servers ----------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-browser.XXXXXX") || exit 1
run=$tmp/run
trap 'bash "$SRCDIR/scripts/web" down "$run" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

if ! url=$(bash "$SRCDIR/scripts/web" up "$run" --fcgi "$BUFFERTIME_FCGI" \
	--templates "$SRCDIR/templates" --www "$SRCDIR/www" --wait 30 \
	--set games_per_hour=0 --set bot_wait=0 2>"$tmp/up.err"); then
	cat "$tmp/up.err"
	not_ok "scripts/web up"
	finish
fi
ok

out=${BROWSER_OUT:-$PWD/tests/browser-out}
rm -rf "$out"
mkdir -p "$out/html" || { not_ok "cannot create $out"; finish; }

# ---- the browser ------------------------------------------------------------
BASE_URL=$url OUT_DIR=$out NODE_DEPS=$deps CHROMIUM=$chromium \
	DB=$run/data/buffertime.db KEY_FILE=$run/data/server.key \
	BUFFERTIME=$BUFFERTIME RIGGED=${TESTDATA:-$SRCDIR/tests/data}/web-rigged.rec \
	timeout 500 node "$src/play.mjs" >"$tmp/play.out" 2>&1
rc=$?
cat "$tmp/play.out"
p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/play.out")
f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/play.out")
pass=$((pass + ${p:-0}))
fail=$((fail + ${f:-0}))
if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
	not_ok "play.mjs exited with $rc"
fi

# The error pages the browser did not meet, for the validator too.
curl -s --max-time 10 -o "$out/html/error-403.html" "${url}g/AAAAAAAAAAAAAAAAAAAAAA"
curl -s --max-time 10 -o "$out/html/error-404.html" "${url}no-such-page"
curl -s --max-time 10 -o "$out/html/error-400.html" -d 'players=9' "${url}new"

# axe's screenshots: 15 pages or more, each at both widths.
n=$(find "$out" -name 'axe-*.png' | wc -l)
if [ "$n" -ge 30 ]; then ok; else not_ok "only $n axe screenshots in $out"; fi

# ---- every page the browser got is valid HTML5 --------------------------
# tidy knows HTML5: any warning or error it prints fails, with its lines,
# but for what Debian 12's tidy 5.6 does not know yet and HTML does
# allow (tidy_ok, one pattern a line).  Only the pages' own markup is
# checked (no fixing, no output).
tidy_ok='proprietary attribute "inputmode"'
pages=0
for h in "$out"/html/*.html; do
	[ -f "$h" ] || continue
	pages=$((pages + 1))
	msg=$(tidy -q -e -utf8 --show-warnings yes --show-info no \
		--drop-empty-elements no --drop-empty-paras no "$h" 2>&1 |
		grep -v -e "$tidy_ok")
	if [ -z "$msg" ]; then
		ok
	else
		not_ok "$(basename "$h") is not valid HTML (tidy):"
		printf '%s\n' "$msg" | head -n 20 | sed 's/^/    /'
	fi
done
if [ "$pages" -ge 5 ]; then ok; else not_ok "only $pages pages were checked"; fi
echo "screenshots and pages: $out"
finish
