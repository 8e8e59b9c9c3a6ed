/*
 * store_limits.c - counting what strangers make the server do (games
 * made, "your seat" emails, wrong invitation codes, answers to replies
 * that did nothing) in sliding windows, so the web program and the
 * inbound mail can refuse the next one (with a time to try again).
 * Events live in limit_events; those older than a day count for nothing
 * and are pruned as new ones arrive.  The budget of emails to one
 * address counts the outbox itself (every email is a row there).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sql.h"

static const char *const kind_names[] = {
	[STORE_LIMIT_GAME] = "game",
	[STORE_LIMIT_SEAT] = "seat",
	[STORE_LIMIT_CODE] = "code",
	[STORE_LIMIT_ANSWER] = "answer",
};

void store_set_limits(store *s, const store_limits *l)
{
	memset(&s->limits, 0, sizeof s->limits);
	if (l)
		s->limits = *l;
}

/* How many events of kind for subject happened after since (-1 on
 * error). */
static int64_t count_since(store *s, store_limit_kind kind,
                           const char *subject, int64_t since)
{
	db_stmt *st = sql_get(s, SQL_LIMIT_COUNT);
	int64_t n = -1;

	db_bind_text(st, 1, kind_names[kind], -1);
	db_bind_text(st, 2, subject, -1);
	db_bind_int64(st, 3, since);
	if (db_step(st) == DB_ROW)
		n = db_column_int64(st, 0);
	db_reset(st);
	return n;
}

/* When the window will hold fewer than max again: the time of the
 * (n - max + 1)th newest event in it, plus the window. */
static int64_t free_again(store *s, store_limit_kind kind,
                          const char *subject, int64_t since, int64_t n,
                          int max, int64_t window)
{
	db_stmt *st = sql_get(s, SQL_LIMIT_NTH);
	int64_t at = since + window;

	db_bind_text(st, 1, kind_names[kind], -1);
	db_bind_text(st, 2, subject, -1);
	db_bind_int64(st, 3, since);
	db_bind_int64(st, 4, n - max);
	if (db_step(st) == DB_ROW)
		at = db_column_int64(st, 0) + window;
	db_reset(st);
	return at;
}

store_rc store_limit_peek(store *s, store_limit_kind kind,
                          const char *subject, int max, int64_t window,
                          store_error *err)
{
	int64_t now = store_now(), since = now - window, n;

	if (err)
		err->retry_at = 0;
	if (max <= 0)
		return STORE_OK;
	if ((n = count_since(s, kind, subject, since)) < 0)
		return store_db_fail(s, db_errcode(s->db),
		                     "counting for a limit", err);
	if (n < max)
		return STORE_OK;
	store_fail(err, STORE_LIMITED, "%lld in %lld seconds is the limit",
	           (long long)max, (long long)window);
	if (err)
		err->retry_at = free_again(s, kind, subject, since, n, max,
		                           window);
	return STORE_LIMITED;
}

/* Counts the event and forgets those too old to count. */
static store_rc add_event(store *s, store_limit_kind kind,
                          const char *subject, store_error *err)
{
	int64_t now = store_now();
	db_stmt *st = sql_get(s, SQL_LIMIT_ADD);

	db_bind_text(st, 1, kind_names[kind], -1);
	db_bind_text(st, 2, subject, -1);
	db_bind_int64(st, 3, now);
	int rc = sql_run(s, SQL_LIMIT_ADD);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "counting for a limit", err);
	st = sql_get(s, SQL_LIMIT_PRUNE);
	db_bind_int64(st, 1, now - STORE_LIMIT_DAY);
	rc = sql_run(s, SQL_LIMIT_PRUNE);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "forgetting old counts", err);
}

static store_rc take_locked(store *s, store_limit_kind kind,
                            const char *subject, int max, int64_t window,
                            store_error *err)
{
	store_rc rc = store_limit_peek(s, kind, subject, max, window, err);

	return rc ? rc : add_event(s, kind, subject, err);
}

store_rc store_limit_take(store *s, store_limit_kind kind,
                          const char *subject, int max, int64_t window,
                          store_error *err)
{
	store_rc rc;

	if (max <= 0)
		return STORE_OK;
	if (db_in_transaction(s->db))
		return take_locked(s, kind, subject, max, window, err);
	if ((rc = sql_begin(s, err)))
		return rc;
	if ((rc = take_locked(s, kind, subject, max, window, err))) {
		sql_rollback(s);
		return rc;
	}
	return sql_commit(s, err);
}

void sql_limited_why(store_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof err->why, fmt, ap);
	va_end(ap);
}

/* A "your seat" email counts against its address's daily allowance:
 * games cannot be made to mail one stranger again and again. */
store_rc sql_seat_mail_allowed(store *s, const store_mail *m,
                               store_error *err)
{
	char key[STORE_EMAIL_MAX + 1];

	if (strcmp(m->kind, "seat") != 0 || !s->limits.seat_mails_per_day)
		return STORE_OK;
	if (store_address_key(m->to, key, sizeof key))
		return store_fail(err, STORE_INVALID, "'%.60s' is not an "
		                  "email address", m->to);
	store_rc rc = store_limit_take(s, STORE_LIMIT_SEAT, key,
	                               s->limits.seat_mails_per_day,
	                               STORE_LIMIT_DAY, err);
	if (rc == STORE_LIMITED)
		sql_limited_why(err, "%.200s has had %d new-game emails today, the "
		            "most this server sends to one address.", m->to,
		            s->limits.seat_mails_per_day);
	return rc;
}

/* 1 if seat of game id asked for no email (the unsubscribe link, or
 * "none" in its settings). */
static int seat_wants_none(store *s, const char *id, int seat)
{
	db_stmt *st;
	int none = 0;

	if (!id || !id[0] || seat < 1)
		return 0;
	st = sql_get(s, SQL_MAIL_SEAT_NOTIFY);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	if (db_step(st) == DB_ROW) {
		const char *n = (const char *)db_column_text(st, 0);
		none = n && strcmp(n, store_notify_name(STORE_NOTIFY_NONE)) == 0;
	}
	db_reset(st);
	return none;
}

/* The emails to key that went or will go in the window before now; -1
 * on error (then the email is held: a budget that cannot be read is
 * not spent). */
static int64_t mailed_since(store *s, const char *key, int64_t since)
{
	db_stmt *st = sql_get(s, SQL_MAIL_BUDGET_COUNT);
	int64_t n = -1;

	db_bind_text(st, 1, key, -1);
	db_bind_int64(st, 2, since);
	if (db_step(st) == DB_ROW)
		n = db_column_int64(st, 0);
	db_reset(st);
	return n;
}

/* Every email counts, whatever its kind or cause: an answer, a turn, a
 * reminder to one address are one budget, so no path (replies written
 * in a seat's name, games made for a stranger) can have the server
 * write to an address more than the budget allows. */
const char *sql_mail_held(store *s, const char *id, const store_mail *m,
                          const char *key, char *why, size_t cap)
{
	static const struct { int64_t window; const char *per; } span[] = {
		{ STORE_LIMIT_HOUR, "an hour" }, { STORE_LIMIT_DAY, "a day" },
	};
	const int max[] = { s->limits.mails_per_hour, s->limits.mails_per_day };
	int64_t now = store_now();

	if (seat_wants_none(s, id, m->seat)) {
		snprintf(why, cap, "the seat asked for no email");
		return why;
	}
	for (int i = 0; i < 2; i++) {
		if (max[i] <= 0)
			continue;
		int64_t n = mailed_since(s, key, now - span[i].window);
		if (n >= 0 && n < max[i])
			continue;
		snprintf(why, cap, "over the address's budget: %d emails %s is "
		         "the most this server sends to one address", max[i],
		         span[i].per);
		return why;
	}
	return NULL;
}
