/*
 * store_notice.c - the notices beside email (store_notice.h): queued
 * with what caused them, within the webhooks' rates; claimed, marked
 * and listed for the worker's notice lane.
 */
#include <stdio.h>
#include <string.h>

#include "sql.h"

void store_set_hook_rules(store *s, const store_hook_rules *r)
{
	memset(&s->hook_rules, 0, sizeof s->hook_rules);
	if (r)
		s->hook_rules = *r;
}

int store_hooks_off(const store *s)
{
	return s->hook_rules.off != 0;
}

static int rate_or(int set, int fallback)
{
	return set > 0 ? set : fallback;
}

/* ---- queueing ------------------------------------------------------------ */

/* n's round and risk from state (the risk as everyone knows it). */
static void notice_facts(const bt_game *state, sql_notice *n)
{
	int num = 0, den = 0;

	n->round = state->round;
	n->risk = -1;
	if (state->status != BT_PLAYING)
		return;
	bt_risk(state, 0, &num, &den);
	if (den > 0)
		n->risk = (int)((num * 100L + den / 2) / den);
}

/* Binds what both queueing statements share: ?1 .. ?10. */
static void bind_event(db_stmt *st, const sql_notice *n, int seat)
{
	int64_t now = store_now();

	db_bind_text(st, 1, n->game, -1);
	db_bind_int(st, 2, seat);
	db_bind_text(st, 3, n->kind, -1);
	db_bind_int(st, 4, n->round);
	db_bind_int(st, 5, n->risk);
	db_bind_int(st, 6, n->by_seat);
	db_bind_text(st, 7, n->result ? n->result : "", -1);
	db_bind_int(st, 8, n->move_seq);
	db_bind_int64(st, 9, now);
	db_bind_int64(st, 10, n->hold > 0 ? n->hold : 0);
}

/* Why the game's next message would be over a rate, or NULL. */
static const char *over_rate(store *s, const char *game, store_error *err,
                             int *failed)
{
	db_stmt *st = sql_get(s, SQL_NOTICE_HOOK_COUNT);
	int64_t game_n = 0, all_n = 0;
	int rc;

	db_bind_text(st, 1, game, -1);
	db_bind_int64(st, 2, store_now() - 3600);
	rc = db_step(st);
	if (rc == DB_ROW) {
		game_n = db_column_int64(st, 0);
		all_n = db_column_int64(st, 1);
	}
	db_reset(st);
	if (rc != DB_ROW) {
		*failed = 1;
		store_db_fail(s, rc, "counting the webhooks' messages", err);
		return NULL;
	}
	if (game_n >= rate_or(s->hook_rules.per_game_hour,
	                      STORE_HOOK_PER_GAME_HOUR))
		return "over the game's webhook messages an hour";
	if (all_n >= rate_or(s->hook_rules.per_server_hour,
	                     STORE_HOOK_PER_SERVER_HOUR))
		return "over the server's webhook messages an hour";
	return NULL;
}

static store_rc queue_hook(store *s, const sql_notice *n, store_error *err)
{
	int failed = 0;
	const char *why = over_rate(s, n->game, err, &failed);

	if (failed)
		return STORE_ERROR;
	db_stmt *st = sql_get(s, SQL_NOTICE_HOOK_QUEUE);
	bind_event(st, n, n->hook_seat);
	db_bind_text(st, 11, why ? why : "", -1);
	int rc = sql_run(s, SQL_NOTICE_HOOK_QUEUE);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "queueing a webhook message", err);
}

/* Whether game has a browser of seat (0: any) to push to, and a
 * webhook: STORE_OK, or a failure. */
static store_rc channels_of(store *s, const sql_notice *n, int *push,
                            int *hook, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_NOTICE_CHANNELS);

	db_bind_text(st, 1, n->game, -1);
	db_bind_int(st, 2, n->seat);
	int rc = db_step(st);
	if (rc == DB_ROW) {
		*push = db_column_int(st, 0);
		*hook = db_column_int(st, 1);
	}
	db_reset(st);
	return rc == DB_ROW ? STORE_OK
	       : store_db_fail(s, rc, "looking for the game's notices", err);
}

store_rc sql_queue_notice(store *s, const sql_notice *n, store_error *err)
{
	int push = 0, hook = 0;
	store_rc rc = channels_of(s, n, &push, &hook, err);

	if (rc != STORE_OK)
		return rc;
	hook = hook && n->hook && !s->hook_rules.off;
	if (!push && !hook)
		return STORE_OK;
	sql_notice facts = *n;
	if (n->state != NULL)
		notice_facts(n->state, &facts);
	if (push) {
		bind_event(sql_get(s, SQL_NOTICE_PUSH_QUEUE), &facts, n->seat);
		int code = sql_run(s, SQL_NOTICE_PUSH_QUEUE);
		if (code != DB_DONE)
			return store_db_fail(s, code, "queueing a push", err);
	}
	return hook ? queue_hook(s, &facts, err) : STORE_OK;
}

/* ---- the lane's side ------------------------------------------------------ */

/* A row of SQL_NOTICE_DUE or SQL_NOTICE_LIST into n. */
static void read_row(db_stmt *st, store_notice *n)
{
	memset(n, 0, sizeof *n);
	n->id = db_column_int64(st, 0);
	sql_column_text(st, 1, n->game, sizeof n->game);
	n->seat = db_column_int(st, 2);
	sql_column_text(st, 3, n->kind, sizeof n->kind);
	sql_column_text(st, 4, n->channel, sizeof n->channel);
	sql_column_text(st, 5, n->target, sizeof n->target);
	n->round = db_column_int(st, 6);
	n->risk = db_column_int(st, 7);
	n->by_seat = db_column_int(st, 8);
	sql_column_text(st, 9, n->result, sizeof n->result);
	n->move_seq = db_column_int(st, 10);
	n->created = db_column_int64(st, 11);
	n->attempts = db_column_int(st, 12);
	n->next_attempt = db_column_int64(st, 13);
	sql_column_text(st, 14, n->last_error, sizeof n->last_error);
	n->sent = db_column_int64(st, 15);
	n->dropped = db_column_int64(st, 16);
}

static store_rc claim_locked(store *s, int64_t now, store_notice *out,
                             store_error *err)
{
	db_stmt *st = sql_get(s, SQL_NOTICE_DUE);

	db_bind_int64(st, 1, now);
	int rc = db_step(st);
	if (rc == DB_ROW)
		read_row(st, out);
	db_reset(st);
	if (rc == DB_DONE)
		return store_fail(err, STORE_NOT_FOUND, "no notice is due");
	if (rc != DB_ROW)
		return store_db_fail(s, rc, "reading the notices", err);
	out->attempts++;
	out->next_attempt = now + sql_backoff(out->attempts);
	st = sql_get(s, SQL_NOTICE_CLAIM);
	db_bind_int64(st, 1, out->id);
	db_bind_int64(st, 2, out->next_attempt);
	rc = sql_run(s, SQL_NOTICE_CLAIM);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "counting an attempt", err);
}

store_rc store_notice_claim(store *s, int64_t now, store_notice *out,
                            store_error *err)
{
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	rc = claim_locked(s, now, out, err);
	if (rc == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

store_rc store_notice_sent(store *s, int64_t id, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_NOTICE_SENT);

	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, store_now());
	int rc = sql_run(s, SQL_NOTICE_SENT);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "marking a notice sent", err);
}

store_rc store_notice_failed(store *s, const store_notice *n,
                             const char *why, int give_up,
                             store_error *err)
{
	db_stmt *st = sql_get(s, SQL_NOTICE_FAILED);
	char line[256];

	sql_one_line(why, line, sizeof line);
	if (n->attempts >= STORE_NOTICE_ATTEMPTS)
		give_up = 1;
	db_bind_int64(st, 1, n->id);
	db_bind_text(st, 2, line, -1);
	db_bind_int64(st, 3, give_up ? store_now() : 0);
	int rc = sql_run(s, SQL_NOTICE_FAILED);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "noting a notice's failure", err);
}

int64_t store_notice_next_due(store *s)
{
	db_stmt *st = sql_get(s, SQL_NOTICE_NEXT);
	int64_t next = -1;

	if (db_step(st) == DB_ROW && !db_column_is_null(st, 0))
		next = db_column_int64(st, 0);
	db_reset(st);
	return next;
}

store_rc store_notice_list(store *s, int max,
                           int (*fn)(void *ctx, const store_notice *n),
                           void *ctx, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_NOTICE_LIST);
	static store_notice row;
	int rc;

	db_bind_int(st, 1, max);
	while ((rc = db_step(st)) == DB_ROW) {
		read_row(st, &row);
		if (fn(ctx, &row)) {
			rc = DB_DONE;
			break;
		}
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "listing the notices", err);
}

store_rc store_hook_last(store *s, const char *id, const char *url,
                         store_notice *out, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_HOOK_LAST);
	int rc;

	db_bind_text(st, 1, id, -1);
	db_bind_text(st, 2, url, -1);
	rc = db_step(st);
	if (rc == DB_ROW)
		read_row(st, out);
	db_reset(st);
	if (rc == DB_ROW)
		return STORE_OK;
	return rc == DB_DONE ? store_fail(err, STORE_NOT_FOUND, "none tried")
	       : store_db_fail(s, rc, "reading the webhook's last message",
	                       err);
}
