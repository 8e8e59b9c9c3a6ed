/*
 * store_signin.c - sign-in links and signed-in browsers (store_signin.h).
 *
 * Every ask is a row of signin_links, sent or not, so that one client's
 * asks are counted whatever the address; only a sent one can be used.
 * Rows past their day are pruned by the next ask; sign-ins unused for
 * STORE_SIGNIN_IDLE_SECS by the next sign-in.
 */
#include <string.h>

#include <sodium.h>

#include "sql.h"
#include "store_signin.h"

enum { HASH_BYTES = 32, SECRET_BYTES = 32 };

/* A new secret: 32 random bytes in base64url. */
static void new_secret(char out[STORE_SIGNIN_SECRET_LEN + 1])
{
	unsigned char raw[SECRET_BYTES];

	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(out, STORE_SIGNIN_SECRET_LEN + 1, raw, sizeof raw,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(raw, sizeof raw);
}

/* The hash a secret is kept as; -1 if secret is not one of ours (the
 * length and alphabet of new_secret's). */
static int hash_of(const char *secret, char out[STORE_SIGNIN_SECRET_LEN + 1])
{
	unsigned char h[HASH_BYTES];
	size_t n = secret ? strlen(secret) : 0;

	if (n != STORE_SIGNIN_SECRET_LEN ||
	    strspn(secret, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	           "0123456789-_") != n)
		return -1;
	crypto_generichash(h, sizeof h, (const unsigned char *)secret, n,
	                   NULL, 0);
	sodium_bin2base64(out, STORE_SIGNIN_SECRET_LEN + 1, h, sizeof h,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	return 0;
}

/* The one count a statement bound to (text, since) reads, or -1. */
static int64_t count_since(store *s, enum sql_stmt which, const char *text,
                           int64_t since)
{
	db_stmt *st = sql_get(s, which);
	int64_t n = -1;

	if (!st)
		return -1;
	db_bind_text(st, 1, text, -1);
	db_bind_int64(st, 2, since);
	if (db_step(st) == DB_ROW)
		n = db_column_int64(st, 0);
	db_reset(st);
	return n;
}

static store_rc run_bound(store *s, enum sql_stmt which, const char *what,
                          store_error *err)
{
	int rc = sql_run(s, which);

	return rc == DB_DONE ? STORE_OK : store_db_fail(s, rc, what, err);
}

static store_rc prune_links(store *s, int64_t now, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_SIGNIN_LINKS_PRUNE);

	db_bind_int64(st, 1, now);
	return run_bound(s, SQL_SIGNIN_LINKS_PRUNE, "pruning sign-in links",
	                 err);
}

/* 1 if key holds a person's seat somewhere, 0 if not, -1 on error. */
static int has_seat(store *s, const char *key)
{
	store_seat_ref one;
	int n = 0;

	if (store_address_seats(s, key, &one, 1, &n, NULL) != STORE_OK)
		return -1;
	return n > 0;
}

/* 1 if a link is to be sent to key now, 0 if not, -1 on error. */
static int to_send(store *s, const char *address, const char *key,
                   int64_t now)
{
	int blocked, seat;
	int64_t sent;

	if (store_block_check(s, address, &blocked, NULL) != STORE_OK)
		return -1;
	if (blocked)
		return 0;
	if ((seat = has_seat(s, key)) <= 0)
		return seat;
	sent = count_since(s, SQL_SIGNIN_ASKS_ADDRESS, key, now - 3600);
	if (sent < 0)
		return -1;
	return sent < STORE_SIGNIN_MAILS_PER_HOUR;
}

static store_rc add_link(store *s, const char *hash, const char *key,
                         const char *client, int sent, int64_t now,
                         store_error *err)
{
	db_stmt *st = sql_get(s, SQL_SIGNIN_LINK_ADD);

	db_bind_text(st, 1, hash, -1);
	db_bind_text(st, 2, key, -1);
	db_bind_text(st, 3, client, -1);
	db_bind_int(st, 4, sent);
	db_bind_int64(st, 5, now);
	db_bind_int64(st, 6, now + STORE_SIGNIN_LINK_SECS);
	return run_bound(s, SQL_SIGNIN_LINK_ADD, "keeping a sign-in link",
	                 err);
}

/* store_signin_ask inside its transaction. */
static store_rc ask_locked(store *s, const char *address, const char *key,
                           const char *client, store_signin_mail_fn *mail_fn,
                           void *ctx, int *sent, store_error *err)
{
	char secret[STORE_SIGNIN_SECRET_LEN + 1], hash[STORE_SIGNIN_SECRET_LEN + 1];
	int64_t now = store_now(), asks;
	store_rc rc;
	int send, made = 0;

	if ((rc = prune_links(s, now, err)))
		return rc;
	asks = count_since(s, SQL_SIGNIN_ASKS_CLIENT, client, now - 3600);
	if (asks < 0)
		return store_db_fail(s, db_errcode(s->db), "counting asks", err);
	if (asks >= STORE_SIGNIN_ASKS_PER_HOUR) {
		rc = store_fail(err, STORE_LIMITED, "%d sign-in links asked "
		                "for from here in the last hour",
		                STORE_SIGNIN_ASKS_PER_HOUR);
		if (err)
			err->retry_at = now + 3600;
		return rc;
	}
	if ((send = to_send(s, address, key, now)) < 0)
		return store_db_fail(s, db_errcode(s->db), "looking up seats",
		                     err);
	new_secret(secret);
	hash_of(secret, hash);
	if (send) {
		made = mail_fn(ctx, address, secret, now + STORE_SIGNIN_LINK_SECS,
		               s->mail);
		if (made < 0)
			rc = store_fail(err, STORE_ERROR, "the sign-in email "
			                "could not be composed");
	}
	if (rc == STORE_OK)
		rc = add_link(s, hash, key, client, made > 0, now, err);
	if (rc == STORE_OK && made > 0)
		rc = store_queue_mail(s, NULL, s->mail, err);
	sodium_memzero(secret, sizeof secret);
	*sent = rc == STORE_OK && made > 0;
	return rc;
}

store_rc store_signin_ask(store *s, const char *address, const char *client,
                          store_signin_mail_fn *mail_fn, void *ctx,
                          int *sent, store_error *err)
{
	char key[STORE_EMAIL_MAX + 1];
	store_rc rc;

	*sent = 0;
	if ((rc = sql_key_of(address, key, err)))
		return rc;
	if (!mail_fn || !client)
		return store_fail(err, STORE_INVALID, "an ask needs its client "
		                  "and its email");
	if ((rc = sql_begin(s, err)))
		return rc;
	if ((rc = ask_locked(s, address, key, client, mail_fn, ctx, sent,
	                     err)) == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	*sent = 0;
	return rc;
}

/* The current row of a sign-in statement (id, address, link, created,
 * last_seen, agent) into si and its link's hash into link; -1 if damaged. */
static int read_signin(db_stmt *st, store_signin *si,
                       char link[STORE_SIGNIN_SECRET_LEN + 1])
{
	char drop[STORE_SIGNIN_SECRET_LEN + 1];

	memset(si, 0, sizeof *si);
	if (sql_column_text(st, 0, si->id, sizeof si->id) ||
	    sql_column_text(st, 1, si->address, sizeof si->address) ||
	    sql_column_text(st, 2, link ? link : drop,
	                    STORE_SIGNIN_SECRET_LEN + 1) ||
	    sql_column_text(st, 5, si->agent, sizeof si->agent))
		return -1;
	si->created = db_column_int64(st, 3);
	si->last_seen = db_column_int64(st, 4);
	return 0;
}

/* The sign-in kept as hash into si (link: its link's hash, may be NULL):
 * STORE_OK, STORE_NOT_FOUND, or an error. */
static store_rc signin_by_hash(store *s, const char *hash, store_signin *si,
                               char *link, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_SIGNIN_GET);
	store_rc rc = STORE_OK;
	int code;

	db_bind_text(st, 1, hash, -1);
	code = db_step(st);
	if (code == DB_ROW && read_signin(st, si, link))
		rc = store_fail(err, STORE_CORRUPT, "a damaged sign-in row");
	else if (code == DB_DONE)
		rc = store_fail(err, STORE_NOT_FOUND, "no such sign-in");
	else if (code != DB_ROW)
		rc = store_db_fail(s, code, "reading a sign-in", err);
	db_reset(st);
	if (rc == STORE_OK &&
	    si->last_seen < store_now() - STORE_SIGNIN_IDLE_SECS)
		rc = store_fail(err, STORE_NOT_FOUND, "a sign-in unused too "
		                "long");
	return rc;
}

/* The address key and expiry of the sent link kept as hash. */
static store_rc link_by_hash(store *s, const char *hash,
                             char key[STORE_EMAIL_MAX + 1], int64_t *expires,
                             store_error *err)
{
	db_stmt *st = sql_get(s, SQL_SIGNIN_LINK_GET);
	store_rc rc = STORE_OK;
	int code;

	db_bind_text(st, 1, hash, -1);
	code = db_step(st);
	if (code == DB_ROW) {
		*expires = db_column_int64(st, 1);
		if (sql_column_text(st, 0, key, STORE_EMAIL_MAX + 1))
			rc = store_fail(err, STORE_CORRUPT, "a damaged link row");
	} else if (code == DB_DONE) {
		rc = store_fail(err, STORE_NOT_FOUND, "no such sign-in link");
	} else {
		rc = store_db_fail(s, code, "reading a sign-in link", err);
	}
	db_reset(st);
	if (rc == STORE_OK && *expires < store_now())
		rc = store_fail(err, STORE_NOT_FOUND, "the sign-in link is "
		                "past its day");
	return rc;
}

static store_rc add_signin(store *s, const char *link_hash, const char *key,
                           const char *agent, char *cookie, store_signin *si,
                           store_error *err)
{
	char hash[STORE_SIGNIN_SECRET_LEN + 1];
	int64_t now = store_now();
	db_stmt *st = sql_get(s, SQL_SIGNIN_IDLE);
	store_rc rc;

	db_bind_int64(st, 1, now - STORE_SIGNIN_IDLE_SECS);
	if ((rc = run_bound(s, SQL_SIGNIN_IDLE, "pruning sign-ins", err)))
		return rc;
	memset(si, 0, sizeof *si);
	new_secret(cookie);
	hash_of(cookie, hash);
	store_random_id(si->id);
	snprintf(si->address, sizeof si->address, "%s", key);
	snprintf(si->agent, sizeof si->agent, "%s", agent ? agent : "");
	si->created = si->last_seen = now;
	st = sql_get(s, SQL_SIGNIN_ADD);
	db_bind_text(st, 1, hash, -1);
	db_bind_text(st, 2, si->id, -1);
	db_bind_text(st, 3, key, -1);
	db_bind_text(st, 4, link_hash, -1);
	db_bind_int64(st, 5, now);
	db_bind_text(st, 6, si->agent, -1);
	return run_bound(s, SQL_SIGNIN_ADD, "keeping a sign-in", err);
}

/* store_signin_use inside its transaction. */
static store_rc use_locked(store *s, const char *link_hash, const char *held,
                           const char *agent, char *cookie, store_signin *si,
                           store_error *err)
{
	char key[STORE_EMAIL_MAX + 1], hash[STORE_SIGNIN_SECRET_LEN + 1];
	char came_by[STORE_SIGNIN_SECRET_LEN + 1];
	int64_t expires = 0, uses;
	store_rc rc;

	if ((rc = link_by_hash(s, link_hash, key, &expires, err)))
		return rc;
	if (held && hash_of(held, hash) == 0 &&
	    signin_by_hash(s, hash, si, came_by, NULL) == STORE_OK &&
	    strcmp(came_by, link_hash) == 0) {
		si->this_link = 1;
		return store_fail(err, STORE_DUPLICATE, "this browser used "
		                  "this link already");
	}
	uses = count_since(s, SQL_SIGNIN_LINK_USES, link_hash, 0);
	if (uses < 0)
		return store_db_fail(s, db_errcode(s->db), "counting a link's "
		                     "uses", err);
	if (uses >= STORE_SIGNIN_LINK_BROWSERS)
		return store_fail(err, STORE_LIMITED, "the link has signed in "
		                  "%d browsers already",
		                  STORE_SIGNIN_LINK_BROWSERS);
	return add_signin(s, link_hash, key, agent, cookie, si, err);
}

store_rc store_signin_use(store *s, const char *link, const char *held,
                          const char *agent, char *cookie,
                          store_signin *si, store_error *err)
{
	char link_hash[STORE_SIGNIN_SECRET_LEN + 1];
	store_rc rc;

	cookie[0] = '\0';
	memset(si, 0, sizeof *si);
	if (hash_of(link, link_hash))
		return store_fail(err, STORE_NOT_FOUND, "no such sign-in link");
	if ((rc = sql_begin(s, err)))
		return rc;
	rc = use_locked(s, link_hash, held, agent, cookie, si, err);
	if (rc == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	if (rc != STORE_DUPLICATE)
		cookie[0] = '\0';
	return rc;
}

store_rc store_signin_get(store *s, const char *cookie, store_signin *si,
                          store_error *err)
{
	char hash[STORE_SIGNIN_SECRET_LEN + 1];
	int64_t now = store_now();
	store_rc rc;

	memset(si, 0, sizeof *si);
	if (hash_of(cookie, hash))
		return store_fail(err, STORE_NOT_FOUND, "no such sign-in");
	if ((rc = signin_by_hash(s, hash, si, NULL, err)))
		return rc;
	if (si->last_seen > now - STORE_SIGNIN_SEEN_EVERY)
		return STORE_OK;
	/* seen again after an hour or more: one write, not one a page */
	db_stmt *st = sql_get(s, SQL_SIGNIN_SEEN);
	db_bind_text(st, 1, hash, -1);
	db_bind_int64(st, 2, now);
	si->last_seen = now;
	return run_bound(s, SQL_SIGNIN_SEEN, "noting a sign-in seen", err);
}

store_rc store_signin_list(store *s, const char *address, store_signin *out,
                           int max, int *n, store_error *err)
{
	char key[STORE_EMAIL_MAX + 1];
	store_rc rc;
	db_stmt *st;
	int code = DB_DONE;

	*n = 0;
	if ((rc = sql_key_of(address, key, err)) || max <= 0)
		return rc;
	st = sql_get(s, SQL_SIGNIN_LIST);
	db_bind_text(st, 1, key, -1);
	db_bind_int(st, 2, max);
	while (*n < max && (code = db_step(st)) == DB_ROW) {
		if (read_signin(st, &out[*n], NULL)) {
			db_reset(st);
			return store_fail(err, STORE_CORRUPT, "a damaged "
			                  "sign-in row");
		}
		if (out[*n].last_seen >= store_now() - STORE_SIGNIN_IDLE_SECS)
			(*n)++;
	}
	db_reset(st);
	return code == DB_ROW || code == DB_DONE ? STORE_OK
	       : store_db_fail(s, code, "listing sign-ins", err);
}

store_rc store_signin_drop(store *s, const char *address, const char *id,
                           store_error *err)
{
	enum sql_stmt which = id ? SQL_SIGNIN_DROP : SQL_SIGNIN_DROP_ALL;
	char key[STORE_EMAIL_MAX + 1];
	store_rc rc;

	if ((rc = sql_key_of(address, key, err)))
		return rc;
	db_stmt *st = sql_get(s, which);
	db_bind_text(st, 1, key, -1);
	if (id)
		db_bind_text(st, 2, id, -1);
	if ((rc = run_bound(s, which, "signing out", err)))
		return rc;
	return db_changes(s->db) > 0 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "no such sign-in");
}

store_rc store_address_seats(store *s, const char *address,
                             store_seat_ref *out, int max, int *n,
                             store_error *err)
{
	char key[STORE_EMAIL_MAX + 1];
	store_rc rc;
	db_stmt *st;
	int code = DB_DONE;

	*n = 0;
	if ((rc = sql_key_of(address, key, err)) || max <= 0)
		return rc;
	st = sql_get(s, SQL_SEATS_OF_ADDRESS);
	db_bind_text(st, 1, key, -1);
	db_bind_int(st, 2, max);
	while (*n < max && (code = db_step(st)) == DB_ROW) {
		store_seat_ref *r = &out[*n];
		if (sql_column_text(st, 0, r->game, sizeof r->game)) {
			db_reset(st);
			return store_fail(err, STORE_CORRUPT, "a damaged seat row");
		}
		r->seat = db_column_int(st, 1);
		(*n)++;
	}
	db_reset(st);
	return code == DB_ROW || code == DB_DONE ? STORE_OK
	       : store_db_fail(s, code, "reading an address's seats", err);
}
