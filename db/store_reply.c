/*
 * store_reply.c - a reply to one of our emails, done once: its
 * Message-ID is recorded in the transaction of what it does (table
 * talk, a move or a look, the answer), so an MTA that delivers it again
 * after a crash, or a person who sends it twice, changes nothing more.
 * It is recorded for the game and seat it acts for: anyone may write
 * any Message-ID, and one sent first for another seat or game must not
 * make this seat's reply look handled.
 */
#include <string.h>

#include "sql.h"

/* Records the Message-ID for the reply's game and seat;
 * STORE_DUPLICATE if it was there already for them. */
static store_rc claim(store *s, const store_reply *r, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_REPLY_CLAIM);

	db_bind_text(st, 1, r->message_id, -1);
	db_bind_text(st, 2, r->game ? r->game : "", -1);
	db_bind_int(st, 3, r->seat);
	db_bind_text(st, 4, r->outcome ? r->outcome : "", -1);
	db_bind_int64(st, 5, store_now());
	int rc = sql_run(s, SQL_REPLY_CLAIM);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "recording the reply", err);
	return db_changes(s->db) == 1 ? STORE_OK
	       : store_fail(err, STORE_DUPLICATE, "that email was handled "
	                    "before");
}

/* The say lines, as far as the table's rate limit lets them. */
static store_rc talk(store *s, const store_reply *r, int *said,
                     store_error *err)
{
	for (int i = 0; i < r->n_says && i < STORE_REPLY_SAYS; i++) {
		size_t n = r->says[i] ? strnlen(r->says[i], STORE_CHAT_MAX + 1)
		                      : 0;
		store_rc rc;
		if (n == 0 || n > STORE_CHAT_MAX)
			continue;
		rc = sql_chat_locked(s, r->game, r->seat, r->says[i], err);
		if (rc == STORE_LIMITED)
			break;
		if (rc != STORE_OK)
			return rc;
		(*said)++;
	}
	return STORE_OK;
}

/* Queues the answer.  A reply that made a move or a look is always
 * answered: the game bounds how many there are.  Any other (table talk,
 * thanks, a loop) is answered while its address has had fewer than
 * STORE_ANSWERS_PER_DAY such answers today: talk is bounded only by its
 * rate (thousands of lines a day), and a mail program that answers
 * every answer, unmarked, would otherwise have us write to it without
 * end.  Every answer counts toward its address's budget as well. */
static store_rc answer(store *s, const store_reply *r, store_error *err)
{
	char key[STORE_EMAIL_MAX + 1];
	store_error e;
	store_rc rc;

	if (r->move || r->look != BT_NO_CARD)
		return store_queue_mail(s, r->game, r->answer, err);
	if (store_address_key(r->answer->to, key, sizeof key))
		return store_fail(err, STORE_INVALID, "'%.60s' is not an "
		                  "email address", r->answer->to);
	rc = store_limit_take(s, STORE_LIMIT_ANSWER, key,
	                      STORE_ANSWERS_PER_DAY, STORE_LIMIT_DAY, &e);
	if (rc == STORE_LIMITED) {
		if (r->answer_held)
			*r->answer_held = 1;
		return STORE_OK;
	}
	if (rc) {
		*err = e;
		return rc;
	}
	return store_queue_mail(s, r->game, r->answer, err);
}

static store_rc reply_locked(store *s, const store_reply *r, int *said,
                             store_error *err)
{
	bt_game next;
	store_rc rc;

	if ((rc = claim(s, r, err)))
		return rc;
	if (r->n_says > 0 && (rc = talk(s, r, said, err)))
		return rc;
	if (r->move)
		rc = sql_append_locked(s, r->game, r->expected_seq, r->move, "",
		                       r->mail_fn, r->mail_ctx, &next, err);
	else if (r->look != BT_NO_CARD)
		rc = sql_sweep_locked(s, r->game, r->expected_seq, r->seat,
		                      r->look, err);
	if (rc == STORE_OK && r->answer)
		rc = answer(s, r, err);
	return rc;
}

store_rc store_take_reply(store *s, const store_reply *r, int *said,
                          store_error *err)
{
	int local = 0;
	store_rc rc;

	if (!said)
		said = &local;
	*said = 0;
	if (!r->message_id || !r->message_id[0] ||
	    strnlen(r->message_id, STORE_MESSAGE_ID_MAX + 1) >
	    STORE_MESSAGE_ID_MAX || (r->move && r->look != BT_NO_CARD) ||
	    ((r->move || r->look != BT_NO_CARD || r->n_says > 0) &&
	     (!r->game || !r->game[0] || r->seat < 1)))
		return store_fail(err, STORE_INVALID, "a reply needs its "
		                  "Message-ID, and a game and seat to act");
	if ((rc = sql_begin(s, err)))
		return rc;
	rc = reply_locked(s, r, said, err);
	if (rc == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	*said = 0;
	return rc;
}
