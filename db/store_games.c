/*
 * store_games.c - the move transaction, the top of the store: a game
 * advanced one action at a time (the action checked, its line and
 * snapshot written, its emails queued, and what it sets going: a
 * stand-in ended, the next bot turn, hints or the review queued), a bot's
 * move with what it says, a seat revoked, a game exported as a record.
 * The rows it is made of are store_rows.c's.
 */
#include <stdio.h>
#include <string.h>

#include "sql.h"

/* ---- advancing ---------------------------------------------------------- */

static store_rc advance(store *s, const store_game *before,
                        const bt_game *after, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_GAME_ADVANCE);

	db_bind_text(st, 1, before->id, -1);
	db_bind_int(st, 2, before->seq);
	db_bind_int64(st, 3, store_now());
	db_bind_text(st, 4, sql_status_name((bt_status)after->status), -1);
	db_bind_blob(st, 5, after, sizeof *after);
	db_bind_int(st, 6, sql_snapshot_format());
	db_bind_int(st, 7, sql_turn_seat(after));
	int rc = sql_run(s, SQL_GAME_ADVANCE);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "saving the state", err);
	return db_changes(s->db) == 1 ? STORE_OK
	       : store_fail(err, STORE_CONFLICT, "the game moved on");
}

/* Queues the move's emails, each held for hold seconds (a move that may
 * still be taken back mails nobody until its grace is over). */
static store_rc queue_mails(store *s, const store_game *before,
                            const bt_game *after, const bt_action *a,
                            store_mail_fn fn, void *ctx, int64_t hold,
                            store_error *err)
{
	int n = fn ? fn(ctx, before, after, a, s->mail, BT_MAX_PLAYERS + 1) : 0;

	if (n < 0 || n > BT_MAX_PLAYERS + 1)
		return store_fail(err, STORE_ERROR, "the move's emails could "
		                  "not be made");
	for (int i = 0; i < n; i++) {
		store_rc rc = sql_queue_mail_at(s, before->id, &s->mail[i],
		                                before->seq + 1, hold, err);
		if (rc != STORE_OK)
			return rc;
	}
	return STORE_OK;
}

/* The move's notices beside email: a person's turn to that seat's
 * browsers and the crew's chat, the end to every seat's and the chat;
 * held and taken back with the move's emails. */
static store_rc queue_notices(store *s, const store_game *before,
                              const bt_game *next, const bt_action *a,
                              int64_t hold, store_error *err)
{
	sql_notice n = { .game = before->id, .move_seq = before->seq + 1,
	                 .hold = hold, .hook = 1, .result = "",
	                 .state = next };
	int turn = sql_turn_seat(next);

	if (next->status != BT_PLAYING) {
		n.kind = "over";
		n.result = next->status == BT_WON ? "won" : "lost";
		return sql_queue_notice(s, &n, err);
	}
	if (turn < 1 || turn > before->players || turn == a->seat ||
	    sql_seat_bot(&before->seats[turn - 1])[0])
		return STORE_OK;
	n.kind = "turn";
	n.seat = n.hook_seat = turn;
	return sql_queue_notice(s, &n, err);
}

/* The append's work inside its transaction: the line, the state, the
 * emails, and the next seat's turn as a job if a bot plays it. */
store_rc sql_append_locked(store *s, const char *id, int expected_seq,
                           const bt_action *a, const char *made_by,
                           store_mail_fn fn, void *ctx, bt_game *next,
                           store_error *err)
{
	store_game *before = s->scratch;
	char line[BT_ACTION_TEXT_MAX];
	bt_error gerr;
	store_rc rc;

	if ((rc = store_load(s, id, before, err)))
		return rc;
	if (before->seq != expected_seq)
		return store_fail(err, STORE_CONFLICT, "the game moved on: it "
		                  "has %d actions, the move was chosen after "
		                  "%d", before->seq, expected_seq);
	if (before->sweep_card != BT_NO_CARD &&
	    (a->verb != BT_SPECIAL || a->card != before->sweep_card ||
	     a->seat != before->sweep_seat))
		return store_fail(err, STORE_ILLEGAL, "rule R9: seat %d looked "
		                  "at the Shift Deck with Sensor Sweep and must "
		                  "first choose the order", before->sweep_seat);
	*next = before->state;
	if (bt_apply(next, a, &gerr)) {
		if (err)
			err->game = gerr;
		return store_fail(err, STORE_ILLEGAL, "rule R%d: %s",
		                  gerr.rule, gerr.why);
	}
	if (bt_action_format(a, line, sizeof line) < 0)
		return store_fail(err, STORE_INVALID, "the action cannot be "
		                  "written as a record line");
	/* a person's move that showed nothing may be taken back: its emails
	 * and the bot that answers it wait a little */
	int may_take_back = !made_by[0] &&
	                    bt_take_back_ok(&before->state, a, next);
	int64_t hold = may_take_back ? s->holds.mail_grace : 0;
	if ((rc = sql_insert_line(s, id, before->seq, a->seat, line, made_by,
	                          err)) ||
	    (rc = advance(s, before, next, err)) ||
	    (rc = queue_mails(s, before, next, a, fn, ctx, hold, err)) ||
	    (rc = queue_notices(s, before, next, a, hold, err)))
		return rc;
	/* the absent player who moves again takes the seat back */
	if (!made_by[0] && before->seats[a->seat - 1].standin_since &&
	    (rc = sql_standin_set(s, id, a->seat, 0, err)))
		return rc;
	if ((rc = sql_queue_review(s, id, next, before->seq + 1, a->seat, err)) ||
	    (next->status == BT_PLAYING &&
	     (rc = sql_queue_hints(s, id, before->practice,
	                           sql_seat_bot(&before->seats[next->turn - 1]),
	                           next, before->seq + 1, err))))
		return rc;
	return sql_queue_bot_turn(s, id, next->status == BT_PLAYING
	                          ? sql_seat_bot(&before->seats[next->turn - 1])
	                          : "", next, before->seq + 1,
	                          may_take_back ? s->holds.bot_wait : 0, err);
}

store_rc store_append(store *s, const char *id, int expected_seq,
                      const bt_action *a, store_mail_fn mail_fn, void *ctx,
                      store_game *after, store_error *err)
{
	return store_append_as(s, id, expected_seq, a, "", mail_fn, ctx, after,
	                       err);
}

store_rc store_append_as(store *s, const char *id, int expected_seq,
                         const bt_action *a, const char *made_by,
                         store_mail_fn mail_fn, void *ctx,
                         store_game *after, store_error *err)
{
	bt_game next;
	store_rc rc;

	if (!made_by || (made_by[0] && strcmp(made_by, "bot") &&
	                 strcmp(made_by, "stand-in")))
		return store_fail(err, STORE_INVALID, "a line is made by a "
		                  "person, a bot or a stand-in");
	if ((rc = sql_begin(s, err)))
		return rc;
	rc = sql_append_locked(s, id, expected_seq, a, made_by, mail_fn, ctx,
	                       &next, err);
	if (rc == STORE_OK)
		rc = sql_commit(s, err);
	else
		sql_rollback(s);
	if (rc == STORE_OK && after) {
		*after = *s->scratch;
		after->seq++;
		after->state = next;
		after->sweep_card = BT_NO_CARD;   /* a new line ends a look */
		after->sweep_seat = 0;
		after->turn_seat = sql_turn_seat(&next);
		after->turn_since = after->updated = store_now();
		after->reminders = 0;
	}
	return rc;
}

store_rc store_revoke(store *s, const char *id, int seat, int64_t *gen,
                      store_error *err)
{
	db_stmt *st = sql_get(s, SQL_SEAT_REVOKE);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	int rc = db_step(st);
	if (rc == DB_ROW && gen)
		*gen = db_column_int64(st, 0);
	if (rc == DB_ROW)
		rc = db_step(st);
	db_reset(st);
	if (rc == DB_DONE && db_changes(s->db) == 1)
		return STORE_OK;
	if (rc == DB_DONE)
		return store_fail(err, STORE_NOT_FOUND, "no seat %d in game "
		                  "'%.40s'", seat, id);
	return store_db_fail(s, rc, "revoking", err);
}

/* ---- exporting ---------------------------------------------------------- */

static store_rc export_lines(store *s, const char *id, bt_record *rec,
                             store_error *err)
{
	db_stmt *st = sql_get(s, SQL_WALK);
	bt_error gerr;
	int rc;

	db_bind_text(st, 1, id, -1);
	while ((rc = db_step(st)) == DB_ROW)
		if (bt_record_add_line(rec,
		                       (const char *)db_column_text(st, 2),
		                       (size_t)db_column_bytes(st, 2),
		                       &gerr))
			break;
	db_reset(st);
	if (rc == DB_ROW)
		return store_fail(err, STORE_CORRUPT, "game %.40s: a stored "
		                  "line is damaged: %s", id, gerr.why);
	return rc == DB_DONE ? STORE_OK
	                         : store_db_fail(s, rc, "reading actions", err);
}

store_rc store_export(store *s, const char *id, int with_seed,
                      bt_record *rec, store_error *err)
{
	store_game *g = s->scratch;
	bt_error gerr;
	store_rc rc;

	if ((rc = store_load(s, id, g, err)))
		return rc;
	int seed = with_seed || g->state.status != BT_PLAYING;
	if (bt_record_init(rec, g->players, g->first, seed ? g->seed : NULL,
	                   seed ? strlen(g->seed) : 0, &gerr))
		return store_fail(err, STORE_CORRUPT, "game %.40s: %s", id,
		                  gerr.why);
	for (int i = 0; i < g->players; i++)
		if (g->seats[i].name[0] &&
		    bt_record_name(rec, i + 1, g->seats[i].name,
		                   strlen(g->seats[i].name), &gerr))
			return store_fail(err, STORE_CORRUPT, "game %.40s: "
			                  "%s", id, gerr.why);
	const char *at = g->header, *l;
	size_t n;
	while (sql_next_line(&at, &l, &n))
		if (bt_record_add_line(rec, l, n, &gerr))
			return store_fail(err, STORE_CORRUPT, "game %.40s: "
			                  "its header is damaged: %s", id,
			                  gerr.why);
	return export_lines(s, id, rec, err);
}

/* ---- around the moves --------------------------------------------------- */

/* The Sensor Sweep action of seat with card, the top cards in their
 * current order: legal exactly when looking is. */
static bt_action sweep_as_is(const bt_game *g, int seat, bt_card card)
{
	bt_action a = { .seat = (uint8_t)seat, .verb = BT_SPECIAL,
	                .card = card };
	const bt_pile *deck = &g->shift_deck;

	while (a.nargs < BT_SWEEP_CARDS && a.nargs < deck->n) {
		a.arg[a.nargs] = deck->c[deck->n - 1 - a.nargs];
		a.nargs++;
	}
	return a;
}

store_rc sql_sweep_locked(store *s, const char *id, int expected_seq,
                          int seat, bt_card card, store_error *err)
{
	store_game *g = s->scratch;
	bt_error gerr;
	store_rc rc;

	if ((rc = store_load(s, id, g, err)))
		return rc;
	if (g->seq != expected_seq)
		return store_fail(err, STORE_CONFLICT, "the game moved on: it "
		                  "has %d actions, the move was chosen after "
		                  "%d", g->seq, expected_seq);
	if (g->sweep_card != BT_NO_CARD)
		return g->sweep_card == card && g->sweep_seat == seat ? STORE_OK
		       : store_fail(err, STORE_ILLEGAL, "rule R9: another "
		                    "Sensor Sweep is being looked at");
	bt_action a = sweep_as_is(&g->state, seat, card);
	if (bt_check(&g->state, &a, &gerr)) {
		if (err)
			err->game = gerr;
		return store_fail(err, STORE_ILLEGAL, "rule R%d: %s",
		                  gerr.rule, gerr.why);
	}
	db_stmt *st = sql_get(s, SQL_SWEEP_SET);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, expected_seq);
	db_bind_int(st, 3, seat);
	db_bind_text(st, 4, bt_card_get(card)->id, -1);
	int code = sql_run(s, SQL_SWEEP_SET);
	return code == DB_DONE ? STORE_OK
	       : store_db_fail(s, code, "saving the look", err);
}

store_rc store_sweep_begin(store *s, const char *id, int expected_seq,
                           int seat, bt_card card, store_error *err)
{
	store_rc rc;

	if (card >= BT_CARD_COUNT ||
	    bt_card_get(card)->kind != BT_SENSOR_SWEEP)
		return store_fail(err, STORE_INVALID, "that is not a Sensor "
		                  "Sweep card");
	if ((rc = sql_begin(s, err)))
		return rc;
	rc = sql_sweep_locked(s, id, expected_seq, seat, card, err);
	if (rc == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

store_rc store_touch(store *s, const char *id, int seat, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_SEAT_TOUCH);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int64(st, 3, store_now());
	int rc = sql_run(s, SQL_SEAT_TOUCH);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "noting a visit", err);
	return db_changes(s->db) == 1 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "no seat %d in game "
	                    "'%.40s'", seat, id);
}

/* ---- a bot's move, with what it says ---------------------------------- */

/* store_append_saying inside its transaction. */
static store_rc saying_locked(store *s, const char *id, int expected_seq,
                              const bt_action *a, const char *made_by,
                              const char *say, store_mail_fn mail_fn,
                              void *ctx, int *said, store_error *err)
{
	bt_game next;
	store_error limited;
	store_rc rc;

	if (say && say[0]) {
		rc = sql_chat_locked(s, id, a->seat, say, &limited);
		if (rc == STORE_OK)
			*said = 1;
		else if (rc != STORE_LIMITED) {
			if (err)
				*err = limited;
			return rc;
		}
	}
	return sql_append_locked(s, id, expected_seq, a, made_by, mail_fn, ctx,
	                         &next, err);
}

store_rc store_append_saying(store *s, const char *id, int expected_seq,
                             const bt_action *a, const char *made_by,
                             const char *say, store_mail_fn mail_fn,
                             void *ctx, int *said, store_error *err)
{
	int local;
	store_rc rc;

	if (!said)
		said = &local;
	*said = 0;
	if (!made_by || (made_by[0] && strcmp(made_by, "bot") &&
	                 strcmp(made_by, "stand-in")))
		return store_fail(err, STORE_INVALID, "a line is made by a "
		                  "person, a bot or a stand-in");
	if (say && strnlen(say, STORE_CHAT_MAX + 1) > STORE_CHAT_MAX)
		return store_fail(err, STORE_INVALID, "a message has at most "
		                  "%d bytes", STORE_CHAT_MAX);
	if ((rc = sql_begin(s, err)))
		return rc;
	rc = saying_locked(s, id, expected_seq, a, made_by, say, mail_fn, ctx,
	                   said, err);
	if (rc == STORE_OK)
		rc = sql_commit(s, err);
	else
		sql_rollback(s);
	if (rc != STORE_OK)
		*said = 0;
	return rc;
}
