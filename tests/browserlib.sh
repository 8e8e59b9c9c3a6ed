# browserlib.sh - what the browser tests (browser.sh, crewgame.sh) share:
# what they need on the machine, and the npm packages.  Source it after
# setting SRCDIR; it sets chromium, src (tests/browser) and deps (the
# folder whose node_modules holds playwright-core and axe-core), or
# skips (77) when something cannot be had (scripts/test counts a skip
# as a failure).
#
# playwright-core and axe-core (the versions pinned in
# tests/browser/package-lock.json) are installed with npm, once, into
# $BT_NODE_CACHE (default ~/.cache/buffertime/browser-HASH, HASH from the
# lock file); the source tree is never written.  Works with Debian 12's
# node 18.

skip() {
	echo "SKIP: $* (scripts/install-deps installs what is missing)"
	exit 77
}

chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || skip "no chromium at $chromium"
command -v node >/dev/null 2>&1 || skip "node is not installed"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$node_major" -ge 18 ] 2>/dev/null || skip "node $node_major: playwright-core needs 18 or newer"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || skip "nginx is not installed"

src=$SRCDIR/tests/browser
lock=$(sha256sum "$src/package-lock.json" | cut -c 1-12)
deps=${BT_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/buffertime/browser-$lock}
if [ ! -f "$deps/node_modules/playwright-core/package.json" ] ||
	[ ! -f "$deps/node_modules/axe-core/axe.min.js" ]; then
	mkdir -p "$deps" || skip "cannot create $deps"
	cp "$src/package.json" "$src/package-lock.json" "$deps/" || skip "cannot write $deps"
	echo "installing playwright-core and axe-core ($lock) into $deps"
	if ! (cd "$deps" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) >"$deps/npm.log" 2>&1; then
		cat "$deps/npm.log"
		rm -rf "$deps/node_modules"
		skip "npm could not install the packages of tests/browser/package-lock.json"
	fi
fi
echo "node $(node --version), playwright-core" \
	"$(node -p "require('$deps/node_modules/playwright-core/package.json').version")," \
	"axe-core $(node -p "require('$deps/node_modules/axe-core/package.json').version")"
