#!/bin/bash
# mailkill.sh - the outbox under fire: 1,000 random moves are played
# through store_append with compose_move (tests/maildrive, the web's
# path) in 3-seat games whose seats all want every email, while
# `buffertime worker` runs as a daemon and is killed with SIGKILL at
# random moments (every 50 to 400 ms, longer while lives deliver nothing;
# its pid only, as a crash of the daemon would) and started again, until the moves are played and the
# outbox is empty (each new mailer first makes every queued email due,
# so it is busy when it dies).  Then a last round (admin mail retry all;
# mailer --once), and the count:
#   lost        emails queued by a committed move that never arrived,
#               or outbox rows not marked sent: must be 0;
#   duplicates  Message-IDs delivered more than once: must be 0 too.  A
#               kill after sendmail delivered and before the "sent" mark
#               committed used to send the email again; now the email's
#               courier (mailer.h) outlives the mailer and makes the mark
#               itself (counted as "marked by a courier" from the log),
#               and the next mailer waits for it;
#   the outbox holds exactly the emails the committed moves queued.
# Delivery is through bench/fake_sendmail (5 ms per email, as a real one
# takes; it renames the message into the folder as its last act), so a
# message is either delivered whole or not at all.  On PostgreSQL, where
# hosts each have their own, every other life of the mailer writes with
# --mail-dir instead, into the same folder under names of its own: an
# email written one way and again the other is a duplicate, as a second
# host's folder would hold a second copy (a kill after a folder's write
# and before its mark used to do that).  MAILKILL_MOVES
# (1000), MAILKILL_SEED, MAILKILL_PAUSE_MS (5, between moves) and
# MAILKILL_SENDMAIL_MS (5) change the run.  BT_TEST_ENGINE=postgres: on
# a PostgreSQL server (testlib.sh).
# shellcheck disable=SC2317  # cleanup runs from the EXIT trap
set -u
LC_ALL=C   # sort and comm agree on the order
export LC_ALL

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
unset BUFFERTIME_DB BUFFERTIME_NOW

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-mailkill.XXXXXX") || exit 1
mailer=
driver=
cleanup() {
	for p in $mailer $driver; do
		kill -KILL "$p" 2>/dev/null
	done
	db_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"

build=$(dirname "$BUFFERTIME")
drive=$build/tests/maildrive
fake=$build/bench/fake_sendmail
for p in "$drive" "$fake"; do
	[ -x "$p" ] || { echo "FAIL: $p is not built (make check builds it)"; exit 1; }
done
moves=${MAILKILL_MOVES:-1000}
pause_ms=${MAILKILL_PAUSE_MS:-5}   # between moves: the moves last ~15 s
seed=${MAILKILL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}

engine_init
db_new db "$tmp/games.db"
key=$tmp/server.key
head -c 32 /dev/urandom >"$key" && chmod 600 "$key"
FAKE_MAIL_DIR=$tmp/out
FAKE_SENDMAIL_DELAY_MS=${MAILKILL_SENDMAIL_MS:-5}   # as a real sendmail takes
export FAKE_MAIL_DIR FAKE_SENDMAIL_DELAY_MS
mkdir "$FAKE_MAIL_DIR"
set -- --db "$db" --key-file "$key" --base-url http://bt.example/ \
	--mail-from bt@mail.example.org --review-rollouts 20
by_sendmail=(--sendmail "$fake -t -i")
by_folder=(--mail-dir "$FAKE_MAIL_DIR")

# (The games' reviews, done after the emails, get a small budget: the
# emails are this test's subject.)
# The database exists (migrated) before the two start at once.
timeout 30 "$BUFFERTIME" admin --db "$db" list >/dev/null ||
	not_ok "creating the database"

"$drive" play "$db" "$key" http://bt.example/ "$moves" "$seed" "$pause_ms" \
	>"$tmp/drive.out" 2>"$tmp/drive.err" &
driver=$!

# A random pause of 50 ms up to the ceiling.  The ceiling starts at
# 400 ms, doubles (to 6.4 s at most) after each life that delivered
# nothing and halves (to 400 ms) after one that delivered some: a
# sanitized mailer beside tests that take both cores may need more than
# 400 ms to start and send, and then no life would ever deliver.
ceiling=400
widest=400
pause() {
	ms=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % (ceiling - 50) + 50 ))
	sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
}

# queued: how many emails wait in the outbox (due or not).
queued_now() {
	timeout 30 "$BUFFERTIME" admin --db "$db" mail list | awk 'NR > 1' | wc -l
}

# Kill and restart while moves are played and until the outbox is empty:
# each new mailer first makes everything due (what a killed one claimed
# would otherwise wait a minute), so it always has work when it dies.
# The run's length depends on the machine (a sanitizer build under load
# takes several times as long), so the loop is bounded by progress, not
# by the clock: it fails when no email has been delivered for 60 s.
delivered_now() {
	find "$FAKE_MAIL_DIR" -maxdepth 1 -name '*.eml' | wc -l
}
kills=0
lives=0
started=$(date +%s)
last_count=0
last_change=$(date +%s)
while kill -0 "$driver" 2>/dev/null || [ "$(queued_now)" -gt 0 ]; do
	timeout 30 "$BUFFERTIME" admin --db "$db" mail retry all >/dev/null
	if [ "$test_engine" = sqlite ] || [ $((lives % 2)) = 0 ]; then
		"$BUFFERTIME" worker "$@" "${by_sendmail[@]}" --poll 1 \
			2>>"$tmp/mailer.err" &
	else
		"$BUFFERTIME" worker "$@" "${by_folder[@]}" --poll 1 \
			2>>"$tmp/mailer.err" &
	fi
	mailer=$!
	lives=$((lives + 1))
	pause
	kill -KILL "$mailer" 2>/dev/null && kills=$((kills + 1))
	wait "$mailer" 2>/dev/null
	mailer=
	count=$(delivered_now)
	if [ "$count" -ne "$last_count" ]; then
		[ "$ceiling" -le 400 ] || ceiling=$((ceiling / 2))
		last_count=$count
		last_change=$(date +%s)
	else
		[ "$ceiling" -ge 6400 ] || ceiling=$((ceiling * 2))
		[ "$ceiling" -le "$widest" ] || widest=$ceiling
	fi
	if [ "$count" -eq "$last_count" ] && [ $(( $(date +%s) - last_change )) -gt 60 ]; then
		not_ok "no email was delivered for 60 s ($count so far, $kills kills)"
		break
	fi
done
wait "$driver"
rc=$?
driver=
check "maildrive failed: $(cat "$tmp/drive.err")" [ "$rc" -eq 0 ]
read -r _ played _ queued _ games <"$tmp/drive.out"
check "moves played: ${played:-none}" [ "${played:-0}" -eq "$moves" ]

# Drain: whatever a killed mailer claimed waits for its backoff; make it
# due now and send everything.
timeout 30 "$BUFFERTIME" admin --db "$db" mail retry all >/dev/null
timeout 60 "$BUFFERTIME" worker "$@" "${by_sendmail[@]}" --once \
	2>>"$tmp/mailer.err"
check "the draining round failed" [ $? -eq 0 ]
timeout 30 "$BUFFERTIME" admin --db "$db" mail list --all >"$tmp/rows"
rows=$(awk 'NR > 1' "$tmp/rows" | wc -l)
unsent=$(awk 'NR > 1 && $2 != "sent"' "$tmp/rows" | wc -l)
check "the outbox holds $rows emails, the moves queued ${queued:-?}" \
	[ "$rows" -eq "${queued:-0}" ]
check "the moves queued no email" [ "${queued:-0}" -gt 0 ]

# Every row's Message-ID among the delivered files.
ids=$tmp/ids
find "$FAKE_MAIL_DIR" -maxdepth 1 -name '*.eml' -exec grep -h '^Message-ID: ' {} + |
	sed 's/^Message-ID: <bt\.\([0-9]*\)\..*/\1/' | sort >"$ids"
delivered=$(wc -l <"$ids")
awk 'NR > 1 { print $1 }' "$tmp/rows" | sort >"$tmp/row_ids"
lost=$(sort -u "$ids" | comm -13 - "$tmp/row_ids" | wc -l)
unknown=$(sort -u "$ids" | comm -23 - "$tmp/row_ids" | wc -l)
dups=$(uniq -d "$ids" | wc -l)
interrupted=$(find "$FAKE_MAIL_DIR" -maxdepth 1 -name '.tmp*' | wc -l)
couriers=$(grep -c 'by its courier' "$tmp/mailer.err")
unmarked=$(grep -c 'its courier c' "$tmp/mailer.err")

echo "moves $played in $games games, emails queued $queued, mailer kills $kills," \
	"pauses up to $widest ms, $(( $(date +%s) - started )) s"
echo "delivered $delivered, lost $lost, duplicates $dups, not marked sent" \
	"$unsent, marked by a courier $couriers, sends cut short by a kill" \
	"$interrupted"
check "$lost emails were lost" [ "$lost" -eq 0 ]
check "$dups emails were delivered twice ($kills kills)" [ "$dups" -eq 0 ]
check "$unsent emails were not marked sent" [ "$unsent" -eq 0 ]
check "$unknown emails came from nowhere" [ "$unknown" -eq 0 ]
check "a courier could not mark: $(grep 'its courier c' "$tmp/mailer.err" | head -n 1)" \
	[ "$unmarked" -eq 0 ]
check "the mailer was never killed" [ "$kills" -gt 0 ]
# A worker killed as soon as it started its notifier (buffertime-notify)
# must not leave it behind, running on without it.
for _ in $(seq 50); do
	pgrep -f -- "--key-file $key" >/dev/null || break
	sleep 0.1
done
check "no notifier outlived its worker: $(pgrep -af -- "--key-file $key" | head -n 1)" \
	sh -c '! pgrep -f -- "--key-file $1" >/dev/null' _ "$key"

finish
