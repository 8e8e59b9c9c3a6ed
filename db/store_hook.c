/*
 * store_hook.c - a game's chat webhook (store_notice.h): one URL a game,
 * named or removed by any seat, with the secret its signed messages
 * carry.  Where it may lead (public addresses only) is net/post's to
 * check when it is used; here only its shape.
 */
#include <sodium.h>
#include <string.h>

#include "sql.h"

/* 1 if url is http(s)://HOST..., printable ASCII, bounded. */
static int url_ok(const char *url)
{
	size_t n = url ? strlen(url) : 0, head;

	if (n == 0 || n > STORE_NOTICE_TARGET_MAX)
		return 0;
	if (strncmp(url, "https://", 8) == 0)
		head = 8;
	else if (strncmp(url, "http://", 7) == 0)
		head = 7;
	else
		return 0;
	if (url[head] == '\0' || url[head] == '/' || url[head] == '?' ||
	    url[head] == '#')
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)url[i] <= ' ' || (unsigned char)url[i] >= 0x7f ||
		    url[i] == '"' || url[i] == '\\' || url[i] == '<' ||
		    url[i] == '>')
			return 0;
	return 1;
}

/* The game's messages not sent yet go nowhere now, saying why. */
static store_rc drop_queued(store *s, const char *id, const char *why,
                            store_error *err)
{
	db_stmt *st = sql_get(s, SQL_HOOK_DROP_QUEUED);

	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, store_now());
	db_bind_text(st, 3, why, -1);
	int code = sql_run(s, SQL_HOOK_DROP_QUEUED);
	return code == DB_DONE ? STORE_OK
	       : store_db_fail(s, code, "dropping the webhook's messages",
	                       err);
}

static store_rc set_locked(store *s, const char *id, int seat,
                           const char *url, const char *kind,
                           store_error *err)
{
	unsigned char raw[STORE_HOOK_SECRET_HEX / 2];
	char secret[STORE_HOOK_SECRET_HEX + 1];
	store_rc rc;

	if ((rc = sql_seat_exists(s, id, seat, err)) ||
	    (rc = drop_queued(s, id, "the webhook was changed", err)))
		return rc;
	randombytes_buf(raw, sizeof raw);
	sodium_bin2hex(secret, sizeof secret, raw, sizeof raw);
	sodium_memzero(raw, sizeof raw);
	db_stmt *st = sql_get(s, SQL_HOOK_SET);
	db_bind_text(st, 1, id, -1);
	db_bind_text(st, 2, url, -1);
	db_bind_text(st, 3, kind, -1);
	db_bind_text(st, 4, secret, -1);
	db_bind_int(st, 5, seat);
	db_bind_int64(st, 6, store_now());
	int code = sql_run(s, SQL_HOOK_SET);
	sodium_memzero(secret, sizeof secret);
	if (code != DB_DONE)
		return store_db_fail(s, code, "keeping the webhook", err);
	/* a first message, so the crew sees at once that it works (seat
	 * -1: no browser's push) */
	sql_notice n = { .game = id, .kind = "hello", .seat = -1, .hook = 1,
	                 .risk = -1, .result = "" };
	return sql_queue_notice(s, &n, err);
}

store_rc store_hook_set(store *s, const char *id, int seat, const char *url,
                        const char *kind, store_error *err)
{
	store_rc rc;

	if (s->hook_rules.off)
		return store_fail(err, STORE_LIMITED, "this server sends no "
		                  "webhook messages");
	if (!id || !url_ok(url) || !kind || !kind[0] || strlen(kind) >= 16)
		return store_fail(err, STORE_INVALID, "not a webhook address");
	if ((rc = sql_begin(s, err)))
		return rc;
	if ((rc = set_locked(s, id, seat, url, kind, err)) == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

store_rc store_hook_get(store *s, const char *id, store_hook *out,
                        store_error *err)
{
	db_stmt *st = sql_get(s, SQL_HOOK_GET);
	int code;

	memset(out, 0, sizeof *out);
	db_bind_text(st, 1, id, -1);
	code = db_step(st);
	if (code == DB_ROW) {
		sql_column_text(st, 0, out->url, sizeof out->url);
		sql_column_text(st, 1, out->kind, sizeof out->kind);
		sql_column_text(st, 2, out->secret, sizeof out->secret);
		out->set_by = db_column_int(st, 3);
		out->created = db_column_int64(st, 4);
	}
	db_reset(st);
	if (code == DB_ROW)
		return STORE_OK;
	return code == DB_DONE
	       ? store_fail(err, STORE_NOT_FOUND, "no webhook")
	       : store_db_fail(s, code, "reading the webhook", err);
}

static store_rc remove_locked(store *s, const char *id, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_HOOK_REMOVE);
	int code;

	db_bind_text(st, 1, id, -1);
	if ((code = sql_run(s, SQL_HOOK_REMOVE)) != DB_DONE)
		return store_db_fail(s, code, "removing the webhook", err);
	if (db_changes(s->db) == 0)
		return store_fail(err, STORE_NOT_FOUND, "no webhook");
	return drop_queued(s, id, "the webhook was removed", err);
}

store_rc store_hook_remove(store *s, const char *id, store_error *err)
{
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	if ((rc = remove_locked(s, id, err)) == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}
