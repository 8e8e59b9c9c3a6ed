/*
 * store_push.c - the browsers a seat is notified on (store_push.h).
 */
#include <stdio.h>
#include <string.h>

#include "sql.h"
#include "store_push.h"

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                             "0123456789-_";

/* 1 if text is exactly len characters of base64url. */
static int b64_of(const char *text, size_t len)
{
	return text && strlen(text) == len && strspn(text, b64url) == len;
}

/* 1 if url may be an endpoint: https (or http if allowed), a host,
 * printable, bounded. */
static int endpoint_ok(const char *url, int allow_http)
{
	size_t n = url ? strlen(url) : 0, head;

	if (n == 0 || n > STORE_PUSH_ENDPOINT_MAX)
		return 0;
	if (strncmp(url, "https://", 8) == 0)
		head = 8;
	else if (allow_http && strncmp(url, "http://", 7) == 0)
		head = 7;
	else
		return 0;
	if (url[head] == '\0' || url[head] == '/')
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)url[i] <= ' ' || (unsigned char)url[i] >= 0x7f ||
		    url[i] == '"' || url[i] == '\\')
			return 0;
	return 1;
}

store_rc sql_seat_exists(store *s, const char *id, int seat,
                         store_error *err)
{
	db_stmt *st = sql_get(s, SQL_PUSH_SEAT);
	int code;

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	code = db_step(st);
	db_reset(st);
	if (code == DB_ROW)
		return STORE_OK;
	return code == DB_DONE
	       ? store_fail(err, STORE_NOT_FOUND, "no seat %d in game %.40s",
	                    seat, id)
	       : store_db_fail(s, code, "reading a seat", err);
}

static store_rc add_locked(store *s, const char *id, int seat,
                           const store_push_sub *sub, store_error *err)
{
	store_rc rc;
	db_stmt *st;
	int code;

	if ((rc = sql_seat_exists(s, id, seat, err)))
		return rc;
	st = sql_get(s, SQL_PUSH_ADD);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_text(st, 3, sub->endpoint, -1);
	db_bind_text(st, 4, sub->p256dh, -1);
	db_bind_text(st, 5, sub->auth, -1);
	db_bind_int64(st, 6, store_now());
	if ((code = sql_run(s, SQL_PUSH_ADD)) != DB_DONE)
		return store_db_fail(s, code, "keeping a subscription", err);
	st = sql_get(s, SQL_PUSH_TRIM);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int(st, 3, STORE_PUSH_PER_SEAT);
	if ((code = sql_run(s, SQL_PUSH_TRIM)) != DB_DONE)
		return store_db_fail(s, code, "dropping old subscriptions", err);
	return STORE_OK;
}

store_rc store_push_add(store *s, const char *id, int seat,
                        const store_push_sub *sub, int allow_http,
                        store_error *err)
{
	store_rc rc;

	if (!id || !sub || !endpoint_ok(sub->endpoint, allow_http) ||
	    !b64_of(sub->p256dh, STORE_PUSH_P256DH_LEN) ||
	    !b64_of(sub->auth, STORE_PUSH_AUTH_LEN))
		return store_fail(err, STORE_INVALID, "not a push subscription");
	if ((rc = sql_begin(s, err)))
		return rc;
	if ((rc = add_locked(s, id, seat, sub, err)) == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

store_rc store_push_remove(store *s, const char *id, int seat,
                           const char *endpoint, store_error *err)
{
	enum sql_stmt which = endpoint ? SQL_PUSH_REMOVE : SQL_PUSH_REMOVE_ALL;
	db_stmt *st = sql_get(s, which);
	int code;

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	if (endpoint)
		db_bind_text(st, 3, endpoint, -1);
	if ((code = sql_run(s, which)) != DB_DONE)
		return store_db_fail(s, code, "dropping a subscription", err);
	return db_changes(s->db) > 0 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "no such subscription");
}

store_rc store_push_list(store *s, const char *id, int seat,
                         store_push_sub *out, int max, int *n,
                         store_error *err)
{
	db_stmt *st = sql_get(s, SQL_PUSH_LIST);
	int code = DB_DONE;

	*n = 0;
	if (max <= 0)
		return STORE_OK;
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int(st, 3, max);
	while (*n < max && (code = db_step(st)) == DB_ROW) {
		store_push_sub *p = &out[*n];
		if (sql_column_text(st, 0, p->endpoint, sizeof p->endpoint) ||
		    sql_column_text(st, 1, p->p256dh, sizeof p->p256dh) ||
		    sql_column_text(st, 2, p->auth, sizeof p->auth)) {
			db_reset(st);
			return store_fail(err, STORE_CORRUPT, "a damaged "
			                  "subscription row");
		}
		p->created = db_column_int64(st, 3);
		(*n)++;
	}
	db_reset(st);
	return code == DB_ROW || code == DB_DONE ? STORE_OK
	       : store_db_fail(s, code, "reading subscriptions", err);
}

store_rc store_push_get(store *s, const char *id, int seat,
                        const char *endpoint, store_push_sub *out,
                        store_error *err)
{
	db_stmt *st = sql_get(s, SQL_PUSH_GET);
	int code;

	memset(out, 0, sizeof *out);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_text(st, 3, endpoint, -1);
	code = db_step(st);
	if (code == DB_ROW) {
		snprintf(out->endpoint, sizeof out->endpoint, "%s", endpoint);
		sql_column_text(st, 0, out->p256dh, sizeof out->p256dh);
		sql_column_text(st, 1, out->auth, sizeof out->auth);
	}
	db_reset(st);
	if (code == DB_ROW)
		return STORE_OK;
	return code == DB_DONE
	       ? store_fail(err, STORE_NOT_FOUND, "no such subscription")
	       : store_db_fail(s, code, "reading a subscription", err);
}
