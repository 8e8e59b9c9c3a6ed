#!/usr/bin/env bash
# install.sh - `make install` as a self-hoster runs it, for real.
#
# Configures the source tree with --prefix=/usr --sysconfdir=/etc
# --localstatedir=/var in a scratch build folder, builds, and installs with
# DESTDIR into a scratch root.  Checks the layout: the programs, every
# template and static file of the tree, README.md and the example
# configurations (no placeholder left; every path of ours they name is
# installed; the database path matches the units' StateDirectory; the
# systemd units pass `systemd-analyze verify`).  Then runs the installed
# programs: buffertime.fcgi with the installed templates and static files
# behind nginx (scripts/web), with the installed mailer writing to a
# folder; and, the way the examples set it up, the example nginx site
# (TLS with a certificate made here, the /buffertime/ prefix) in front of
# buffertime.fcgi started by socket activation on the example settings
# file, a game created over https and its link opened from the email the
# mailer wrote.  Last, `make uninstall` must leave no file behind.
#
# Environment (set by "make check"): SRCDIR, the source tree (configured
# out of tree, as scripts/start and scripts/test do); BUFFERTIME and
# BUFFERTIME_FCGI are not used (the test builds its own, with other
# folders).  Skips (77) if nginx or curl is missing, or if the source tree
# was configured in place (a second configure would be refused).  The TLS
# part needs openssl, the units' check systemd-analyze, socket activation
# systemd-socket-activate; each is skipped, with a note, without them.
# Prints one line per failure and last "N passed, M failed".
# shellcheck disable=SC2016,SC2317  # sh -c '...' gets its values as
# arguments; cleanup runs from the EXIT trap.
set -u

: "${SRCDIR:?set SRCDIR to the source tree}"
SRCDIR=$(cd "$SRCDIR" && pwd)
unset BUFFERTIME_DB BUFFERTIME_NOW BUFFERTIME_SENDMAIL
# A make of its own, not a sub-make of `make check`'s.
unset MAKEFLAGS MFLAGS MAKELEVEL

nginx=$(command -v nginx || true)
[ -n "$nginx" ] || [ ! -x /usr/sbin/nginx ] || nginx=/usr/sbin/nginx
if [ -z "$nginx" ] || ! command -v curl >/dev/null 2>&1; then
	echo "SKIP: nginx or curl is not installed (scripts/install-deps installs them)"
	exit 77
fi
if [ -f "$SRCDIR/config.status" ]; then
	echo "SKIP: $SRCDIR is configured in place; build out of tree to run this test"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-install.XXXXXX") || exit 1
run=$tmp/run
sessions=()
cleanup() {
	local p
	# The test's own shell only: a subshell that a signal reaches before
	# it drops the traps runs them, and must not stop the servers and
	# remove the folder while the test goes on (seen once in CI).
	[ "$BASHPID" = "$$" ] || return 0
	bash "$SRCDIR/scripts/web" down "$run" >/dev/null 2>&1 ||
		echo "FAIL: could not stop the servers of $run"
	# The processes this test started itself, each in a session of its
	# own (setsid): its process group has the leader's id.
	for p in "${sessions[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null || true
	done
	for p in "${sessions[@]}"; do
		for _ in $(seq 50); do
			kill -0 -- "-$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$p" 2>/dev/null || true
	done
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

build=$tmp/build
dest=$tmp/root
bindir=$dest/usr/bin
sbindir=$dest/usr/sbin
pkgdata=$dest/usr/share/buffertime
doc=$dest/usr/share/doc/buffertime
ex=$doc/examples
examples=(buffertime.conf nginx-site.conf buffertime-fcgi.socket
	buffertime-fcgi.service buffertime-worker.service
	buffertime-backup.service buffertime-backup.timer postfix-buffertime.cf
	nginx/buffertime.conf nginx/buffertime-http.conf nginx/buffertime-headers.conf)

# step NAME LOG COMMAND...: one check that runs COMMAND with its output in
# LOG; on failure shows the end of LOG.  Returns COMMAND's status.
step() {
	local name=$1 log=$2
	shift 2
	if "$@" >"$log" 2>&1; then
		ok
		return 0
	fi
	not_ok "$name (the end of $log:)"
	tail -n 30 "$log"
	return 1
}

# ---- configure, build, install ---------------------------------------------
mkdir -p "$build"
# -O0: the test is about where things go, not about speed.
step "configure --prefix=/usr" "$tmp/configure.log" \
	sh -c 'cd "$1" && "$2/configure" --prefix=/usr --sysconfdir=/etc \
		--localstatedir=/var CFLAGS=-O0' sh "$build" "$SRCDIR" || finish
step "make" "$tmp/make.log" make -C "$build" -j"${JOBS:-2}" || finish
step "make install DESTDIR" "$tmp/install.log" \
	make -C "$build" install DESTDIR="$dest" || finish

# ---- the layout --------------------------------------------------------------
for f in "$bindir/buffertime" "$sbindir/buffertime.fcgi"; do
	check "installed and executable: ${f#"$dest"}" test -f "$f" -a -x "$f"
done

# same_files FROM TO WHAT: every file of the tree's folder FROM (but the
# nginx template) is installed, unchanged, in TO.
same_files() {
	local f missing='' n=0
	for f in "$1"/*; do
		[ -f "$f" ] || continue
		case $f in *.in) continue ;; esac
		n=$((n + 1))
		cmp -s "$f" "$2/${f##*/}" || missing="$missing ${f##*/}"
	done
	check "$3: $n in the tree, installed in ${2#"$dest"} (missing or changed:$missing)" \
		test "$n" -gt 0 -a -z "$missing"
}
same_files "$SRCDIR/templates" "$pkgdata/templates" templates
same_files "$SRCDIR/www" "$pkgdata/www" "static files"
check "README.md in ${doc#"$dest"}" cmp -s "$SRCDIR/README.md" "$doc/README.md"

for e in "${examples[@]}"; do
	if [ ! -f "$ex/$e" ]; then
		not_ok "example ${ex#"$dest"}/$e not installed"
		continue
	fi
	ok
	left=$(grep -n '@[A-Za-z_]*@' "$ex/$e")
	check "$e: placeholders left: $left" [ -z "$left" ]
done

# Every path of this package that an example names is installed.
named=$(cd "$ex" && grep -ho '/usr/[a-z]*/\(doc/\)\{0,1\}buffertime[A-Za-z0-9_./-]*' \
	"${examples[@]}" | sed 's|[/.,;]*$||' | sort -u)
check "the examples name the installed programs" grep -q sbin/buffertime.fcgi <<<"$named"
for p in $named; do
	check "${p} (named in an example) is installed" [ -e "$dest$p" ]
done

# The settings, the units and the programs agree on the folders: systemd
# makes /var/lib/buffertime (StateDirectory=buffertime), the programs'
# compiled-in database is there, the units read /etc/buffertime.
conf=$ex/buffertime.conf
check "buffertime.conf: db in /var/lib/buffertime" \
	grep -qx 'db = /var/lib/buffertime/buffertime.db' "$conf"
check "buffertime.conf: the installed templates" \
	grep -qx 'templates = /usr/share/buffertime/templates' "$conf"
check "the tool's default database is /var/lib/buffertime/buffertime.db" \
	sh -c '"$1" admin --help | grep -q "/var/lib/buffertime/buffertime.db"' sh "$bindir/buffertime"
for u in buffertime-fcgi.service buffertime-worker.service buffertime-backup.service; do
	check "$u: StateDirectory=buffertime" grep -qx 'StateDirectory=buffertime' "$ex/$u"
done
for u in buffertime-fcgi.service buffertime-worker.service; do
	check "$u: reads /etc/buffertime/buffertime.conf" \
		grep -q '^ExecStart=.* --config /etc/buffertime/buffertime.conf' "$ex/$u"
done
check "nginx site: the static files of the install" \
	grep -q 'alias /usr/share/buffertime/www/;' "$ex/nginx/buffertime.conf"
# The worker must keep setuid/setgid sendmails working (postdrop, exim4).
check "buffertime-worker.service: no NoNewPrivileges" \
	sh -c '! grep -Eq "^(NoNewPrivileges|SystemCallFilter|RestrictSUIDSGID|PrivateDevices|ProtectKernel[A-Za-z]*|LockPersonality|MemoryDenyWriteExecute|RestrictAddressFamilies)=" "$1"' \
	sh "$ex/buffertime-worker.service"

# systemd's own check of the units, with the programs they start taken
# from the scratch root (it checks that they are executable).
if command -v systemd-analyze >/dev/null 2>&1; then
	mkdir -p "$tmp/units"
	for u in buffertime-fcgi.socket buffertime-fcgi.service \
		buffertime-worker.service buffertime-backup.service \
		buffertime-backup.timer; do
		sed -e "s|^\\(ExecStart=\\)/usr/|\\1$dest/usr/|" \
			-e "s| /usr/bin/buffertime | $dest/usr/bin/buffertime |" \
			"$ex/$u" >"$tmp/units/$u"
	done
	step "systemd-analyze verify the units" "$tmp/verify.log" \
		sh -c 'cd "$1" && systemd-analyze verify --man=no ./*.socket ./*.service ./*.timer' \
		sh "$tmp/units"
	if [ -s "$tmp/verify.log" ]; then
		not_ok "systemd-analyze verify warns:"
		cat "$tmp/verify.log"
	else
		ok
	fi
else
	echo "note: systemd-analyze not found; the units were not verified"
fi

# ---- the installed programs behind nginx (scripts/web) -----------------------
mkdir -p "$tmp/mail"
if url=$(bash "$SRCDIR/scripts/web" up "$run" --fcgi "$sbindir/buffertime.fcgi" \
	--templates "$pkgdata/templates" --www "$pkgdata/www" \
	--prefix /buffertime/ --mailer "$tmp/mail" --mail-poll 1 \
	--buffertime "$bindir/buffertime" 2>"$tmp/up.err"); then
	ok
else
	cat "$tmp/up.err"
	not_ok "scripts/web up with the installed programs"
	finish
fi
code=$(curl -s -o "$tmp/home" -w '%{http_code}' --max-time 10 "$url")
check "installed: home page ($code)" [ "$code" = 200 ]
check "installed: home page has the new-game form" grep -q '<form' "$tmp/home"
code=$(curl -s -o "$tmp/style.css" -w '%{http_code}' --max-time 10 "${url}static/style.css")
check "installed: static/style.css ($code)" [ "$code" = 200 ]
check "installed: static/style.css is the tree's" cmp -s "$tmp/style.css" "$SRCDIR/www/style.css"
check "scripts/web status: all running" sh -c 'bash "$1" status "$2" >/dev/null' \
	sh "$SRCDIR/scripts/web" "$run"

# A game with email addresses: the installed mailer writes the seat
# emails, each with a link that opens the table.
code=$(curl -s -o "$tmp/created" -w '%{http_code}' --max-time 10 \
	--data 'players=2&first=1&name1=Ann&email1=ann%40example.org&minutes1=10&name2=Bob&email2=bob%40example.org&minutes2=20' \
	"${url}new")
check "installed: create a game ($code)" [ "$code" = 200 ]
for _ in $(seq 600); do
	[ "$(find "$tmp/mail" -name '*.eml' | wc -l)" -ge 2 ] && break
	sleep 0.1
done
n=$(find "$tmp/mail" -name '*.eml' | wc -l)
check "installed mailer: 2 seat emails in the folder ($n)" [ "$n" -ge 2 ]
link=$(cat "$tmp/mail"/*.eml 2>/dev/null | grep -o "${url}g/[A-Za-z0-9_-]*?t=[A-Za-z0-9_-]*" | head -n 1)
check "installed mailer: an email holds a seat link" [ -n "$link" ]
if [ -n "$link" ]; then
	code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$link")
	check "installed: the emailed link opens the seat ($code)" [ "$code" = 303 ]
fi
if bash "$SRCDIR/scripts/web" down "$run" 2>"$tmp/down.err"; then
	ok
else
	not_ok "scripts/web down:"
	cat "$tmp/down.err"
fi
check "scripts/web down stopped the worker" [ ! -f "$run/worker.pid" ]

# ---- the example nginx site, over TLS, with socket activation ---------------

# started CMD...: runs CMD in a session of its own, for cleanup to stop.
started() {
	setsid "$@" </dev/null &
	sessions+=("$!")
}

# site_conf: the example nginx site in $d/site.conf, and the snippets it
# includes in $d/, with this machine's ports ($tls, $plain), certificate
# and folders, inside a scratch nginx.conf like Debian's.
site_conf() {
	local f
	# The example, with this machine's ports, certificate and folders.
	for f in nginx-site.conf nginx/buffertime.conf nginx/buffertime-http.conf \
		nginx/buffertime-headers.conf; do
		sed -e "s|listen 443 ssl http2;|listen 127.0.0.1:$tls ssl http2;|" \
			-e "s|listen 80;|listen 127.0.0.1:$plain;|" \
			-e '/listen \[::\]/d' \
			-e "s|/etc/letsencrypt/live/$host/fullchain.pem|$d/cert.pem|" \
			-e "s|/etc/letsencrypt/live/$host/privkey.pem|$d/key.pem|" \
			-e "s|unix:/run/buffertime/fcgi.sock|unix:$sock|" \
			-e "s|/usr/share/buffertime/www/|$pkgdata/www/|" \
			-e "s|include /usr/share/doc/buffertime/examples/nginx/|include $d/|" \
			-e "s|root /var/www/html;|root $d/acme;|" \
			"$ex/$f" >"$d/${f##*/}"
	done
	mv "$d/nginx-site.conf" "$d/site.conf"
	left=$(cd "$d" && grep -n -v '^[[:space:]]*#' site.conf buffertime.conf \
		buffertime-http.conf buffertime-headers.conf |
		grep 'letsencrypt\|/run/buffertime\|listen 443\|listen 80;\|listen \[\|/var/www\|alias /usr\|include /usr')
	# Debian's nginx.conf around it: its mime.types, or the types used.
	local types='types { text/html html; text/css css; image/svg+xml svg; }'
	[ ! -f /etc/nginx/mime.types ] || types='include /etc/nginx/mime.types;'
	{
		[ "$(id -u)" -ne 0 ] || echo "user $(id -un);"
		cat <<-EOF
			worker_processes 1;
			pid $d/nginx.pid;
			error_log $d/nginx-error.log warn;
			events { worker_connections 512; }
			http {
				$types
				default_type application/octet-stream;
				access_log off;
				client_body_temp_path $d/body;
				fastcgi_temp_path $d/fastcgi;
				proxy_temp_path $d/proxy;
				uwsgi_temp_path $d/uwsgi;
				scgi_temp_path $d/scgi;
				include $d/site.conf;
			}
		EOF
	} >"$d/nginx.conf"
}

tls_site() {
	local d=$tmp/tls host=games.example.org tls plain sock base code
	mkdir -p "$d/acme/.well-known/acme-challenge" "$d/data"
	if ! openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$host" \
		-addext "subjectAltName=DNS:$host" -keyout "$d/key.pem" \
		-out "$d/cert.pem" >"$d/openssl.log" 2>&1; then
		not_ok "openssl: a self-signed certificate"
		cat "$d/openssl.log"
		return
	fi
	echo token-for-acme >"$d/acme/.well-known/acme-challenge/t1"
	sock=$d/fcgi.sock

	# Two free ports; another program may take one before nginx binds
	# it, so a start that fails for that is tried again, with others.
	local tries=0 ngx
	while :; do
		tries=$((tries + 1))
		if ! tls=$(free_port) || ! plain=$(free_port) || [ "$tls" = "$plain" ]; then
			not_ok "no free ports"
			return
		fi
		site_conf
		if [ "$tries" = 1 ]; then
			check "nginx site: every machine-specific line found ($left)" [ -z "$left" ]
			step "nginx -t with the example site" "$d/nginx-t.log" \
				"$nginx" -t -p "$d" -e "$d/nginx-error.log" -c "$d/nginx.conf" || return
		fi
		started "$nginx" -p "$d" -e "$d/nginx-error.log" -c "$d/nginx.conf" -g 'daemon off;'
		ngx=${sessions[-1]}
		for _ in $(seq 50); do
			kill -0 "$ngx" 2>/dev/null || break
			timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$tls" 2>/dev/null && break
			sleep 0.1
		done
		kill -0 "$ngx" 2>/dev/null && break
		if [ "$tries" -ge 5 ]; then
			not_ok "nginx with the example site did not start:"
			tail -n 5 "$d/nginx-error.log"
			return
		fi
	done
	base=https://$host:$tls/buffertime/

	# The example settings file as the unit uses it: listen = systemd,
	# the socket made by systemd-socket-activate as systemd would; only
	# the machine's folders and address overridden by flags.  As
	# installed, it asks for an invitation code and has none: the
	# program refuses to start, saying what to set.
	"$sbindir/buffertime.fcgi" --config "$conf" --db "$d/data/buffertime.db" \
		--key-file "$d/data/server.key" --templates "$pkgdata/templates" \
		--base-url "$base" --listen "unix:$sock" >/dev/null 2>"$d/nocode.err"
	check "the example settings, as installed, do not start (no invite_code)" \
		grep -q 'create = code (the default) needs invite_code' "$d/nocode.err"
	cp "$conf" "$d/buffertime.conf"
	echo 'invite_code = friends-only-42' >>"$d/buffertime.conf"
	local fcgi=("$sbindir/buffertime.fcgi" --config "$d/buffertime.conf"
		--db "$d/data/buffertime.db" --key-file "$d/data/server.key"
		--templates "$pkgdata/templates" --base-url "$base")
	if command -v systemd-socket-activate >/dev/null 2>&1; then
		started systemd-socket-activate -l "$sock" "${fcgi[@]}" 2>"$d/fcgi.log"
	else
		echo "note: systemd-socket-activate not found; listen = unix: instead"
		started "${fcgi[@]}" --listen "unix:$sock" 2>"$d/fcgi.log"
	fi

	# curl_tls FILE URL [ARGS...]: an https request that trusts only the
	# certificate made here; prints the status; headers in FILE.h.
	curl_tls() {
		local f=$1 u=$2
		shift 2
		curl -s --cacert "$d/cert.pem" --resolve "$host:$tls:127.0.0.1" \
			--resolve "$host:$plain:127.0.0.1" -D "$f.h" -o "$f" \
			-w '%{http_code}' --max-time 10 "$@" "$u"
	}
	for _ in $(seq 100); do
		code=$(curl_tls "$d/home" "$base")
		case $code in 000|502|503|504) sleep 0.1 ;; *) break ;; esac
	done
	if [ "$code" = 200 ]; then
		ok
	else
		not_ok "TLS site: home page ($code)"
		tail -n 20 "$d/fcgi.log" "$d/nginx-error.log"
	fi
	for h in 'Content-Security-Policy: default-src' 'X-Content-Type-Options: nosniff' \
		'Referrer-Policy: no-referrer' 'X-Frame-Options: DENY' \
		'Strict-Transport-Security: max-age='; do
		check "TLS site: home page header $h" grep -qi "^$h" "$d/home.h"
	done
	code=$(curl_tls "$d/gz" "$base" -H 'Accept-Encoding: gzip')
	check "TLS site: pages are not compressed (BREACH)" \
		sh -c '! grep -qi "^content-encoding" "$1"' sh "$d/gz.h"
	code=$(curl_tls "$d/css" "${base}static/style.css")
	check "TLS site: static/style.css ($code)" [ "$code" = 200 ]
	check "TLS site: static/style.css is the installed one" \
		cmp -s "$d/css" "$pkgdata/www/style.css"
	check "TLS site: static files cached a year" \
		grep -qi '^cache-control: public, max-age=31536000' "$d/css.h"
	check "TLS site: static files keep the CSP" grep -qi '^content-security-policy:' "$d/css.h"
	code=$(curl_tls "$d/x" "https://$host:$tls/buffertime")
	check "TLS site: /buffertime redirects to /buffertime/ ($code)" [ "$code" = 301 ]
	code=$(curl_tls "$d/x" "https://$host:$tls/")
	check "TLS site: / leads to the game ($code)" [ "$code" = 302 ] &&
		check "TLS site: / leads to /buffertime/" grep -qi '^location: .*/buffertime/' "$d/x.h"
	code=$(curl_tls "$d/x" "https://$host:$tls/elsewhere")
	check "TLS site: nothing outside the prefix ($code)" [ "$code" = 404 ]
	code=$(curl_tls "$d/x" "http://$host:$plain/buffertime/g/x?y=1")
	check "plain http: a redirect to https ($code)" [ "$code" = 301 ] &&
		check "plain http: to the same path" \
			grep -qi "^location: https://$host/buffertime/g/x?y=1" "$d/x.h"
	code=$(curl_tls "$d/x" "http://$host:$plain/.well-known/acme-challenge/t1")
	check "plain http: certbot's webroot challenge ($code)" [ "$code" = 200 ] &&
		check "plain http: the challenge file" grep -qx token-for-acme "$d/x"

	# A game over https, its seat emails written by the installed mailer
	# on the example settings file, and a link from one of them.
	code=$(curl_tls "$d/created" "${base}new" \
		--data 'players=2&first=1&name1=Ann&email1=ann%40example.org&minutes1=10&name2=Bob&email2=bob%40example.org&minutes2=20')
	check "TLS site: no game without the invitation code ($code)" [ "$code" = 403 ]
	code=$(curl_tls "$d/created" "${base}new" \
		--data 'invite=friends-only-42&players=2&first=1&name1=Ann&email1=ann%40example.org&minutes1=10&name2=Bob&email2=bob%40example.org&minutes2=20')
	check "TLS site: create a game with the code ($code)" [ "$code" = 200 ]
	mkdir -p "$d/mail"
	step "the installed worker --once on the example settings" "$d/worker.log" \
		"$bindir/buffertime" worker --config "$conf" --db "$d/data/buffertime.db" \
		--key-file "$d/data/server.key" --base-url "$base" \
		--mail-dir "$d/mail" --once
	link=$(cat "$d/mail"/*.eml 2>/dev/null | grep -o "${base}g/[A-Za-z0-9_-]*?t=[A-Za-z0-9_-]*" | head -n 1)
	check "TLS site: an email holds an https seat link" [ -n "$link" ]
	[ -n "$link" ] || return
	code=$(curl_tls "$d/x" "$link")
	check "TLS site: the emailed link opens the seat ($code)" [ "$code" = 303 ]
	check "TLS site: the seat cookie is Secure" grep -qi '^set-cookie: bt_.*; *secure' "$d/x.h"

	# nginx's limit_req: a burst of new-game posts from one address is
	# cut off by nginx itself (its 429 page, not the program's), and
	# reading pages is not limited at all.
	local codes='' n429=0
	for _ in $(seq 12); do
		codes+=" $(curl_tls "$d/burst" "${base}new" --data 'invite=wrong-code-x')"
	done
	for code in $codes; do
		[ "$code" != 429 ] || n429=$((n429 + 1))
	done
	check "TLS site: nginx answers a burst of 12 new-game posts with 429s ($codes)" \
		[ "$n429" -ge 5 ]
	check "TLS site: ... nginx's own 429, before the program" \
		sh -c '! grep -q "Try again in" "$1"' sh "$d/burst"
	code=$(curl_tls "$d/x" "$base")
	check "TLS site: the home page still opens ($code)" [ "$code" = 200 ]

	# nginx's limit_conn: one address has at most 64 requests in progress.
	# 70 whose body never comes (PUTs, which limit_req does not count;
	# HTTP/1.1, where curl reads a refusal before its body is sent): 64
	# are held, waiting, and nginx answers the others 429 at once.
	local never=$d/never held=() pid n
	mkfifo "$never" && exec 7<>"$never"
	for n in $(seq 70); do
		curl_tls "$d/slow$n" "${base}slow" --http1.1 -X PUT -T "$never" \
			-H 'Content-Type: application/x-www-form-urlencoded' >"$d/slow$n.code" &
		held+=("$!")
	done
	for _ in $(seq 100); do
		n429=$(cat "$d"/slow*.code | grep -o 429 | wc -l)
		[ "$n429" -lt 6 ] || break
		sleep 0.1
	done
	check "TLS site: nginx answers 70 slow requests from one address with 6 429s ($n429)" \
		[ "$n429" = 6 ]
	check "TLS site: ... and logs its limit" \
		grep -q 'limiting connections by zone "bt_conn"' "$d/nginx-error.log"
	code=$(curl_tls "$d/x" "$base")
	check "TLS site: ... still answered a 429 to one more ($code)" [ "$code" = 429 ]
	for pid in "${held[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait "${held[@]}" 2>/dev/null
	exec 7>&-
}
if command -v openssl >/dev/null 2>&1; then
	tls_site
else
	echo "note: openssl not found; the example nginx site was not run"
fi

# ---- uninstall -----------------------------------------------------------------
step "make uninstall DESTDIR" "$tmp/uninstall.log" \
	make -C "$build" uninstall DESTDIR="$dest"
left=$(find "$dest" ! -type d | sed "s|^$dest||")
check "make uninstall leaves no file (left: $left)" [ -z "$left" ]

finish
