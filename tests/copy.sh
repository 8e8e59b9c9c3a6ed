#!/usr/bin/env bash
# copy.sh - moving an instance: `buffertime admin copy --to` from a
# SQLite file to a PostgreSQL server (a throwaway one, tests/pg-cluster.sh)
# and back to a new file.  The games are made and played by the tool and
# the worker (bots to the end, a practice table whose bot moves first,
# so that its person has hints and an email, a game waiting for a
# person, emails, reviews, a blocked address); after each
# copy every game's record (`admin export --force`) must be the same
# bytes on both sides, and the copy's own check must pass.  A copy into
# a database that holds games, or from a table it does not know, is
# refused and changes nothing.  No PostgreSQL server is a failure.
#
# Environment (set by "make check"): BUFFERTIME, the built tool.
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
unset BUFFERTIME_DB BUFFERTIME_NOW

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/testlib.sh
. "$here/testlib.sh"
# shellcheck source=tests/pg-cluster.sh
. "$here/pg-cluster.sh"

# short (a socket's path is), and searchable by the server's user
tmp=$(mktemp -d /tmp/bt-copy.XXXXXX) || exit 1
chmod 711 "$tmp"
trap 'pg_cluster_stop "$tmp/pg"; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

if ! pg_cluster_start "$tmp/pg" >/dev/null; then
	echo "FAIL: no PostgreSQL server to copy to"
	exit 1
fi
pg=$BT_PG_URL
file=$tmp/games.db
back=$tmp/back.db

adm() {
	local db=$1
	shift
	timeout 60 "$BUFFERTIME" admin --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"
}

# play DB: the worker's rounds until nothing is due (bots, reviews,
# hints, the emails as files).
play() {
	timeout 120 "$BUFFERTIME" worker --db "$1" --key-file "$tmp/key" \
		--mail-dir "$tmp/mail" --base-url http://games.example/ \
		--bot-rollouts 4 --review-rollouts 4 --once \
		>"$tmp/worker.out" 2>&1
}

# exports DB OUT: every game's record, in the list's order, into OUT.
exports() {
	local id
	: >"$2"
	adm "$1" list || return 1
	for id in $(awk 'NR > 1 { print $1 }' "$tmp/out"); do
		adm "$1" export "$id" --force || return 1
		{ echo "== $id"; cat "$tmp/out"; } >>"$2"
	done
}

head -c 32 /dev/urandom >"$tmp/key"
chmod 600 "$tmp/key"
mkdir "$tmp/mail"

# ---- a small instance on a file --------------------------------------------
check "a game of bots" adm "$file" create --players 3 --name Ann --bot 1 \
	--name Bo --bot 2 --name Cy --bot 3
check "a practice table, the bot first" adm "$file" create --players 2 --first 2 --practice \
	--name Di --email di@example.org --name Ed --bot 2
check "a game waiting for a person" adm "$file" create --players 2 \
	--name "Fay \"F\" O'Neil" --email fay@example.org --name Gus \
	--email gus@example.org
check "a blocked address" adm "$file" mail block stranger@example.org
check "the worker plays the bots, reviews, writes hints and emails" play "$file"
count() {
	sqlite3 -batch "$file" "SELECT count(*) FROM $1"
}
for t in actions outbox jobs review_moves hints blocked; do
	check "the file has rows in $t ($(count "$t"))" test "$(count "$t")" -gt 0
done
check "exports from the file" exports "$file" "$tmp/file.txt"

# ---- to PostgreSQL -----------------------------------------------------------
if adm "$file" copy --to "$pg"; then ok; else
	not_ok "copy to PostgreSQL: $(cat "$tmp/err")"
fi
check "the copy says it checked itself" grep -q '^ok: the copy is checked' "$tmp/out"
check "it names every table's rows" grep -q '^same    actions .* rows$' "$tmp/out"
check "admin check on the server" adm "$pg" check
check "exports from the server" exports "$pg" "$tmp/pg.txt"
check "every record is the same on the server" cmp -s "$tmp/file.txt" "$tmp/pg.txt"

# the server's copy goes on: its ids after the copied ones
check "a new game on the server" adm "$pg" create --players 2 --name Hal \
	--bot 1 --name Ida --bot 2
check "the worker plays it on the server" play "$pg"
check "admin check after playing on the server" adm "$pg" check
check "exports from the server again" exports "$pg" "$tmp/pg2.txt"

# ---- refusals ------------------------------------------------------------------
before=$(sha256sum <"$file")
if adm "$pg" copy --to "$file"; then
	not_ok "a copy into a file that holds games was accepted"
else
	check "a copy into a file with games says why" grep -q 'not empty' "$tmp/err"
fi
check "the refused copy left the file as it was" test "$(sha256sum <"$file")" = "$before"
odd=$tmp/odd.db
adm "$odd" list && sqlite3 -batch "$odd" "CREATE TABLE notes (x TEXT)"
if adm "$odd" copy --to "$tmp/odd-copy.db"; then
	not_ok "a copy of a table it does not know was accepted"
else
	check "a copy of an unknown table says so" grep -q 'does not know (notes)' "$tmp/err"
fi
# a column the schema never had, named to break out of its quotes
odd=$tmp/odd-column.db
adm "$odd" list && sqlite3 -batch "$odd" "ALTER TABLE blocked ADD COLUMN \"x\"\") VALUES (1); --\" TEXT;
	INSERT INTO blocked (address, created, how) VALUES ('a@example.org', 1, 'admin')"
if adm "$odd" copy --to "$tmp/odd-column-copy.db"; then
	not_ok "a copy of a column it does not know was accepted"
else
	check "a copy of an unknown column says so: $(cat "$tmp/err")" \
		grep -q 'blocked: a column the copy does not know' "$tmp/err"
fi

# ---- and back to a new file ------------------------------------------------------
if adm "$pg" copy --to "$back"; then ok; else
	not_ok "copy back to a file: $(cat "$tmp/err")"
fi
check "admin check on the file copied back" adm "$back" check
check "exports from the file copied back" exports "$back" "$tmp/back.txt"
check "every record is the same back on a file" cmp -s "$tmp/pg2.txt" "$tmp/back.txt"
check "the file copied back takes new games" adm "$back" create --players 2 \
	--name Jo --bot 1 --name Kim --bot 2
check "and plays them" play "$back"
finish
