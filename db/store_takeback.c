/*
 * store_takeback.c - a misclick undone: a person takes back their last
 * move while it showed nobody anything (rules: bt_take_back_ok) and
 * nothing has followed it.  The line leaves the game's history for its
 * taken-back list in one transaction with everything the move left
 * behind (its held emails, a bot's answer, hints), so the game is as if
 * the move had not been made, and the history can still tell it.
 */
#include <string.h>

#include "sql.h"

void store_set_holds(store *s, const store_holds *h)
{
	s->holds = *h;
}

/* The last line of a game, as stored. */
typedef struct last_line {
	int seq, seat;
	int64_t created;
	char line[BT_ACTION_TEXT_MAX];
	char made_by[16];
	bt_action a;
} last_line;

static store_rc read_last(store *s, const char *id, last_line *l,
                          store_error *err)
{
	db_stmt *st = sql_get(s, SQL_TAKEBACK_LAST);
	bt_error gerr;
	int bad = 0;

	memset(l, 0, sizeof *l);
	db_bind_text(st, 1, id, -1);
	int rc = db_step(st);
	if (rc == DB_ROW) {
		l->seq = db_column_int(st, 0);
		l->seat = db_column_int(st, 1);
		l->created = db_column_int64(st, 3);
		bad = sql_column_text(st, 2, l->line, sizeof l->line) ||
		      sql_column_text(st, 4, l->made_by, sizeof l->made_by) ||
		      bt_action_parse(l->line, strlen(l->line), &l->a, &gerr);
	}
	db_reset(st);
	if (rc == DB_DONE)
		return store_fail(err, STORE_ILLEGAL, "no move has been made");
	if (rc != DB_ROW)
		return store_db_fail(s, rc, "reading the last move", err);
	return bad ? store_fail(err, STORE_CORRUPT, "game %.40s: its last "
	                        "line is damaged", id)
	           : STORE_OK;
}

/* Keeps the state before the walk's last line. */
typedef struct before_last {
	int last;
	bt_game before;
} before_last;

static int keep_before(void *ctx, int seq, int64_t created,
                       const bt_game *before, const bt_game *after,
                       const bt_action *a)
{
	before_last *b = ctx;

	(void)created, (void)after, (void)a;
	if (seq == b->last)
		b->before = *before;
	return 0;
}

/* Whether seat may take back the last line l of g; the state before it
 * into *before.  STORE_OK, STORE_ILLEGAL with the reason, or an error. */
static store_rc check(store *s, const store_game *g, int seat,
                      const last_line *l, bt_game *before, store_error *err)
{
	before_last b;
	store_rc rc;

	if (g->state.status != BT_PLAYING)
		return store_fail(err, STORE_ILLEGAL, "the game is over");
	if (l->seq != g->seq - 1 || l->seat != seat)
		return store_fail(err, STORE_ILLEGAL, "only the last move, by "
		                  "the seat that made it, can be taken back");
	if (l->made_by[0])
		return store_fail(err, STORE_ILLEGAL, "a bot made that move");
	if (g->sweep_card != BT_NO_CARD)
		return store_fail(err, STORE_ILLEGAL, "the next player has "
		                  "looked at the Shift Deck");
	b.last = l->seq;
	if ((rc = store_walk(s, g, g->seq, keep_before, &b, NULL, err)))
		return rc;
	if (!bt_take_back_ok(&b.before, &l->a, &g->state))
		return store_fail(err, STORE_ILLEGAL, "that move drew or showed "
		                  "a card, or ended the round: it stands");
	*before = b.before;
	return STORE_OK;
}

int store_can_take_back(store *s, const store_game *g, int seat)
{
	last_line l;
	bt_game before;

	if (g->state.status != BT_PLAYING || g->seq < 1 ||
	    g->sweep_card != BT_NO_CARD)
		return 0;
	return read_last(s, g->id, &l, NULL) == STORE_OK &&
	       check(s, g, seat, &l, &before, NULL) == STORE_OK;
}

/* Runs statement which on (id, n[, now]): DB_DONE or an error. */
static int run_on(store *s, enum sql_stmt which, const char *id, int n,
                  int64_t now)
{
	db_stmt *st = sql_get(s, which);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, n);
	if (db_parameter_count(st) >= 3)
		db_bind_int64(st, 3, now);
	return sql_run(s, which);
}

/* The line moves to taken_back (the trigger lets it leave only so). */
static int move_line(store *s, const char *id, const last_line *l,
                     int64_t now)
{
	db_stmt *st = sql_get(s, SQL_TAKEBACK_KEEP);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, l->seq);
	db_bind_int(st, 3, l->seat);
	db_bind_text(st, 4, l->line, -1);
	db_bind_int64(st, 5, l->created);
	db_bind_int64(st, 6, now);
	int rc = sql_run(s, SQL_TAKEBACK_KEEP);
	return rc != DB_DONE ? rc
	       : run_on(s, SQL_TAKEBACK_DELETE, id, l->seq, now);
}

static int restore_game(store *s, const char *id, int seq,
                        const bt_game *before, int64_t now)
{
	db_stmt *st = sql_get(s, SQL_TAKEBACK_GAME);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seq);
	db_bind_int64(st, 3, now);
	db_bind_blob(st, 4, before, sizeof *before);
	db_bind_int(st, 5, sql_snapshot_format());
	db_bind_int(st, 6, sql_turn_seat(before));
	int rc = sql_run(s, SQL_TAKEBACK_GAME);
	return rc == DB_DONE && db_changes(s->db) != 1
	       ? DB_CONSTRAINT : rc;
}

static store_rc take_back_locked(store *s, const char *id, int seat,
                                 int expected_seq, bt_game *before,
                                 store_error *err)
{
	store_game *g = s->scratch;
	int64_t now = store_now();
	last_line l;
	store_rc rc;
	int code;

	if ((rc = store_load(s, id, g, err)))
		return rc;
	if (g->seq != expected_seq)
		return store_fail(err, STORE_CONFLICT, "the game moved on: it "
		                  "has %d actions, not %d", g->seq,
		                  expected_seq);
	if ((rc = read_last(s, id, &l, err)) ||
	    (rc = check(s, g, seat, &l, before, err)))
		return rc;
	if ((code = move_line(s, id, &l, now)) != DB_DONE ||
	    (code = restore_game(s, id, g->seq, before, now)) != DB_DONE ||
	    (code = run_on(s, SQL_TAKEBACK_MAILS, id, g->seq, now))
	    != DB_DONE ||
	    (code = run_on(s, SQL_NOTICE_TAKEBACK, id, g->seq, now))
	    != DB_DONE ||
	    (code = run_on(s, SQL_TAKEBACK_JOBS, id, g->seq, now))
	    != DB_DONE ||
	    (code = run_on(s, SQL_TAKEBACK_HINTS, id, g->seq, now))
	    != DB_DONE)
		return store_db_fail(s, code, "taking the move back", err);
	return STORE_OK;
}

store_rc store_take_back(store *s, const char *id, int seat,
                         int expected_seq, store_game *after,
                         store_error *err)
{
	bt_game before;
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	rc = take_back_locked(s, id, seat, expected_seq, &before, err);
	if (rc == STORE_OK)
		rc = sql_commit(s, err);
	else
		sql_rollback(s);
	if (rc == STORE_OK && after)
		rc = store_load(s, id, after, err);
	return rc;
}

store_rc store_taken_list(store *s, const char *id,
                          int (*fn)(void *ctx, const store_taken *t),
                          void *ctx, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_TAKEBACK_LIST);
	store_taken t;
	int rc;

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, STORE_TAKEN_MAX);
	while ((rc = db_step(st)) == DB_ROW) {
		memset(&t, 0, sizeof t);
		t.seq = db_column_int(st, 0);
		t.seat = db_column_int(st, 1);
		t.created = db_column_int64(st, 3);
		t.taken = db_column_int64(st, 4);
		if (sql_column_text(st, 2, t.line, sizeof t.line))
			continue;
		if (fn(ctx, &t)) {
			rc = DB_DONE;
			break;
		}
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading the moves taken back", err);
}
