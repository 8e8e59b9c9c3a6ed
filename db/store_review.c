/*
 * store_review.c - the post-game review's figures: a job queued with
 * the move that ends a game, and one row per move as the worker weighs
 * them (store.h says what they mean; bots/review.h how they are made).
 */
#include <string.h>

#include "sql.h"

store_rc sql_queue_review(store *s, const char *id, const bt_game *state,
                          int seq, int seat, store_error *err)
{
	if (state->status == BT_PLAYING)
		return STORE_OK;
	db_stmt *st = sql_get(s, SQL_REVIEW_QUEUE);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seq);
	db_bind_int(st, 3, seat >= 1 && seat <= BT_MAX_PLAYERS ? seat : 1);
	db_bind_int64(st, 4, store_now());
	int rc = sql_run(s, SQL_REVIEW_QUEUE);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "queueing the review", err);
	/* the game-over emails just queued wait for the review's turning
	 * point (the mailer writes it in), a while at most */
	st = sql_get(s, SQL_OVER_HOLD);
	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, store_now() + STORE_OVER_WAIT);
	rc = sql_run(s, SQL_OVER_HOLD);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "holding the game-over emails", err);
}

store_rc store_review_release(store *s, const char *id, int *n,
                              store_error *err)
{
	db_stmt *st = sql_get(s, SQL_OVER_RELEASE);

	if (n)
		*n = 0;
	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, store_now());
	int rc = sql_run(s, SQL_OVER_RELEASE);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "letting the game-over emails "
		                     "go", err);
	if (n)
		*n = (int)db_changes(s->db);
	return STORE_OK;
}

static int chance_ok(double p)
{
	return p >= 0.0 && p <= 1.0;   /* false for NaN too */
}

store_rc store_review_put(store *s, const char *id,
                          const store_review_move *m, store_error *err)
{
	if (m->move < 0 || m->move >= BT_RECORD_MAX_ITEMS ||
	    !chance_ok(m->before) || !chance_ok(m->played) || m->options < 1)
		return store_fail(err, STORE_INVALID, "review figures out of "
		                  "range");
	db_stmt *st = sql_get(s, SQL_REVIEW_PUT);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, m->move);
	db_bind_double(st, 3, m->before);
	db_bind_double(st, 4, m->played);
	db_bind_int(st, 5, m->best_verb);
	db_bind_int(st, 6, m->best_card);
	db_bind_int(st, 7, m->best_sweep != 0);
	db_bind_int(st, 8, m->best_is_played != 0);
	db_bind_int(st, 9, m->options);
	int rc = sql_run(s, SQL_REVIEW_PUT);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "keeping the review", err);
}

store_rc store_review_get(store *s, const char *id, store_review_move *out,
                          int cap, int *n, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_REVIEW_GET);
	int rc;

	*n = 0;
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, cap > 0 ? cap : 0);
	while ((rc = db_step(st)) == DB_ROW && *n < cap) {
		store_review_move *m = &out[*n];
		m->move = db_column_int(st, 0);
		if (m->move != *n)
			break;              /* a gap: the rest is not ready */
		m->before = db_column_double(st, 1);
		m->played = db_column_double(st, 2);
		m->best_verb = db_column_int(st, 3);
		m->best_card = db_column_int(st, 4);
		m->best_sweep = db_column_int(st, 5);
		m->best_is_played = db_column_int(st, 6);
		m->options = db_column_int(st, 7);
		(*n)++;
	}
	db_reset(st);
	return rc == DB_ROW || rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading the review", err);
}
