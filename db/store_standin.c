/*
 * store_standin.c - a bot standing in for an absent player, so a friend
 * who drops out does not stall the game.  The rule is the game's, chosen
 * at creation: off; "agree": after the turn's last reminder, once every
 * other person at the table has asked (any of them may ask; the absent
 * player is told by email); "days": after standin_days days without a
 * move.  From then the stand-in's turns are jobs for the worker, as a
 * bot seat's are, until the player opens their link or moves again.
 */
#include <string.h>

#include "sql.h"

enum { STANDIN_ROUND_MAX = 1000 };   /* games one pass starts at most */

const char *sql_seat_bot(const store_seat *p)
{
	if (p->bot[0])
		return p->bot;
	return p->standin_since ? "search" : "";
}

store_rc sql_standin_set(store *s, const char *id, int seat, int64_t since,
                         store_error *err)
{
	db_stmt *st = sql_get(s, SQL_STANDIN_SET);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int64(st, 3, since);
	int rc = sql_run(s, SQL_STANDIN_SET);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "setting a stand-in", err);
}

/* The bot takes over g's seat to move: from now, this very turn (a
 * job), and the absent player is told (fn's email). */
static store_rc start_locked(store *s, store_game *g, store_seat_mail_fn fn,
                             void *ctx, store_error *err)
{
	int seat = g->state.turn;
	store_rc rc;

	g->seats[seat - 1].standin_since = store_now();
	if ((rc = sql_standin_set(s, g->id, seat, store_now(), err)) ||
	    (rc = sql_queue_bot_turn(s, g->id, "search", &g->state, g->seq,
	                             0, err)))
		return rc;
	int made = fn ? fn(ctx, g, seat, s->mail) : 0;
	if (made < 0)
		return store_fail(err, STORE_ERROR, "the stand-in's email could "
		                  "not be written");
	return made ? store_queue_mail(s, g->id, s->mail, err) : STORE_OK;
}

/* Why seat asker may not ask for a stand-in in g now, or NULL. */
static const char *ask_refused(const store_game *g, int expected_seq,
                               int asker)
{
	int t = g->state.turn;

	if (strcmp(g->standin, "agree") != 0)
		return "this game has no stand-ins by agreement";
	if (g->state.status != BT_PLAYING || g->seq != expected_seq)
		return "the game moved on";
	if (asker < 1 || asker > g->players || asker == t ||
	    g->seats[asker - 1].bot[0])
		return "only another player at the table may ask";
	if (g->seats[t - 1].bot[0] || g->seats[t - 1].standin_since)
		return "a bot plays that seat already";
	if (g->reminders < 2)
		return "a stand-in may be asked for after the turn's last "
		       "reminder";
	return NULL;
}

/* 1 if every person at g's table but the seat to move has asked. */
static int all_asked(const store_game *g)
{
	for (int seat = 1; seat <= g->players; seat++) {
		const store_seat *p = &g->seats[seat - 1];
		if (seat != g->state.turn && !p->bot[0] &&
		    p->standin_ask != g->turn_since)
			return 0;
	}
	return 1;
}

static store_rc ask_locked(store *s, const char *id, int expected_seq,
                           int asker, store_seat_mail_fn fn, void *ctx,
                           int *started, store_error *err)
{
	store_game *g = s->scratch;
	const char *why;
	store_rc rc;

	if ((rc = store_load(s, id, g, err)))
		return rc;
	if ((why = ask_refused(g, expected_seq, asker)) != NULL)
		return store_fail(err, STORE_INVALID, "%s", why);
	db_stmt *st = sql_get(s, SQL_STANDIN_ASK);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, asker);
	db_bind_int64(st, 3, g->turn_since);
	int q = sql_run(s, SQL_STANDIN_ASK);
	if (q != DB_DONE)
		return store_db_fail(s, q, "asking for a stand-in", err);
	g->seats[asker - 1].standin_ask = g->turn_since;
	if (!all_asked(g))
		return STORE_OK;
	*started = 1;
	return start_locked(s, g, fn, ctx, err);
}

store_rc store_standin_ask(store *s, const char *id, int expected_seq,
                           int asker, store_seat_mail_fn fn, void *ctx,
                           int *started, store_error *err)
{
	int made = 0;
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	rc = ask_locked(s, id, expected_seq, asker, fn, ctx, &made, err);
	if (rc == STORE_OK)
		rc = sql_commit(s, err);
	else
		sql_rollback(s);
	if (started)
		*started = rc == STORE_OK && made;
	return rc;
}

/* One game of the "days" pass, if still due: 1 started, 0 not. */
static store_rc due_locked(store *s, const char *id, int64_t now,
                           store_seat_mail_fn fn, void *ctx, int *started,
                           store_error *err)
{
	store_game *g = s->scratch;
	store_rc rc;

	*started = 0;
	if ((rc = store_load(s, id, g, err)))
		return rc == STORE_NOT_FOUND ? STORE_OK : rc;
	const store_seat *p = &g->seats[g->state.turn - 1];
	if (g->state.status != BT_PLAYING || strcmp(g->standin, "days") ||
	    p->bot[0] || p->standin_since ||
	    g->turn_since + (int64_t)g->standin_days * 86400 > now)
		return STORE_OK;
	*started = 1;
	return start_locked(s, g, fn, ctx, err);
}

store_rc store_queue_standins(store *s, int64_t now, store_seat_mail_fn fn,
                              void *ctx, int *n, store_error *err)
{
	char ids[64][STORE_ID_LEN + 1];
	int found = 0, started, total = 0;
	store_rc rc = STORE_OK;

	db_stmt *st = sql_get(s, SQL_STANDIN_DUE);
	db_bind_int64(st, 1, now);
	db_bind_int(st, 2, 64);
	while (found < 64 && db_step(st) == DB_ROW)
		if (sql_column_text(st, 0, ids[found], sizeof ids[0]) == 0)
			found++;
	db_reset(st);
	for (int i = 0; i < found && i < STANDIN_ROUND_MAX; i++) {
		if ((rc = sql_begin(s, err)))
			break;
		rc = due_locked(s, ids[i], now, fn, ctx, &started, err);
		if (rc == STORE_OK && (rc = sql_commit(s, err)) == STORE_OK)
			total += started;
		else if (rc != STORE_OK)
			sql_rollback(s);
		if (rc)
			break;
	}
	if (n)
		*n = total;
	return rc;
}

store_rc store_standin_end(store *s, const char *id, int seat,
                           store_error *err)
{
	return sql_standin_set(s, id, seat, 0, err);
}
