#!/usr/bin/env bash
# takeback.sh - taking back a move, for real: nginx, buffertime.fcgi and
# the worker on loopback (take_back_grace 40 s, bot_wait 40 s), curl.
#
#   held       Ann plays a Side Project (a move that showed nothing): her
#              table offers "Take back my move", Ben's does not; Ben's
#              turn email waits out the grace, unsent.
#   taken      Ann takes it back: her turn again, the email dropped, the
#              record without the line, the history says "Ann took back
#              a move", `admin check` passes; the same form again is
#              stale and changes nothing.
#   stands     once Ben has moved, Ann's move stands (no form; a POST is
#              refused with the reason), and a draw (work) stands too.
#   the bot    Cy and a bot: the bot's turn waits bot_wait after Cy's
#              quiet move; taking it back removes the bot's turn.
#   then work  Cy works instead, at the same length of history, with the
#              form she had before: her table's last moves say so (not
#              the move taken back), and the page's old tag no longer
#              matches (one FastCGI worker, so that the page it cached
#              is the one asked again).
#
# Environment (set by "make check"): BUFFERTIME, BUFFERTIME_FCGI, SRCDIR.
# Prints one line per failure and last "N passed, M failed".
set -u

: "${BUFFERTIME:?set BUFFERTIME to the buffertime tool}"
: "${BUFFERTIME_FCGI:?set BUFFERTIME_FCGI to buffertime.fcgi}"
: "${SRCDIR:?set SRCDIR to the source tree}"
unset BUFFERTIME_DB BUFFERTIME_NOW

# shellcheck source=tests/testlib.sh
. "$(dirname "$0")/testlib.sh"
# shellcheck source=tests/weblib.sh
. "$(dirname "$0")/weblib.sh"
web_test_start takeback nginx curl sqlite3
seed=5
maildir=$tmp/mail
run=$tmp/run

up "$run" --mailer "$maildir" --mail-poll 1 --set take_back_grace=40 \
	--set bot_wait=40 --workers 1
base=$url
origin=$(origin_of "$base")
db=$run/data/buffertime.db

# take_back_form SEAT: the seat's table has the form (sets form_url and
# form_body); 1 if not.
take_back_form() {
	page "$1"
	form pick '' '/takeback$'
}

# ---- held ----------------------------------------------------------------------
create 1 "Ann:ann%40example.org" "Ben:ben%40example.org" || finish
jar=("" "$tmp/jar1" "$tmp/jar2")
for s in 1 2; do
	req "${jar[$s]}" GET "${links[$s]}"
	expect_code "seat $s opens its link" 303
done
page 1
check "Ann's table has no take-back before her move" \
	sh -c "! grep -q 'Take back my move' '$tmp/b'"
form pick 'action=side' || not_ok "Ann has no Side Project to play"
req "${jar[1]}" POST "$form_url" "$form_body"
expect_code "Ann plays a Side Project" 303
check "the move is in" test "$(lines)" = 1
card=$(sql "SELECT line FROM actions WHERE game = '$game'" | awk '{print $3}')
take_back_form 1 || not_ok "Ann's table offers no take-back after her move"
check "... and says until whom" grep -q 'Until Ben moves, your move can be taken back' "$tmp/b"
saved_url=$form_url saved_body=$form_body
take_back_form 2 && not_ok "Ben's table offers to take back Ann's move"
ok
check "Ben's turn email waits out the grace" \
	test "$(sql "SELECT count(*) FROM outbox WHERE game = '$game' AND seat = 2 AND sent IS NULL AND next_attempt - created = 40 AND move_seq = 1")" = 1
sleep 2.5   # two looks of the mailer
check "... unsent" test "$(sql "SELECT count(*) FROM outbox WHERE game = '$game' AND move_seq = 1 AND sent IS NOT NULL")" = 0

# ---- taken ---------------------------------------------------------------------
req "${jar[1]}" POST "$saved_url" "$saved_body"
expect_code "Ann takes it back" 303
check "... back to her table with a notice" \
	sh -c 'case $1 in *"g/$2"*m=taken_back*) exit 0 ;; esac; exit 1' sh "$loc" "$game"
check "no move left" test "$(lines)" = 0
check "her turn again" test "$(turn_seat)" = 1
page 1 "?m=taken_back"
check "her table says so" grep -q 'Your move was taken back: it is your turn again' "$tmp/b"
check "... and offers no take-back now" sh -c "! grep -q 'Take back my move' '$tmp/b'"
check "... and her hand holds the card again ($card)" grep -q "$card" "$tmp/b"
check "Ben's email is dropped, never sent" \
	test "$(sql "SELECT count(*) FROM outbox WHERE game = '$game' AND seat = 2 AND sent IS NULL AND dropped IS NOT NULL AND last_error = 'its move was taken back'")" = 1
req "${jar[2]}" GET "${base}g/$game/history"
check "the history says Ann took back a move" grep -q "Ann took back a move: " "$tmp/b"
req "${jar[1]}" GET "${base}g/$game/record"
check "the record holds no move" sh -c "! grep -qE '^[1-6] ' '$tmp/b'"
check "the store checks" "$BUFFERTIME" admin --db "$db" check
req "${jar[1]}" POST "$saved_url" "$saved_body"
expect_code "the same form again" 303
check "... is stale" sh -c 'case $1 in *m=stale*) exit 0 ;; esac; exit 1' sh "$loc"
check "... and changes nothing" test "$(lines)" = 0
check "... one move taken back" test "$(sql "SELECT count(*) FROM taken_back WHERE game = '$game'")" = 1

# ---- stands ----------------------------------------------------------------------
page 1
form pick 'action=side' || not_ok "Ann has no Side Project to play again"
req "${jar[1]}" POST "$form_url" "$form_body"
take_back_form 1 || not_ok "no take-back after her second move"
saved_url=$form_url saved_body=$form_body
page 2
form pick 'action=work' || not_ok "Ben cannot work"
req "${jar[2]}" POST "$form_url" "$form_body"
check "Ben worked" test "$(lines)" = 2
take_back_form 1 && not_ok "Ann's table offers a take-back after Ben's move"
ok
req "${jar[1]}" POST "$saved_url" "$saved_body"
check "Ann's old form is stale" sh -c 'case $1 in *m=stale*) exit 0 ;; esac; exit 1' sh "$loc"
seq_now=$(lines)
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
page 1
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$tmp/b" | head -n 1 | sed 's/.*value="//; s/"$//')
req "${jar[1]}" POST "${base}g/$game/takeback" "csrf=$csrf&seq=$seq_now"
check "a take-back of Ben's move by Ann stands" \
	sh -c 'case $1 in *m=stands*) exit 0 ;; esac; exit 1' sh "$loc"
check "... nothing changed" test "$(lines)" = 2
page 1 "?m=stands"
check "... and her table says why" grep -q 'That move can no longer be taken back' "$tmp/b"
form pick 'action=work' || not_ok "Ann cannot work"
req "${jar[1]}" POST "$form_url" "$form_body"
check "Ann worked (a draw)" test "$(lines)" = 3
take_back_form 1 && not_ok "a draw can be taken back"
ok
# (the running mailer may have claimed it already: a claim moves
# next_attempt on by its lease, so only an unclaimed row tells)
check "Ben's turn email after a draw is queued" \
	test "$(sql "SELECT count(*) FROM outbox WHERE game = '$game' AND move_seq = 3")" -ge 1
check "... and not held" \
	test "$(sql "SELECT count(*) FROM outbox WHERE game = '$game' AND move_seq = 3 AND attempts = 0 AND next_attempt > created")" = 0

# ---- the bot ---------------------------------------------------------------------
req "" POST "${base}new" "name1=Cy&email1=cy%40example.org&bot2=1&first=1"
expect_code "create Cy and a bot" 200
link=$(grep -o "${base}g/[A-Za-z0-9_-]\\{22\\}?t=[A-Za-z0-9_-]*" "$tmp/b" | head -n 1)
game=${link#"${base}g/"}
game=${game%%\?*}
jar=("" "$tmp/jar3")
req "${jar[1]}" GET "$link"
page 1
form pick 'action=work' || not_ok "Cy cannot work"
work_url=$form_url work_body=$form_body
form pick 'action=side' || not_ok "Cy has no Side Project to play"
req "${jar[1]}" POST "$form_url" "$form_body"
check "the bot's turn waits 40 s" \
	test "$(sql "SELECT due - created FROM jobs WHERE game = '$game' AND kind = 'move' AND done IS NULL")" = 40
take_back_form 1 || not_ok "Cy's table offers no take-back"
old_tag=$(header ETag)
check "her table's last moves tell her Side Project" \
	sh -c "sed -n '/class=\"panel log\"/,/<\/section>/p' '$tmp/b' | grep -q 'started a side project'"
req "${jar[1]}" POST "$form_url" "$form_body"
check "Cy took it back" test "$(lines)" = 0
check "... and the bot's turn is gone" \
	test "$(sql "SELECT count(*) FROM jobs WHERE game = '$game' AND kind = 'move'")" = 0

# ---- then work ---------------------------------------------------------------------
# (her work form from before the Side Project: no page in between)
req "${jar[1]}" POST "$work_url" "$work_body"
check "Cy worked instead" test "$(lines)" = 1
page 1
sed -n '/class="panel log"/,/<\/section>/p' "$tmp/b" >"$tmp/log"
check "her table's last moves say she worked" grep -q 'Cy got to work' "$tmp/log"
# (the bot may have moved since: a draw holds nothing back)
check "... and not the move taken back" sh -c "! grep -q 'Cy started a side project' '$tmp/log'"
code=$(curl -s --max-time 15 -o /dev/null -w '%{http_code}' -b "${jar[1]}" \
	-H "If-None-Match: $old_tag" "${base}g/$game")
check "the tag of her table before the take-back is stale (status $code)" test "$code" = 200
check "the store checks" "$BUFFERTIME" admin --db "$db" check

finish
