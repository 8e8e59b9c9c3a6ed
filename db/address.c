/*
 * address.c - an email address's key: what the block list and the
 * per-recipient limits compare.  Mail systems treat the domain without
 * case and, nearly all, the local part too; most deliver "ann+x@" to
 * "ann@".  A stranger must not get past a block or a limit by spelling
 * one mailbox many ways, so the key is lower case without the "+tag".
 * The SQL compares keys with address_key(), registered on every
 * connection here.
 */
#include <string.h>

#include "driver_sqlite.h"
#include "sql.h"

int store_address_key(const char *addr, char *key, size_t cap)
{
	const char *at = strrchr(addr, '@');
	size_t n = 0;
	int in_tag = 0;

	if (!at || at == addr || !at[1] || cap == 0)
		return -1;
	for (const char *p = addr; *p; p++) {
		char c = *p;
		if (p < at && c == '+')
			in_tag = 1;
		if (p == at)
			in_tag = 0;
		if (in_tag)
			continue;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (n + 1 >= cap)
			return -1;
		key[n++] = c;
	}
	key[n] = '\0';
	return key[0] == '@' ? -1 : 0;
}

/* address_key(text): its store_address_key, or NULL if not an address. */
static void sql_address_key(sqlite3_context *cx, int argc,
                            sqlite3_value **argv)
{
	const unsigned char *addr = argc == 1 ? sqlite3_value_text(argv[0])
	                                      : NULL;
	char key[STORE_EMAIL_MAX + 1];

	if (!addr || store_address_key((const char *)addr, key, sizeof key)) {
		sqlite3_result_null(cx);
		return;
	}
	sqlite3_result_text(cx, key, -1, SQLITE_TRANSIENT);
}

db_code sql_register_functions(db_conn *c)
{
	sqlite3 *db = db_sqlite_handle(c);

	if (!db)
		return DB_ERROR;
	int rc = sqlite3_create_function_v2(db, "address_key", 1,
	                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC |
	                                    SQLITE_INNOCUOUS, NULL,
	                                    sql_address_key, NULL, NULL, NULL);
	return rc == SQLITE_OK ? DB_OK : DB_ERROR;
}

store_rc sql_key_of(const char *address, char key[STORE_EMAIL_MAX + 1],
                    store_error *err)
{
	if (!address || store_address_key(address, key, STORE_EMAIL_MAX + 1))
		return store_fail(err, STORE_INVALID, "'%.80s' is not an "
		                  "email address", address ? address : "");
	return STORE_OK;
}
