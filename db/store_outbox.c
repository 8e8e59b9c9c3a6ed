/*
 * store_outbox.c - the mailer's side of the outbox: claiming the oldest
 * due email (its attempt counted and its retry set before it is sent),
 * marking it sent or failed, and what `buffertime admin mail` shows and
 * changes.
 */
#include <stdio.h>
#include <string.h>

#include "sql.h"

int64_t sql_backoff(int attempts)
{
	int64_t wait = STORE_RETRY_FIRST;

	for (int i = 1; i < attempts && wait < STORE_RETRY_MAX; i++)
		wait *= 2;
	return wait < STORE_RETRY_MAX ? wait : STORE_RETRY_MAX;
}

void sql_one_line(const char *why, char *line, size_t cap)
{
	snprintf(line, cap, "%s", why && why[0] ? why : "failed");
	for (char *p = line; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
}

/* A row of SQL_OUTBOX_DUE or SQL_OUTBOX_LIST into m. */
static void read_row(db_stmt *st, store_outmail *m)
{
	memset(m, 0, sizeof *m);
	m->id = db_column_int64(st, 0);
	sql_column_text(st, 1, m->game, sizeof m->game);
	m->seat = db_column_int(st, 2);
	sql_column_text(st, 3, m->kind, sizeof m->kind);
	sql_column_text(st, 4, m->to, sizeof m->to);
	sql_column_text(st, 5, m->subject, sizeof m->subject);
	sql_column_text(st, 6, m->body, sizeof m->body);
	m->created = db_column_int64(st, 7);
	m->attempts = db_column_int(st, 8);
	m->next_attempt = db_column_int64(st, 9);
	sql_column_text(st, 10, m->last_error, sizeof m->last_error);
	m->sent = db_column_int64(st, 11);
	m->dropped = db_column_int64(st, 12);
	sql_column_text(st, 13, m->reply_to, sizeof m->reply_to);
}

static store_rc claim_locked(store *s, int64_t now, store_outmail *out,
                             store_error *err)
{
	db_stmt *st = sql_get(s, SQL_OUTBOX_DUE);

	db_bind_int64(st, 1, now);
	int rc = db_step(st);
	if (rc == DB_ROW)
		read_row(st, out);
	db_reset(st);
	if (rc == DB_DONE)
		return store_fail(err, STORE_NOT_FOUND, "no email is due");
	if (rc != DB_ROW)
		return store_db_fail(s, rc, "reading the outbox", err);
	out->attempts++;
	int64_t wait = sql_backoff(out->attempts);
	if (wait < s->send_hold)
		wait = s->send_hold;
	out->next_attempt = now + wait;
	st = sql_get(s, SQL_OUTBOX_CLAIM);
	db_bind_int64(st, 1, out->id);
	db_bind_int64(st, 2, out->next_attempt);
	rc = sql_run(s, SQL_OUTBOX_CLAIM);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "counting an attempt", err);
}

void store_set_send_hold(store *s, int seconds)
{
	s->send_hold = seconds > 0 ? seconds : 0;
}

store_rc store_outbox_claim(store *s, int64_t now, store_outmail *out,
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

/* Runs an UPDATE of one queued row: STORE_NOT_FOUND if it changed none. */
static store_rc update_one(store *s, enum sql_stmt which, int64_t id,
                           const char *what, store_error *err)
{
	int rc = sql_run(s, which);

	if (rc != DB_DONE)
		return store_db_fail(s, rc, what, err);
	return db_changes(s->db) > 0 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "no queued email %lld",
	                    (long long)id);
}

store_rc store_outbox_sent(store *s, int64_t id, int64_t now,
                           store_error *err)
{
	db_stmt *st = sql_get(s, SQL_OUTBOX_SENT);

	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, now);
	return update_one(s, SQL_OUTBOX_SENT, id, "marking an email sent",
	                  err);
}

store_rc store_outbox_failed(store *s, int64_t id, const char *why,
                             store_error *err)
{
	db_stmt *st = sql_get(s, SQL_OUTBOX_FAILED);
	char line[256];

	sql_one_line(why, line, sizeof line);
	db_bind_int64(st, 1, id);
	db_bind_text(st, 2, line, -1);
	return update_one(s, SQL_OUTBOX_FAILED, id, "noting a failure", err);
}

int64_t store_outbox_next_due(store *s)
{
	db_stmt *st = sql_get(s, SQL_OUTBOX_NEXT);
	int64_t next = -1;

	if (db_step(st) == DB_ROW &&
	    !db_column_is_null(st, 0))
		next = db_column_int64(st, 0);
	db_reset(st);
	return next;
}

store_rc store_outbox_list(store *s, store_outbox_filter filter,
                           int (*fn)(void *ctx, const store_outmail *m),
                           void *ctx, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_OUTBOX_LIST);
	static store_outmail row;   /* 9 KiB: not on the stack */
	int rc;

	db_bind_int(st, 1, (int)filter);
	while ((rc = db_step(st)) == DB_ROW) {
		read_row(st, &row);
		if (fn(ctx, &row)) {
			rc = DB_DONE;
			break;
		}
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "listing the outbox", err);
}

store_rc store_outbox_retry(store *s, int64_t id, int *n, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_OUTBOX_RETRY);

	if (n)
		*n = 0;
	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, store_now());
	int rc = sql_run(s, SQL_OUTBOX_RETRY);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "retrying", err);
	int changed = (int)db_changes(s->db);
	if (n)
		*n = changed;
	return changed > 0 || id == 0 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "no queued email %lld",
	                    (long long)id);
}

store_rc store_outbox_drop(store *s, int64_t id, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_OUTBOX_DROP);

	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, store_now());
	return update_one(s, SQL_OUTBOX_DROP, id, "dropping an email", err);
}

int store_mailed_subject(store *s, const char *id, int seat, const char *to,
                         const char *subject)
{
	char key[STORE_EMAIL_MAX + 1];
	db_stmt *st;
	int yes = 0;

	if (!subject[0] || store_address_key(to, key, sizeof key))
		return 0;
	st = sql_get(s, SQL_MAILED_SUBJECT);
	db_bind_text(st, 1, key, -1);
	db_bind_text(st, 2, id, -1);
	db_bind_int(st, 3, seat);
	db_bind_text(st, 4, subject, -1);
	if (db_step(st) == DB_ROW)
		yes = db_column_int(st, 0) == 1;
	db_reset(st);
	return yes;
}
