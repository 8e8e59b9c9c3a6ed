/*
 * store_end.c - a game ended where it stands, once the crew can no
 * longer reach its goal (rules: bt_out_of_reach): no record line (the
 * record format has none for it, and the lines replay as they did), but
 * the game's row marked ended and lost, with the game-over emails and
 * the review queued in the same transaction, as a last move does.
 */
#include <string.h>

#include "sql.h"

/* Why game g may not be ended by seat at expected_seq: STORE_OK if it
 * may. */
static store_rc may_end(const store_game *g, int seat, int expected_seq,
                        store_error *err)
{
	if (seat < 1 || seat > g->players)
		return store_fail(err, STORE_NOT_FOUND, "no seat %d in game "
		                  "'%.40s'", seat, g->id);
	if (g->seats[seat - 1].bot[0])
		return store_fail(err, STORE_INVALID, "only a person's seat "
		                  "may end a game");
	if (g->ended_by || g->state.status != BT_PLAYING)
		return store_fail(err, STORE_ILLEGAL, "the game is over");
	if (g->seq != expected_seq)
		return store_fail(err, STORE_CONFLICT, "the game moved on: it "
		                  "has %d actions, not %d", g->seq,
		                  expected_seq);
	if (g->sweep_card != BT_NO_CARD)
		return store_fail(err, STORE_ILLEGAL, "a Sensor Sweep is being "
		                  "looked at");
	if (!bt_out_of_reach(&g->state))
		return store_fail(err, STORE_ILLEGAL, "the game can still be "
		                  "won");
	return STORE_OK;
}

/* Marks the row ended by seat at now, lost, with nobody to move. */
static store_rc mark_ended(store *s, const store_game *g, int seat,
                           int64_t now, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_END_MARK);

	db_bind_text(st, 1, g->id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int64(st, 3, now);
	db_bind_int(st, 4, g->seq);
	int rc = sql_run(s, SQL_END_MARK);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "ending the game", err);
	return db_changes(s->db) == 1 ? STORE_OK
	       : store_fail(err, STORE_CONFLICT, "the game moved on");
}

/* What the game had waiting that no longer has a turn to wait for: a
 * bot's move and hints (marked done), and the emails that ask a seat to
 * move (dropped; the game-over email tells the end). */
static store_rc drop_waiting(store *s, const char *id, int64_t now,
                             store_error *err)
{
	db_stmt *st = sql_get(s, SQL_END_JOBS);
	int rc;

	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, now);
	if ((rc = sql_run(s, SQL_END_JOBS)) != DB_DONE)
		return store_db_fail(s, rc, "ending the game's jobs", err);
	st = sql_get(s, SQL_END_MAILS);
	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, now);
	if ((rc = sql_run(s, SQL_END_MAILS)) != DB_DONE)
		return store_db_fail(s, rc, "dropping the game's turn "
		                     "emails", err);
	st = sql_get(s, SQL_NOTICE_END);
	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, now);
	if ((rc = sql_run(s, SQL_NOTICE_END)) != DB_DONE)
		return store_db_fail(s, rc, "dropping the game's turn "
		                     "notices", err);
	return STORE_OK;
}

/* Queues each seat's email about ended game g (fn's). */
static store_rc queue_over(store *s, const store_game *g,
                           store_seat_mail_fn fn, void *ctx,
                           store_error *err)
{
	for (int seat = 1; fn && seat <= g->players; seat++) {
		int made = fn(ctx, g, seat, s->mail);
		store_rc rc;
		if (made < 0)
			return store_fail(err, STORE_ERROR, "seat %d's email "
			                  "could not be written", seat);
		if (made && (rc = sql_queue_mail_at(s, g->id, s->mail, g->seq,
		                                    0, err)))
			return rc;
	}
	return STORE_OK;
}

static store_rc end_locked(store *s, const char *id, int seat,
                           int expected_seq, store_seat_mail_fn fn,
                           void *ctx, store_error *err)
{
	store_game *g = s->scratch;
	int64_t now = store_now();
	store_rc rc;

	if ((rc = store_load(s, id, g, err)) ||
	    (rc = may_end(g, seat, expected_seq, err)) ||
	    (rc = mark_ended(s, g, seat, now, err)) ||
	    (rc = drop_waiting(s, id, now, err)))
		return rc;
	/* the game as every page will load it from now on */
	g->ended_by = seat;
	g->ended_at = now;
	g->updated = now;
	g->state.status = BT_LOST;
	g->turn_seat = 0;
	g->reminders = 0;
	sql_notice n = { .game = id, .kind = "over", .hook = 1,
	                 .by_seat = seat, .result = "lost",
	                 .move_seq = g->seq, .state = &g->state };
	if ((rc = queue_over(s, g, fn, ctx, err)) ||
	    (rc = sql_queue_notice(s, &n, err)))
		return rc;
	/* after the emails: the review holds them for its turning point */
	return sql_queue_review(s, id, &g->state, g->seq, seat, err);
}

store_rc store_end_game(store *s, const char *id, int seat, int expected_seq,
                        store_seat_mail_fn fn, void *ctx, store_game *after,
                        store_error *err)
{
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	rc = end_locked(s, id, seat, expected_seq, fn, ctx, err);
	if (rc == STORE_OK)
		rc = sql_commit(s, err);
	else
		sql_rollback(s);
	if (rc == STORE_OK && after)
		*after = *s->scratch;
	return rc;
}
