/*
 * store_block.c - the server-wide "never email me again" list.  Who asks
 * (by the link every email carries, or through an administrator) is kept
 * as the key of the address (address.c), so "Ann+x@Example.org" blocks
 * "ann@example.org" however a game spells it.  store_queue_mail asks here
 * before queueing anything, and blocking drops what is still queued.
 *
 * The SQL compares keys with address_key() (address.c), a function of
 * our own that every connection registers before its statements are
 * prepared.
 */
#include <string.h>

#include "sql.h"

static store_rc block_locked(store *s, const char *key, const char *how,
                             store_error *err)
{
	int64_t now = store_now();
	db_stmt *st = sql_get(s, SQL_BLOCK_ADD);
	int rc;

	db_bind_text(st, 1, key, -1);
	db_bind_int64(st, 2, now);
	db_bind_text(st, 3, how, -1);
	if ((rc = sql_run(s, SQL_BLOCK_ADD)) != DB_DONE)
		return store_db_fail(s, rc, "blocking an address", err);
	/* what was queued before the block must not go out either */
	st = sql_get(s, SQL_BLOCK_DROP_QUEUED);
	db_bind_text(st, 1, key, -1);
	db_bind_int64(st, 2, now);
	if ((rc = sql_run(s, SQL_BLOCK_DROP_QUEUED)) != DB_DONE)
		return store_db_fail(s, rc, "dropping blocked mail", err);
	return STORE_OK;
}

store_rc store_block_add(store *s, const char *address, const char *how,
                         store_error *err)
{
	char key[STORE_EMAIL_MAX + 1];
	store_rc rc;

	if ((rc = sql_key_of(address, key, err)))
		return rc;
	if (!how || (strcmp(how, "link") != 0 && strcmp(how, "admin") != 0))
		return store_fail(err, STORE_INVALID, "a block is made by "
		                  "'link' or 'admin'");
	if ((rc = sql_begin(s, err)))
		return rc;
	if ((rc = block_locked(s, key, how, err)) == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

store_rc store_block_remove(store *s, const char *address, store_error *err)
{
	char key[STORE_EMAIL_MAX + 1];
	store_rc rc;

	if ((rc = sql_key_of(address, key, err)))
		return rc;
	db_stmt *st = sql_get(s, SQL_BLOCK_REMOVE);
	db_bind_text(st, 1, key, -1);
	int code = sql_run(s, SQL_BLOCK_REMOVE);
	if (code != DB_DONE)
		return store_db_fail(s, code, "unblocking an address", err);
	return db_changes(s->db) > 0 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "%.200s is not blocked", key);
}

store_rc store_block_check(store *s, const char *address, int *blocked,
                           store_error *err)
{
	char key[STORE_EMAIL_MAX + 1];

	*blocked = 0;
	/* not an address: nothing to block (nor to send to) */
	if (!address || store_address_key(address, key, sizeof key))
		return STORE_OK;
	db_stmt *st = sql_get(s, SQL_BLOCK_GET);
	db_bind_text(st, 1, key, -1);
	int rc = db_step(st);
	db_reset(st);
	if (rc == DB_ROW)
		*blocked = 1;
	else if (rc != DB_DONE)
		return store_db_fail(s, rc, "reading the block list", err);
	return STORE_OK;
}

int store_is_blocked(store *s, const char *address)
{
	int blocked;

	if (store_block_check(s, address, &blocked, NULL) != STORE_OK)
		return -1;
	return blocked;
}

store_rc store_block_list(store *s,
                          int (*fn)(void *ctx, const store_blocked *b),
                          void *ctx, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_BLOCK_LIST);
	store_blocked b;
	int rc;

	while ((rc = db_step(st)) == DB_ROW) {
		memset(&b, 0, sizeof b);
		if (sql_column_text(st, 0, b.address, sizeof b.address) ||
		    sql_column_text(st, 2, b.how, sizeof b.how)) {
			db_reset(st);
			return store_fail(err, STORE_CORRUPT, "a damaged row "
			                  "in the block list");
		}
		b.created = db_column_int64(st, 1);
		if (fn && fn(ctx, &b)) {
			rc = DB_DONE;
			break;
		}
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading the block list", err);
}
