/*
 * store_jobs.c - the work moves leave for the worker: a bot's turn is a
 * job, queued in the transaction that gave the bot the turn, claimed by
 * a lease (a worker killed mid-job leaves it to be claimed again) and
 * done once the move is in.  The move itself goes through the same
 * append as a person's, at the job's sequence number
 * (store_append_saying, store_games.c), so a job done twice is refused
 * the second time: never two moves for one turn.
 */
#include <string.h>

#include "sql.h"

int store_bot_ok(const char *name)
{
	return name && strcmp(name, "search") == 0;
}

store_rc sql_queue_bot_turn(store *s, const char *id, const char *bot,
                            const bt_game *state, int seq, int64_t wait,
                            store_error *err)
{
	if (state->status != BT_PLAYING || !bot || !bot[0])
		return STORE_OK;
	db_stmt *st = sql_get(s, SQL_JOB_QUEUE);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seq);
	db_bind_int(st, 3, state->turn);
	db_bind_int64(st, 4, store_now());
	db_bind_int64(st, 5, wait > 0 ? wait : 0);
	int rc = sql_run(s, SQL_JOB_QUEUE);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "queueing a bot's turn", err);
}

/* The columns id, kind, game, seq, seat of a job row from col 0. */
static int read_job(db_stmt *st, store_job *j)
{
	memset(j, 0, sizeof *j);
	j->id = db_column_int64(st, 0);
	j->seq = db_column_int(st, 3);
	j->seat = db_column_int(st, 4);
	return sql_column_text(st, 1, j->kind, sizeof j->kind) ||
	       sql_column_text(st, 2, j->game, sizeof j->game) ? -1 : 0;
}

static store_rc claim(store *s, enum sql_stmt which, int64_t now, int lease,
                      int reviews, store_job *out, store_error *err)
{
	db_stmt *st = sql_get(s, which);
	int rc, bad = 0;

	db_bind_int64(st, 1, now);
	db_bind_int(st, 2, lease > 0 ? lease : STORE_JOB_LEASE);
	if (which == SQL_JOB_CLAIM_PHASE)
		db_bind_int(st, 3, reviews != 0);
	rc = db_step(st);
	if (rc == DB_ROW) {
		bad = read_job(st, out);
		out->attempts = db_column_int(st, 5);
		out->due = now + lease;
		rc = db_step(st);
	}
	db_reset(st);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "claiming a job", err);
	if (bad)
		return store_fail(err, STORE_CORRUPT, "a damaged job row");
	return db_changes(s->db) == 1 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "no job is due");
}

store_rc store_job_claim(store *s, int64_t now, int lease, store_job *out,
                         store_error *err)
{
	return claim(s, SQL_JOB_CLAIM, now, lease, 0, out, err);
}

store_rc store_job_claim_phase(store *s, int64_t now, int lease, int reviews,
                               store_job *out, store_error *err)
{
	return claim(s, SQL_JOB_CLAIM_PHASE, now, lease, reviews, out, err);
}

store_rc store_job_done(store *s, int64_t id, const char *outcome,
                        store_error *err)
{
	db_stmt *st = sql_get(s, SQL_JOB_DONE);

	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, store_now());
	db_bind_text(st, 3, outcome, -1);
	int rc = sql_run(s, SQL_JOB_DONE);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "marking a job done", err);
}

store_rc store_job_later(store *s, int64_t id, int64_t due, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_JOB_LATER);

	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, due);
	int rc = sql_run(s, SQL_JOB_LATER);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "putting a job off", err);
}

store_rc store_job_reclaim(store *s, int64_t now, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_JOB_RECLAIM);

	db_bind_int64(st, 1, now);
	int rc = sql_run(s, SQL_JOB_RECLAIM);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reclaiming jobs", err);
}

int64_t store_job_next_due(store *s)
{
	db_stmt *st = sql_get(s, SQL_JOB_NEXT);
	int64_t due = -1;

	if (db_step(st) == DB_ROW &&
	    !db_column_is_null(st, 0))
		due = db_column_int64(st, 0);
	db_reset(st);
	return due;
}

store_rc store_job_list(store *s, int all,
                        int (*fn)(void *ctx, const store_job *j), void *ctx,
                        store_error *err)
{
	db_stmt *st = sql_get(s, SQL_JOB_LIST);
	store_job j;
	int rc;

	db_bind_int(st, 1, all != 0);
	while ((rc = db_step(st)) == DB_ROW) {
		if (read_job(st, &j) ||
		    sql_column_text(st, 9, j.outcome, sizeof j.outcome)) {
			db_reset(st);
			return store_fail(err, STORE_CORRUPT, "a damaged job row");
		}
		j.created = db_column_int64(st, 5);
		j.due = db_column_int64(st, 6);
		j.attempts = db_column_int(st, 7);
		j.done = db_column_int64(st, 8);
		if (fn && fn(ctx, &j)) {
			rc = DB_DONE;
			break;
		}
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "listing jobs", err);
}

store_rc store_made_by(store *s, const char *id, char *by, int cap,
                       store_error *err)
{
	db_stmt *st = sql_get(s, SQL_MADE_BY);
	char who[16];
	int rc;

	memset(by, 0, (size_t)(cap > 0 ? cap : 0));
	db_bind_text(st, 1, id, -1);
	while ((rc = db_step(st)) == DB_ROW) {
		int seq = db_column_int(st, 0);
		if (sql_column_text(st, 1, who, sizeof who))
			continue;
		if (seq >= 0 && seq < cap)
			by[seq] = strcmp(who, "stand-in") == 0 ? 's' : 'b';
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading who made the moves", err);
}

