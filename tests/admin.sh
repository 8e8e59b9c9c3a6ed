#!/bin/sh
# admin.sh - drives "buffertime admin" on scratch databases: create, list,
# show, export, import, revoke, backup and check, the errors they give,
# and files that must be refused without being changed (random bytes, a
# database from a newer program).
#
# Environment (set by "make check"): BUFFERTIME, the built tool; TESTDATA,
# the tests/data folder of the source tree (read only).  The records of
# TESTDATA are imported and compared with what "buffertime replay" makes
# of them: the store must agree with the record, byte for byte.
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${TESTDATA:?set TESTDATA to the tests/data folder}"
# Whatever the caller's shell has must not pick the database or the clock.
unset BUFFERTIME_DB BUFFERTIME_NOW

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-admin.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

# run_env VAR=VALUE ARGS...: run with one more environment variable.
run_env() {
	var_=$1
	shift
	timeout 30 env "$var_" "$BUFFERTIME" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# adm ARGS...: "admin" on the main test database.  adm_at TIME ARGS...:
# the same with the store's clock at TIME (unix seconds), so that "list"
# has a known order and known dates.
db=$tmp/games.db
adm() {
	run admin --db "$db" "$@"
}
adm_at() {
	t_=$1
	shift
	run_env "BUFFERTIME_NOW=$t_" admin --db "$db" "$@"
}

# expect_id NAME: stdout is one game id alone on its line; sets $id.
expect_id() {
	id=$(cat "$tmp/out")
	if [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
	   printf '%s\n' "$id" | grep -Eq '^[A-Za-z0-9_-]{22}$'; then
		ok
	else
		not_ok "$1: not a game id alone on a line: '$id'"
	fi
}

# same NAME FILE1 FILE2: the files are equal, byte for byte.
same() {
	if cmp -s "$2" "$3"; then
		ok
	else
		not_ok "$1: $2 and $3 differ"
		diff "$2" "$3" | head -n 6
	fi
}

# lacks NAME REGEX FILE...: no line of the files matches the regex.
lacks() {
	name_=$1
	re_=$2
	shift 2
	if grep -Eqi -- "$re_" "$@"; then
		not_ok "$name_"
	else
		ok
	fi
}

# list_to FILE: saves "admin list" of the main database.
list_to() {
	adm list
	cp "$tmp/out" "$1"
}

cd "$tmp" || exit 1

# ---- create and list ------------------------------------------------------

adm_at 1700000000 create --players 3 --name 'Beckett Mariner' \
	--name 'Brad Boimler' --email mariner@example.org
expect_rc "create --players 3" 0 && expect_id "create --players 3"
id1=$id
adm_at 1700000001 create --players 2 --first 1 --seed 9f86d081884c7d65 \
	--options 'fast'
expect_rc "create with all options" 0 && expect_id "create with all options"
id2=$id
check "create gave the same id twice" [ "$id1" != "$id2" ]

adm list
expect_rc "list" 0
check "list: not a header and two games" [ "$(wc -l <out)" -eq 3 ]
check "list: no header" grep -q '^id  *players  *status  *actions  *created  *updated$' out
check "list: not newest first" [ "$(sed -n 2p out | cut -d' ' -f1)" = "$id2" ]
check "list: second game missing" [ "$(sed -n 3p out | cut -d' ' -f1)" = "$id1" ]
# id, players, status, actions, created, updated
check "list: row of the 3-player game" [ "$(sed -n 3p out | tr -s ' ')" = \
	"$id1 3 playing 0 2023-11-14T22:13:20Z 2023-11-14T22:13:20Z" ]
check "list: row of the 2-player game" [ "$(sed -n 2p out | tr -s ' ')" = \
	"$id2 2 playing 0 2023-11-14T22:13:21Z 2023-11-14T22:13:21Z" ]
cp out list2

# Usage errors: exit 2, and nothing is created (not even the database).
for args in "" "--players" "--players 1" "--players 7" "--players x" \
    "--players 3 --players 3" "--players 3 --first 4" "--players 3 --first 0" \
    "--players 3 --seed xyz" "--players 3 --seed" "--players 3 --bogus 1" \
    "--first 1" "--players 2 --name a --name b --name c" \
    "--players 2 --email a@b.c --email b@c.d --email c@d.e" "--players 2 extra"; do
	# shellcheck disable=SC2086  # the words are the arguments
	run admin --db "$tmp/none.db" create $args
	expect_rc "create $args" 2 && expect_err "create $args" '^buffertime admin create: '
done
check "a usage error created a database" [ ! -e "$tmp/none.db" ]
run admin --db "$tmp/none.db" create --players 2 --seed 0123456789abcdef01234567xyz
lacks "a bad seed was echoed" 0123456789abcdef "$tmp/err"
run admin --db "$tmp/none.db" create --players 3 --name a --name b --name c --name d
expect_rc "4 names for 3 players" 2 && expect_err "4 names for 3 players" '4 names for 3 players'

# An address mail cannot go to is a usage error; the store judges names.
for bad in 'not an email' 'a/b@example.org' '"q"@example.org' 'a@b@example.org'; do
	adm create --players 2 --email "$bad"
	expect_rc "create with the email '$bad'" 2 &&
		expect_err "create with the email '$bad'" 'not a plain name@example.org'
done
adm list
same "a refused create left a game" list2 out

# ---- show and export ------------------------------------------------------

adm export "$id1" --force
expect_rc "export --force" 0
cp out id1.rec
run replay id1.rec
expect_rc "the exported record replays" 0
cp out id1.json
adm show "$id1"
expect_rc "show" 0
same "show differs from replay of the export" id1.json out
run replay --seat 2 id1.rec
cp out id1.seat2.json
adm show --seat 2 "$id1"
expect_rc "show --seat 2" 0
same "show --seat 2 differs from replay --seat 2" id1.seat2.json out
adm show "$id1" --seat 4
expect_rc "show --seat 4 of a 3-player game" 2
adm show "$id1" --seat 7
expect_rc "show --seat 7" 2
check "the names were not kept" grep -q '^name 2 Brad Boimler$' id1.rec

adm export "$id1"
expect_rc "export of a game in play" 0
lacks "a game in play exported its seed" '^seed' out
check "the export lost its header" grep -q '^players 3$' out

# The seed of a game in play is printed by "export --force" only.
adm export "$id2" --force
check "export --force has no seed" grep -q '^seed ' out
for args in "list" "show $id2" "show --seat 1 $id2" "export $id2" "check"; do
	# shellcheck disable=SC2086
	adm $args
	lacks "admin $args printed the seed" 9f86d081884c7d65 out err
done

# ---- import ---------------------------------------------------------------

cd "$TESTDATA" || exit 1
for name in sample example loss; do
	adm import "$name.rec"
	expect_rc "import $name.rec" 0 && expect_id "import $name.rec"
	case $name in
	sample) imp_sample=$id ;;
	example) imp_example=$id ;;
	loss) imp_loss=$id ;;
	esac
	run replay "$name.rec"
	cp "$tmp/out" "$tmp/$name.json"
	adm show "$id"
	expect_rc "show $name" 0
	same "show of imported $name.rec differs from replay" "$tmp/$name.json" "$tmp/out"
	adm export "$id" --force
	expect_rc "export --force $name" 0
	cp "$tmp/out" "$tmp/$name.exp.rec"
	run replay "$tmp/$name.exp.rec"
	expect_rc "replay of exported $name" 0
	same "the export of $name replays differently" "$tmp/$name.json" "$tmp/out"
done
cd "$tmp" || exit 1
adm show --seat 1 "$imp_sample"
same "show --seat 1 of sample" "$TESTDATA/sample.seat1.json" out
adm show --seat 3 "$imp_example"
same "show --seat 3 of example" "$TESTDATA/example.seat3.json" out
adm export "$imp_example"
lacks "a game in play exported its seed" '^seed' out
check "the export of example lost its stack lines" \
	grep -q '^stack shift S23 S01 S02 S03 S04$' out
adm export "$imp_sample"
check "a won game exported no seed" grep -q '^seed d570396c' out
adm export "$imp_loss"
check "a lost game exported no seed" grep -q '^seed ' out

# From standard input, with emails.
run admin --db "$db" import --email a@example.org - <"$TESTDATA/example.rec"
expect_rc "import -" 0 && expect_id "import -"
imp_stdin=$id
adm show "$id"
same "show of a record from stdin" "$tmp/example.json" out
list_to list5

# Refused records: nothing is created.
cd "$TESTDATA" || exit 1
for err in *.err; do
	name=${err%.err}
	adm import "$name.rec"
	expect_rc "import $name.rec" 1
	want=$(cat "$err")
	case "$(head -n 1 "$tmp/err")" in
	"$want "?*)
		ok ;;
	*)
		not_ok "import $name.rec: stderr '$(cat "$tmp/err")', want '$want ...'" ;;
	esac
	check "import $name.rec printed an id" [ ! -s "$tmp/out" ]
done
adm import --email a@b.c --email b@c.d --email c@d.e --email d@e.f example.rec
expect_rc "4 emails for 3 players" 2
adm import --email 'not an email' example.rec
expect_rc "import with a bad email" 2 && expect_err "import with a bad email" 'not a plain name@example.org'
cd "$tmp" || exit 1
head -c 100000 /dev/urandom >random.bin
adm import random.bin
expect_rc "import of random bytes" 1 && expect_err "import of random bytes" '^random\.bin:1: rule R11: '
yes '# a comment' | head -c 9000000 >big.rec
adm import big.rec
expect_rc "import of 9 MB" 1 && expect_err "import of 9 MB" 'larger than'
adm import no-such.rec
expect_rc "import of a missing file" 2
adm import a.rec b.rec
expect_rc "import of two files" 2
adm list
same "a refused import created a game" list5 out

# ---- names lose their hidden characters ----------------------------------
# RIGHT-TO-LEFT OVERRIDE, zero-width space, BOM and the like are dropped
# from names as from table talk, on create and on import (own database).
ndb=$tmp/names.db
hidden=$(printf '\342\200\256\342\200\213\357\273\277')
# no_hidden FILE: FILE holds none of those bytes.
no_hidden() {
	! LC_ALL=C grep -qF -e "$(printf '\342\200\256')" -e "$(printf '\342\200\213')" \
		-e "$(printf '\357\273\277')" "$1"
}
run admin --db "$ndb" create --players 2 --name "Ann${hidden}reD" --name " Bob$hidden"
expect_rc "create with hidden characters in names" 0 && expect_id "create with hidden characters"
run admin --db "$ndb" export --force "$id"
check "create: name 1 without its hidden characters" grep -q '^name 1 AnnreD$' out
check "create: name 2 without its hidden characters" grep -q '^name 2 Bob$' out
check "create: an export holds a hidden character" no_hidden out
run admin --db "$ndb" create --players 2 --name "$hidden" --name Bob
expect_rc "create with a name of hidden characters only" 2 &&
	expect_err "create with a name of hidden characters only" \
		'^buffertime admin create: --name: .*nothing'
sed "s/^name 1 Beckett\$/name 1 Beck${hidden}ett/" "$TESTDATA/example.rec" >hidden.rec
run admin --db "$ndb" import hidden.rec
expect_rc "import with hidden characters in a name" 0 && expect_id "import with hidden characters"
run admin --db "$ndb" export "$id"
check "import: name 1 without its hidden characters" grep -q '^name 1 Beckett$' out
check "import: an export holds a hidden character" no_hidden out
sed "s/^name 1 Beckett\$/name 1 $hidden/" "$TESTDATA/example.rec" >hidden-only.rec
run admin --db "$ndb" list
cp out names-list
run admin --db "$ndb" import hidden-only.rec
expect_rc "import with a name of hidden characters only" 2 &&
	expect_err "import with a name of hidden characters only" \
		'^buffertime admin import: hidden-only\.rec: name 1: .*nothing'
run admin --db "$ndb" list
same "a refused name created a game" names-list out

# ---- game ids -------------------------------------------------------------

for cmd in show export; do
	adm $cmd AAAAAAAAAAAAAAAAAAAAAA
	expect_rc "$cmd of an unknown game" 1 &&
		expect_err "$cmd of an unknown game" '^buffertime admin: not.found: '
	for bad in abc 'AAAAAAAAAAAAAAAAAAAAA!' AAAAAAAAAAAAAAAAAAAAAAA ''; do
		adm $cmd "$bad"
		expect_rc "$cmd '$bad'" 2 && expect_err "$cmd '$bad'" 'not a game id'
	done
	adm $cmd
	expect_rc "$cmd without a game" 2
done
# Ids may begin with '-': such an argument is an id, not an option.
adm show -AAAAAAAAAAAAAAAAAAAAA
expect_rc "show of an id starting with -" 1 && expect_err "show -AAA..." 'not.found'
adm show -- --AAAAAAAAAAAAAAAAAAAA
expect_rc "show -- --AAA..." 1
adm show "$id1" --bogus
expect_rc "show --bogus" 2

# ---- revoke ---------------------------------------------------------------

adm revoke "$id1" 2
expect_rc "revoke" 0
check "first revoke: $(cat out), want 2" [ "$(cat out)" = 2 ]
adm revoke "$id1" 2
check "second revoke: $(cat out), want 3" [ "$(cat out)" = 3 ]
adm revoke "$id1" 1
check "another seat's revoke: $(cat out), want 2" [ "$(cat out)" = 2 ]
adm revoke "$id1" 4
expect_rc "revoke seat 4 of 3" 1 && expect_err "revoke seat 4 of 3" 'not.found'
for args in "$id1 0" "$id1 7" "$id1 x" "$id1" "$id1 1 2" "bad 1"; do
	# shellcheck disable=SC2086
	adm revoke $args
	expect_rc "revoke $args" 2
done
adm revoke AAAAAAAAAAAAAAAAAAAAAA 1
expect_rc "revoke in an unknown game" 1

# ---- check and backup -----------------------------------------------------

adm check
expect_rc "check" 0
check "check of a sound database: '$(cat out)'" [ "$(cat out)" = ok ]
list_to list6

adm backup "$tmp/copy.db"
expect_rc "backup" 0
check "backup printed something" [ ! -s out ]
cp copy.db copy.orig
run admin --db "$tmp/copy.db" check
expect_rc "check of the backup" 0
check "check of the backup: '$(cat out)'" [ "$(cat out)" = ok ]
run admin --db "$tmp/copy.db" list
same "the backup lists other games" list6 out
run admin --db "$tmp/copy.db" show "$imp_sample"
same "show from the backup" "$TESTDATA/sample.json" out
adm backup "$tmp/copy.db"
expect_rc "backup onto an existing file" 1 && expect_err "backup onto a file" 'exists'
same "backup overwrote a file" copy.orig copy.db
adm backup
expect_rc "backup without a file" 2
if [ -w /dev/full ]; then
	timeout 30 "$BUFFERTIME" admin --db "$db" list >/dev/full 2>err
	rc=$?
	expect_rc "list onto a full disk" 1
fi
run admin --db "$tmp/empty.db" list
expect_rc "list of an empty database" 0
check "list of an empty database: not the header alone" [ "$(wc -l <out)" -eq 1 ]

# ---- files that are not our database ------------------------------------

head -c 65536 /dev/urandom >random.db
cp random.db random.orig
run admin --db "$tmp/random.db" list
expect_rc "random bytes as a database" 1 && expect_err "random bytes" 'corrupt'
same "random bytes were changed" random.orig random.db

if command -v sqlite3 >/dev/null 2>&1; then
	run admin --db "$tmp/new.db" create --players 2
	expect_rc "create in a fresh database" 0
	sqlite3 "$tmp/new.db" 'PRAGMA user_version = 999;' >/dev/null
	cp new.db new.orig
	run admin --db "$tmp/new.db" list
	expect_rc "a newer database" 1 && expect_err "a newer database" 'too.new|newer'
	same "a newer database was changed" new.orig new.db
	run admin --db "$tmp/new.db" check
	expect_rc "check of a newer database" 1
	same "check changed a newer database" new.orig new.db

	# What create and import keep of the seats.
	sqlite3 "$db" "SELECT seat, name, email FROM seats WHERE game = '$id1'
	    ORDER BY seat;" >seats
	printf '1|Beckett Mariner|mariner@example.org\n2|Brad Boimler|\n3||\n' >seats.want
	same "the seats of a created game" seats.want seats
	sqlite3 "$db" "SELECT email FROM seats WHERE game = '$imp_stdin'
	    ORDER BY seat;" >seats
	printf 'a@example.org\n\n\n' >seats.want
	same "the emails of an imported game" seats.want seats

	# A game whose history no longer replays: "check" names it.
	cp copy.orig bad.db
	sqlite3 bad.db "INSERT INTO actions (game, seq, seat, line, created)
	    VALUES ('$imp_example',
	    (SELECT seq FROM games WHERE id = '$imp_example'), 1, '1 log', 0);
	    UPDATE games SET seq = seq + 1 WHERE id = '$imp_example';"
	run admin --db "$tmp/bad.db" check
	expect_rc "check of a damaged database" 1 &&
		expect_err "check of a damaged database" '^buffertime admin: corrupt: '
	check "check did not name the damaged game" grep -qF -- "$imp_example" out
	lacks "check said ok" '^ok$' out
	run admin --db "$tmp/bad.db" show "$imp_example"
	expect_rc "show of a damaged game" 1
else
	not_ok "no sqlite3 command (scripts/install-deps installs it): the tests that edit a database did not run"
fi

# ---- which database -------------------------------------------------------

run_env "BUFFERTIME_DB=$tmp/env.db" admin create --players 2
expect_rc "create with BUFFERTIME_DB" 0 && expect_id "create with BUFFERTIME_DB"
env_id=$id
check "BUFFERTIME_DB was not used" [ -f "$tmp/env.db" ]
run_env "BUFFERTIME_DB=$tmp/env.db" admin list
check "BUFFERTIME_DB: game not listed" grep -q "^$env_id " out
run_env "BUFFERTIME_DB=$tmp/env.db" admin --db "$db" list
same "--db does not win over BUFFERTIME_DB" list6 out

# ---- link -----------------------------------------------------------------

run admin --db "$db" create --players 3
expect_rc "create for link" 0 && expect_id "create for link"
link_id=$id
head -c 32 /dev/urandom >"$tmp/server.key" && chmod 600 "$tmp/server.key"
run admin --db "$db" link "$link_id" 2 --key-file "$tmp/server.key" \
	--base-url http://127.0.0.1:8080/play/
expect_rc "link" 0
check "link is not BASE/g/ID?t=TOKEN" \
	grep -Eq "^http://127\.0\.0\.1:8080/play/g/$link_id\?t=[A-Za-z0-9_-]{70,}\$" out
cp out link1
run admin --db "$db" revoke "$link_id" 2
expect_rc "revoke before link" 0
run admin --db "$db" link "$link_id" 2 --key-file "$tmp/server.key" \
	--base-url http://127.0.0.1:8080/play/
check "a revoked seat's link did not change" sh -c '! cmp -s out link1'
run admin --db "$db" link "$link_id" 4 --key-file "$tmp/server.key" \
	--base-url http://127.0.0.1:8080/
expect_rc "link to seat 4 of 3" 1
run admin --db "$db" link "$link_id" 1 --key-file "$tmp/no.key" \
	--base-url http://127.0.0.1:8080/
expect_rc "link without the server's key" 1
check "a key file was made up" [ ! -e "$tmp/no.key" ]
run admin --db "$db" link "$link_id" 1 --key-file "$tmp/server.key" \
	--base-url ftp://x/
expect_rc "link with a bad base URL" 2

# ---- usage ----------------------------------------------------------------

for args in "" "bogus" "--db" "--db $db" "--db $db bogus" "--db $db list x" \
    "--db $db check x" "list --db $db"; do
	# shellcheck disable=SC2086
	run admin $args
	expect_rc "admin $args" 2
done
run admin --help
expect_rc "admin --help" 0
check "admin --help lists no commands" grep -q 'admin .*revoke GAME SEAT' out
run admin --db "$db" create --help
expect_rc "admin create --help" 0

finish
