/*
 * store_queue.c - queueing an email in the outbox, inside the
 * transaction of what caused it (a move, a game made, a reminder): not
 * to an address on the block list, within the limits of a seat's and an
 * address's mail (store_limits.c); one held back is kept, dropped, with
 * why.  The mailer's side of the outbox is store_outbox.c.
 */
#include <stdio.h>

#include "sql.h"

store_rc store_queue_mail(store *s, const char *id, const store_mail *m,
                          store_error *err)
{
	return sql_queue_mail_at(s, id, m, 0, 0, err);
}

store_rc sql_queue_mail_at(store *s, const char *id, const store_mail *m,
                           int move_seq, int64_t delay, store_error *err)
{
	int blocked;
	store_rc brc = store_block_check(s, m->to, &blocked, err);

	if (brc != STORE_OK || blocked)
		return brc;     /* that address asked for no email from us */
	if ((brc = sql_seat_mail_allowed(s, m, err)))
		return brc;
	/* one held back (the seat wants none, the address had its budget)
	 * is kept all the same, dropped, saying why */
	char key[STORE_EMAIL_MAX + 1], why[160];
	if (store_address_key(m->to, key, sizeof key))
		snprintf(key, sizeof key, "%s", m->to);
	const char *held = sql_mail_held(s, id, m, key, why, sizeof why);
	db_stmt *st = sql_get(s, SQL_OUTBOX_INSERT);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, m->seat);
	db_bind_text(st, 3, m->to, -1);
	db_bind_text(st, 4, m->subject, -1);
	db_bind_text(st, 5, m->body, -1);
	db_bind_int64(st, 6, store_now());
	db_bind_text(st, 7, m->kind, -1);
	db_bind_text(st, 8, m->reply_to, -1);
	db_bind_int64(st, 9, delay > 0 ? delay : 0);
	db_bind_int(st, 10, move_seq);
	db_bind_text(st, 11, key, -1);
	if (held) {
		db_bind_int64(st, 12, store_now());
		db_bind_text(st, 13, held, -1);
	} else {
		db_bind_text(st, 13, "", -1);
	}
	int rc = sql_run(s, SQL_OUTBOX_INSERT);
	return rc == DB_DONE ? STORE_OK
	                         : store_db_fail(s, rc, "queueing an email", err);
}

