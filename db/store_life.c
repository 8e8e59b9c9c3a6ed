/*
 * store_life.c - a game between its moves: mail settings, the history
 * replayed action by action, table talk, nudges, reminders, digests and
 * playing again.
 */
#include <stdio.h>
#include <string.h>

#include "sql.h"
#include "store_talk.h"

enum {
	DUE_BATCH = 256      /* games or seats one queueing pass looks at */
};

/* An UPDATE of one seat's row: STORE_NOT_FOUND if there is no such
 * seat. */
static store_rc seat_update(store *s, enum sql_stmt which, const char *what,
                            const char *id, int seat, store_error *err)
{
	int rc = sql_run(s, which);

	if (rc != DB_DONE)
		return store_db_fail(s, rc, what, err);
	return db_changes(s->db) == 1 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "no seat %d in game "
	                    "'%.40s'", seat, id);
}

store_rc store_set_notify(store *s, const char *id, int seat,
                          store_notify n, store_error *err)
{
	if ((unsigned)n >= STORE_NOTIFY__MAX)
		return store_fail(err, STORE_INVALID, "no such email setting");
	db_stmt *st = sql_get(s, SQL_NOTIFY_SET);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_text(st, 3, store_notify_name(n), -1);
	db_bind_int64(st, 4, store_now());
	return seat_update(s, SQL_NOTIFY_SET, "saving the email setting", id,
	                   seat, err);
}

/* ---- the history -------------------------------------------------------- */

/* The state before the next line.  A replay starts the game at its first
 * action line, so until then the start is worked out on a copy. */
static int state_before(const bt_replay *r, bt_game *before, bt_error *gerr)
{
	static bt_replay copy;

	if (r->started) {
		*before = r->game;
		return 0;
	}
	copy = *r;
	if (bt_replay_finish(&copy, gerr))
		return -1;
	*before = copy.game;
	return 0;
}

/* Feeds one stored line; for an action, calls fn around it. */
static int walk_line(store *s, db_stmt *st, store_walk_fn fn,
                     void *ctx, bt_error *gerr, int *stop)
{
	const char *line = (const char *)db_column_text(st, 2);
	size_t len = (size_t)db_column_bytes(st, 2);
	int action = db_column_int(st, 1) > 0;
	bt_game before;
	bt_action a;

	if (fn && action && state_before(s->replay, &before, gerr))
		return -1;

	if (bt_replay_line(s->replay, line, len, gerr))
		return -1;
	if (fn && action && bt_action_parse(line, len, &a, gerr) == 0)
		*stop = fn(ctx, db_column_int(st, 0),
		           db_column_int64(st, 3), &before,
		           &s->replay->game, &a);
	return 0;
}

store_rc store_walk(store *s, const store_game *g, int upto,
                    store_walk_fn fn, void *ctx, bt_game *at,
                    store_error *err)
{
	bt_error gerr;
	int rows = 0, stop = 0, bad, rc = DB_DONE;

	if (upto < 0)
		upto = g->seq;
	if (upto > g->seq)
		return store_fail(err, STORE_INVALID, "the game has %d moves, "
		                  "not %d", g->seq, upto);
	bt_replay_init(s->replay);
	bad = store_feed_header(s, g, &gerr);
	db_stmt *st = sql_get(s, SQL_WALK);
	db_bind_text(st, 1, g->id, -1);
	while (!bad && !stop && rows < upto && (rc = db_step(st)) == DB_ROW) {
		if (db_column_int(st, 0) != rows++)
			break;
		bad = walk_line(s, st, fn, ctx, &gerr, &stop);
	}
	db_reset(st);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_db_fail(s, rc, "reading the history", err);
	if (bad || (!stop && rows != upto))
		return store_fail(err, STORE_CORRUPT, "game %.40s no longer "
		                  "replays at line %d", g->id, rows);
	if (at && state_before(s->replay, at, &gerr))
		return store_fail(err, STORE_CORRUPT, "game %.40s does not "
		                  "start: %s", g->id, gerr.why);
	return STORE_OK;
}

/* ---- table talk --------------------------------------------------------- */

void store_set_talk_cap(store *s, int per_game)
{
	s->talk_per_game = per_game >= 1 && per_game <= STORE_TALK_CAP_MAX
	                   ? per_game : STORE_TALK_PER_GAME;
}

/* How many lines game id has had (its seqs are 0, 1, ...): -1 on error. */
static int64_t chat_size(store *s, const char *id)
{
	db_stmt *st = sql_get(s, SQL_CHAT_SIZE);
	int64_t n = -1;

	db_bind_text(st, 1, id, -1);
	if (db_step(st) == DB_ROW)
		n = db_column_int64(st, 0);
	db_reset(st);
	return n;
}

store_rc store_chat_left(store *s, const char *id, int *left,
                         store_error *err)
{
	int64_t n = chat_size(s, id);

	if (n < 0)
		return store_db_fail(s, db_errcode(s->db), "reading "
		                     "the table talk", err);
	*left = n >= s->talk_per_game ? 0 : (int)(s->talk_per_game - n);
	return STORE_OK;
}

store_rc sql_chat_locked(store *s, const char *id, int seat,
                         const char *text, store_error *err)
{
	int64_t now = store_now();
	int left;
	store_rc cap = store_chat_left(s, id, &left, err);

	if (cap)
		return cap;
	if (left == 0)
		return store_fail(err, STORE_LIMITED, "this game has had its %d "
		                  "lines of table talk", s->talk_per_game);
	db_stmt *st = sql_get(s, SQL_CHAT_RECENT);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int64(st, 3, now - STORE_CHAT_WINDOW);
	db_bind_text(st, 4, text, -1);
	db_bind_int64(st, 5, now - STORE_CHAT_REPEAT);
	int rc = db_step(st);
	int recent = rc == DB_ROW ? db_column_int(st, 0) : 0;
	int repeat = rc == DB_ROW ? db_column_int(st, 1) : 0;
	db_reset(st);
	if (rc != DB_ROW)
		return store_db_fail(s, rc, "reading the table talk", err);
	if (repeat)
		return STORE_OK;     /* sent twice at once: said already */
	if (recent >= STORE_CHAT_BURST)
		return store_fail(err, STORE_LIMITED, "at most %d messages a "
		                  "minute: wait a little", STORE_CHAT_BURST);
	st = sql_get(s, SQL_CHAT_INSERT);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_text(st, 3, text, -1);
	db_bind_int64(st, 4, now);
	rc = sql_run(s, SQL_CHAT_INSERT);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "saving the message", err);
}

store_rc store_chat_add(store *s, const char *id, int seat,
                        const char *text, store_error *err)
{
	size_t n = text ? strnlen(text, STORE_CHAT_MAX + 1) : 0;
	store_game *g = s->scratch;
	store_rc rc;

	if (n == 0 || n > STORE_CHAT_MAX)
		return store_fail(err, STORE_INVALID, "a message has from 1 "
		                  "to %d bytes", STORE_CHAT_MAX);
	if ((rc = sql_begin(s, err)))
		return rc;
	rc = store_load_row(s, id, g, err);
	if (rc == STORE_OK && (seat < 1 || seat > g->players))
		rc = store_fail(err, STORE_NOT_FOUND, "no seat %d", seat);
	if (rc == STORE_OK)
		rc = sql_chat_locked(s, id, seat, text, err);
	if (rc == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

/* Calls fn for each row of a bound chat query (seq, seat, at_seq,
 * created, text), until it returns nonzero. */
static store_rc each_chat(store *s, db_stmt *st,
                          int (*fn)(void *ctx, const store_chat *c),
                          void *ctx, store_error *err)
{
	store_chat c;
	int rc;

	while ((rc = db_step(st)) == DB_ROW) {
		c.seq = db_column_int(st, 0);
		c.seat = db_column_int(st, 1);
		c.at_seq = db_column_int(st, 2);
		c.created = db_column_int64(st, 3);
		if (sql_column_text(st, 4, c.text, sizeof c.text))
			c.text[0] = '\0';
		if (fn(ctx, &c)) {
			rc = DB_DONE;
			break;
		}
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading the table talk", err);
}

store_rc store_chat_list(store *s, const char *id, int after_seq,
                         int (*fn)(void *ctx, const store_chat *c),
                         void *ctx, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_CHAT_LIST);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, after_seq);
	return each_chat(s, st, fn, ctx, err);
}

store_rc store_chat_latest(store *s, const char *id, int n,
                           int (*fn)(void *ctx, const store_chat *c),
                           void *ctx, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_CHAT_LATEST);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, n);
	return each_chat(s, st, fn, ctx, err);
}

/* The number of messages of game id since from, up to
 * STORE_CHAT_COUNT_MAX (a bounded walk of the index): -1 on error. */
static int chat_count(store *s, const char *id, store_chat_from by,
                      int64_t from)
{
	db_stmt *st = sql_get(s, by == STORE_CHAT_FROM_TIME
	                              ? SQL_CHAT_COUNT_TIME
	                              : SQL_CHAT_COUNT_LINE);
	int n = -1;

	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, from);
	db_bind_int(st, 3, STORE_CHAT_COUNT_MAX);
	if (db_step(st) == DB_ROW)
		n = db_column_int(st, 0);
	db_reset(st);
	return n;
}

store_rc store_chat_since(store *s, const char *id, store_chat_from by,
                          int64_t from, int n,
                          int (*fn)(void *ctx, const store_chat *c),
                          void *ctx, int *matching, store_error *err)
{
	db_stmt *st;

	if (matching) {
		*matching = chat_count(s, id, by, from);
		if (*matching < 0)
			return store_db_fail(s, db_errcode(s->db),
			                     "counting the table talk", err);
	}
	st = sql_get(s, by == STORE_CHAT_FROM_TIME ? SQL_CHAT_SINCE_TIME
	                                           : SQL_CHAT_SINCE_LINE);
	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, from);
	db_bind_int(st, 3, n > 0 ? n : 0);
	return each_chat(s, st, fn, ctx, err);
}

/* ---- nudges ------------------------------------------------------------- */

static store_rc nudge_locked(store *s, const char *id, int expected_seq,
                             int seat, const store_mail *m, store_error *err)
{
	store_game *g = s->scratch;
	int64_t now = store_now();
	store_rc rc;

	if ((rc = store_load_row(s, id, g, err)))
		return rc;
	if (seat < 1 || seat > g->players)
		return store_fail(err, STORE_NOT_FOUND, "no seat %d", seat);
	if (g->seq != expected_seq)
		return store_fail(err, STORE_CONFLICT, "the game moved on");
	if (g->turn_seat == 0 || g->turn_seat == seat)
		return store_fail(err, STORE_INVALID, g->turn_seat ? "it is "
		                  "your own turn" : "the game is over");
	if (g->seats[seat - 1].nudged > now - STORE_NUDGE_EVERY)
		return store_fail(err, STORE_LIMITED, "one nudge a day: you "
		                  "nudged already");
	db_stmt *st = sql_get(s, SQL_SEAT_NUDGE);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int64(st, 3, now);
	if ((rc = seat_update(s, SQL_SEAT_NUDGE, "saving the nudge", id, seat,
	                      err)))
		return rc;
	/* the row alone is loaded: no round or risk to tell */
	sql_notice n = { .game = id, .kind = "nudge", .seat = g->turn_seat,
	                 .by_seat = seat, .risk = -1, .result = "",
	                 .move_seq = g->seq };
	if ((rc = sql_queue_notice(s, &n, err)))
		return rc;
	return m && m->to[0] ? store_queue_mail(s, id, m, err) : STORE_OK;
}

store_rc store_nudge(store *s, const char *id, int expected_seq, int seat,
                     const store_mail *m, store_error *err)
{
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	rc = nudge_locked(s, id, expected_seq, seat, m, err);
	if (rc == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

/* ---- reminders and digests ---------------------------------------------- */

/* Up to DUE_BATCH ids (and seats, for digests) of a due query. */
typedef struct due_list {
	int n;
	char id[DUE_BATCH][STORE_ID_LEN + 1];
	int seat[DUE_BATCH];
} due_list;

static store_rc due_read(store *s, enum sql_stmt which, int64_t when,
                         due_list *due, store_error *err)
{
	db_stmt *st = sql_get(s, which);
	int rc;

	due->n = 0;
	db_bind_int64(st, 1, when);
	db_bind_int(st, 2, DUE_BATCH);
	while (due->n < DUE_BATCH && (rc = db_step(st)) == DB_ROW) {
		if (sql_column_text(st, 0, due->id[due->n], sizeof due->id[0]))
			continue;
		due->seat[due->n] = db_column_count(st) > 1
		                    ? db_column_int(st, 1) : 0;
		due->n++;
	}
	if (due->n == DUE_BATCH)
		rc = DB_DONE;
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "finding what is due", err);
}

/* Is g's reminder still due at now (the game may have moved since)? */
static int remind_due(const store_game *g, int64_t now)
{
	int64_t wait = g->reminder_secs * (g->reminders == 0 ? 1 : 3);

	return g->state.status == BT_PLAYING && g->turn_seat > 0 &&
	       g->reminders < 2 && g->turn_since + wait <= now;
}

static store_rc remind_locked(store *s, const char *id, int64_t now,
                              store_remind_fn fn, void *ctx, int *queued,
                              store_error *err)
{
	store_game *g = s->scratch;
	store_rc rc;

	if ((rc = store_load(s, id, g, err)) || !remind_due(g, now))
		return rc;
	int made = fn(ctx, g, g->reminders + 1, s->mail);
	if (made < 0)
		return store_fail(err, STORE_ERROR, "game %.40s: the reminder "
		                  "could not be written", id);
	if (made && (rc = store_queue_mail(s, id, s->mail, err)))
		return rc;
	sql_notice n = { .game = id, .kind = "reminder", .seat = g->turn_seat,
	                 .result = "", .move_seq = g->seq,
	                 .state = &g->state };
	if ((rc = sql_queue_notice(s, &n, err)))
		return rc;
	db_stmt *st = sql_get(s, SQL_REMIND_MARK);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, g->seq);
	db_bind_int(st, 3, g->reminders);
	int src = sql_run(s, SQL_REMIND_MARK);
	if (src != DB_DONE)
		return store_db_fail(s, src, "counting a reminder", err);
	*queued += made;
	return STORE_OK;
}

/* What a queueing pass composes with. */
typedef struct due_job {
	store_remind_fn remind;
	store_digest_fn digest;
	void *ctx;
} due_job;

/* Runs one due item inside its own transaction. */
typedef store_rc due_step(store *s, const due_list *due, int i, int64_t now,
                          const due_job *job, int *queued,
                          store_error *err);

static store_rc remind_step(store *s, const due_list *due, int i,
                            int64_t now, const due_job *job, int *queued,
                            store_error *err)
{
	return remind_locked(s, due->id[i], now, job->remind, job->ctx,
	                     queued, err);
}

static store_rc each_due(store *s, const due_list *due, int64_t now,
                         due_step *step, const due_job *job, int *queued,
                         store_error *err)
{
	int count = 0;

	for (int i = 0; i < due->n; i++) {
		store_rc rc = sql_begin(s, err);
		if (rc == STORE_OK)
			rc = step(s, due, i, now, job, &count, err);
		if (rc == STORE_OK)
			rc = sql_commit(s, err);
		else
			sql_rollback(s);
		if (rc != STORE_OK) {
			if (queued)
				*queued = count;
			return rc;
		}
	}
	if (queued)
		*queued = count;
	return STORE_OK;
}

/* Reads what query `which` finds due at `when`, then runs step on each. */
static store_rc queue_due(store *s, enum sql_stmt which, int64_t when,
                          int64_t now, due_step *step, const due_job *job,
                          int *queued, store_error *err)
{
	static due_list due;
	store_rc rc;

	if (queued)
		*queued = 0;
	if ((rc = due_read(s, which, when, &due, err)))
		return rc;
	return each_due(s, &due, now, step, job, queued, err);
}

store_rc store_queue_reminders(store *s, int64_t now, store_remind_fn fn,
                               void *ctx, int *queued, store_error *err)
{
	due_job job = { .remind = fn, .ctx = ctx };

	return queue_due(s, SQL_REMIND_DUE, now, now, remind_step, &job,
	                 queued, err);
}

static store_rc digest_step(store *s, const due_list *due, int i,
                            int64_t now, const due_job *job, int *queued,
                            store_error *err)
{
	store_game *g = s->scratch;
	int seat = due->seat[i];
	store_rc rc;

	if ((rc = store_load(s, due->id[i], g, err)))
		return rc;
	if (seat < 1 || seat > g->players)
		return STORE_OK;
	int64_t since = g->seats[seat - 1].digest_sent;
	int made = job->digest(job->ctx, g, seat, since, s->mail);
	if (made < 0)
		return store_fail(err, STORE_ERROR, "game %.40s: a digest "
		                  "could not be written", g->id);
	if (made && (rc = store_queue_mail(s, g->id, s->mail, err)))
		return rc;
	db_stmt *st = sql_get(s, SQL_DIGEST_MARK);
	db_bind_text(st, 1, g->id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int64(st, 3, now);
	db_bind_int64(st, 4, since);
	int src = sql_run(s, SQL_DIGEST_MARK);
	if (src != DB_DONE)
		return store_db_fail(s, src, "noting a digest", err);
	*queued += made;
	return STORE_OK;
}

store_rc store_queue_digests(store *s, int64_t now, store_digest_fn fn,
                             void *ctx, int *queued, store_error *err)
{
	due_job job = { .digest = fn, .ctx = ctx };

	return queue_due(s, SQL_DIGEST_DUE, now - STORE_DIGEST_EVERY, now,
	                 digest_step, &job, queued, err);
}

/* ---- playing again ------------------------------------------------------ */

/* 1 if a and b are addresses of one key. */
static int same_key(const char *a, const char *b)
{
	char ka[STORE_EMAIL_MAX + 1], kb[STORE_EMAIL_MAX + 1];

	return a[0] && b[0] && store_address_key(a, ka, sizeof ka) == 0 &&
	       store_address_key(b, kb, sizeof kb) == 0 && strcmp(ka, kb) == 0;
}

/* The new game's settings: g's seats, the First Player passing left. */
static void rematch_of(const store_game *g, const char *client,
                       store_new_game *ng)
{
	memset(ng, 0, sizeof *ng);
	ng->client = client;
	ng->players = g->players;
	ng->first = g->first % g->players + 1;
	ng->reminder_secs = g->reminder_secs;
	ng->standin = g->standin;
	ng->standin_days = g->standin_days;
	ng->practice = g->practice;
	for (int i = 0; i < g->players; i++) {
		ng->names[i] = g->seats[i].name;
		ng->emails[i] = g->seats[i].email;
		ng->bots[i] = g->seats[i].bot;
		/* a game from before one address per game: the first keeps it */
		for (int j = 0; j < i; j++)
			if (same_key(g->seats[j].email, g->seats[i].email))
				ng->emails[i] = "";
	}
}

static store_rc copy_settings(store *s, const store_game *g,
                              const char *new_id, store_error *err)
{
	for (int seat = 1; seat <= g->players; seat++) {
		db_stmt *st = sql_get(s, SQL_NOTIFY_SET);
		db_bind_text(st, 1, new_id, -1);
		db_bind_int(st, 2, seat);
		db_bind_text(st, 3, store_notify_name(g->seats[seat - 1].notify),
		              -1);
		db_bind_int64(st, 4, store_now());
		store_rc rc = seat_update(s, SQL_NOTIFY_SET, "copying a "
		                          "setting", new_id, seat, err);
		if (rc)
			return rc;
	}
	return STORE_OK;
}

/* The new game's seat emails, in the transaction that made it. */
static store_rc rematch_mails(store *s, const char *new_id,
                              store_seat_mail_fn fn, void *ctx,
                              store_error *err)
{
	return fn ? store_seat_mails_locked(s, new_id, fn, ctx, err)
	          : STORE_OK;
}

static store_rc rematch_locked(store *s, const char *id,
                               const char *client, store_seat_mail_fn fn,
                               void *ctx, char new_id[STORE_ID_LEN + 1],
                               int *created, store_error *err)
{
	static store_game old;
	store_new_game ng;
	store_rc rc;

	if ((rc = store_load(s, id, &old, err)))
		return rc;
	if (old.rematch[0]) {
		memcpy(new_id, old.rematch, STORE_ID_LEN + 1);
		return STORE_OK;
	}
	if (old.state.status == BT_PLAYING)
		return store_fail(err, STORE_INVALID, "the game is not over");
	rematch_of(&old, client, &ng);
	if ((rc = store_create_locked(s, &ng, new_id, err)) ||
	    (rc = copy_settings(s, &old, new_id, err)) ||
	    (rc = rematch_mails(s, new_id, fn, ctx, err)))
		return rc;
	db_stmt *st = sql_get(s, SQL_REMATCH_SET);
	db_bind_text(st, 1, id, -1);
	db_bind_text(st, 2, new_id, -1);
	int src = sql_run(s, SQL_REMATCH_SET);
	if (src != DB_DONE || db_changes(s->db) != 1)
		return store_db_fail(s, src, "linking the new game", err);
	*created = 1;
	return STORE_OK;
}

store_rc store_rematch(store *s, const char *id, const char *client,
                       store_seat_mail_fn fn, void *ctx,
                       char new_id[STORE_ID_LEN + 1], int *created,
                       store_error *err)
{
	int made = 0;
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	rc = rematch_locked(s, id, client, fn, ctx, new_id, &made, err);
	if (rc == STORE_OK)
		rc = sql_commit(s, err);
	else
		sql_rollback(s);
	if (created)
		*created = rc == STORE_OK && made;
	return rc;
}

/* ---- hands shown to the crew -------------------------------------------- */

store_rc store_shown_set(store *s, const char *id, int seat, int on,
                         store_error *err)
{
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	db_stmt *st = sql_get(s, SQL_SHOWN_SET);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seat);
	db_bind_int(st, 3, on != 0);
	rc = seat_update(s, SQL_SHOWN_SET, "saving whether the hand is shown",
	                 id, seat, err);
	if (rc == STORE_OK) {
		st = sql_get(s, SQL_SHOWN_TOUCH);
		db_bind_text(st, 1, id, -1);
		db_bind_int64(st, 2, store_now());
		int src = sql_run(s, SQL_SHOWN_TOUCH);
		if (src != DB_DONE)
			rc = store_db_fail(s, src, "noting the change",
			                   err);
	}
	if (rc == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

store_rc store_shown_get(store *s, const char *id, unsigned *shown,
                         store_error *err)
{
	db_stmt *st = sql_get(s, SQL_SHOWN_GET);
	int rc;

	*shown = 0;
	db_bind_text(st, 1, id, -1);
	while ((rc = db_step(st)) == DB_ROW) {
		int seat = db_column_int(st, 0);
		if (seat >= 1 && seat <= BT_MAX_PLAYERS)
			*shown |= 1u << (seat - 1);
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading the hands shown", err);
}
