/*
 * store_games.c - a game's life in the store after it is made
 * (store_create.c): loaded (from its snapshot, or by replaying its
 * lines), advanced one action at a time, exported as a record.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sql.h"

static const char *const status_names[] = {
	[BT_PLAYING] = "playing", [BT_WON] = "won", [BT_LOST] = "lost",
};

const char *sql_status_name(bt_status st)
{
	return status_names[st];
}

bt_status sql_status_of(const unsigned char *text)
{
	for (int st = BT_WON; st <= BT_LOST; st++)
		if (text && !strcmp((const char *)text, status_names[st]))
			return (bt_status)st;
	return BT_PLAYING;
}

/* The layout tag stored beside a snapshot: the engine's format number,
 * the struct's size and the byte order, so no other layout is misread. */
int sql_snapshot_format(void)
{
	const uint16_t one = 1;
	int little = *(const uint8_t *)&one;

	return (BT_STATE_FORMAT * 2 + little) << 16 | (int)sizeof(bt_game);
}

/* The next line of text at *at, without its '\n', in *line and *len;
 * moves *at past it.  0 at the end of the text. */
static int next_line(const char **at, const char **line, size_t *len)
{
	const char *end;

	if (!**at)
		return 0;
	end = strchr(*at, '\n');
	*line = *at;
	*len = end ? (size_t)(end - *at) : strlen(*at);
	*at += *len + (end != NULL);
	return 1;
}

int sql_turn_seat(const bt_game *state)
{
	return state->status == BT_PLAYING ? state->turn : 0;
}

store_rc sql_insert_line(store *s, const char *id, int seq, int seat,
                         const char *line, const char *made_by,
                         store_error *err)
{
	sqlite3_stmt *st = sql_get(s, SQL_ACTION_INSERT);

	sql_bind_text(st, 1, id, -1);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_int(st, 3, seat);
	sql_bind_text(st, 4, line, -1);
	sqlite3_bind_int64(st, 5, store_now());
	sql_bind_text(st, 6, made_by, -1);
	int rc = sql_run(s, SQL_ACTION_INSERT);
	return rc == SQLITE_DONE ? STORE_OK
	                         : store_sqlite_fail(s, rc, "saving an action", err);
}

/* ---- loading ------------------------------------------------------------ */

/* Feeds one line, formatted, to the scratch replay. */
static int feed(store *s, bt_error *gerr, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static int feed(store *s, bt_error *gerr, const char *fmt, ...)
{
	char line[BT_RECORD_LINE_MAX + 2];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line)
		n = (int)sizeof line - 1;
	return bt_replay_line(s->replay, line, (size_t)n, gerr);
}

/* Feeds the header a game row stands for; header holds its stack lines. */
int store_feed_header(store *s, const store_game *g, bt_error *gerr)
{
	const char *header = g->header;
	int bad = feed(s, gerr, "buffertime %d", BT_RECORD_VERSION) ||
	          feed(s, gerr, "players %d", g->players) ||
	          feed(s, gerr, "first %d", g->first) ||
	          feed(s, gerr, "seed %s", g->seed);
	for (int i = 0; !bad && i < g->players; i++)
		if (g->seats[i].name[0])
			bad = feed(s, gerr, "name %d %s", i + 1,
			           g->seats[i].name);
	const char *at = header, *l;
	size_t n;
	while (!bad && next_line(&at, &l, &n))
		bad = bt_replay_line(s->replay, l, n, gerr);
	return bad;
}

/* Replays game g from its seed and lines: the slow path, for a missing
 * or foreign snapshot, and for checking. */
static store_rc replay_game(store *s, store_game *g, store_error *err)
{
	bt_error gerr;
	int rows = 0, bad;

	bt_replay_init(s->replay);
	bad = store_feed_header(s, g, &gerr);
	sqlite3_stmt *st = sql_get(s, SQL_ACTIONS_GET);
	sql_bind_text(st, 1, g->id, -1);
	int rc = SQLITE_ROW;
	while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_int(st, 0) != rows++)
			break;
		bad = bt_replay_line(s->replay,
		                     (const char *)sqlite3_column_text(st, 2),
		                     (size_t)sqlite3_column_bytes(st, 2), &gerr);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_sqlite_fail(s, rc, "reading actions", err);
	if (!bad && rc == SQLITE_ROW)
		return store_fail(err, STORE_CORRUPT, "action %d is "
		                  "missing", rows - 1);
	if (bad || bt_replay_finish(s->replay, &gerr))
		return store_fail(err, STORE_CORRUPT, "the game no longer "
		                  "replays: line %d: rule R%d: %s",
		                  s->replay->err_line, gerr.rule, gerr.why);
	if (rows != g->seq)
		return store_fail(err, STORE_CORRUPT, "the game has %d "
		                  "lines, not %d", rows, g->seq);
	g->state = s->replay->game;
	return STORE_OK;
}

/* Takes the snapshot if it is of this layout, current and sound. */
static int use_snapshot(sqlite3_stmt *st, store_game *g)
{
	char why[160];

	if (sqlite3_column_int(st, 9) != sql_snapshot_format() ||
	    sqlite3_column_int(st, 8) != g->seq ||
	    sqlite3_column_bytes(st, 7) != (int)sizeof g->state)
		return 0;
	memcpy(&g->state, sqlite3_column_blob(st, 7), sizeof g->state);
	return bt_game_check(&g->state, why, sizeof why) == 0;
}

/* A pending Sensor Sweep counts only while the game has not moved on. */
static void load_sweep(sqlite3_stmt *st, store_game *g)
{
	char id[4];

	g->sweep_card = BT_NO_CARD;
	g->sweep_seat = 0;
	if (sqlite3_column_int(st, 10) != g->seq ||
	    sql_column_text(st, 12, id, sizeof id))
		return;
	g->sweep_card = bt_card_parse(id, strlen(id));
	g->sweep_seat = g->sweep_card == BT_NO_CARD ? 0
	                : sqlite3_column_int(st, 11);
}

static store_rc load_seats(store *s, store_game *g, store_error *err)
{
	sqlite3_stmt *st = sql_get(s, SQL_SEATS_GET);
	int rc;

	sql_bind_text(st, 1, g->id, -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(st, 0);
		if (seat < 1 || seat > g->players)
			continue;
		store_seat *p = &g->seats[seat - 1];
		if (sql_column_text(st, 1, p->name, sizeof p->name) ||
		    sql_column_text(st, 2, p->email, sizeof p->email))
			rc = SQLITE_CORRUPT;
		p->token_gen = sqlite3_column_int64(st, 3);
		p->last_seen = sqlite3_column_int64(st, 4);
		if (store_notify_parse((const char *)sqlite3_column_text(st, 5),
		                       &p->notify))
			p->notify = STORE_NOTIFY_TURN;
		p->digest_sent = sqlite3_column_int64(st, 6);
		p->nudged = sqlite3_column_int64(st, 7);
		p->blocked = p->email[0] && sqlite3_column_int(st, 8);
		if (sql_column_text(st, 9, p->bot, sizeof p->bot))
			rc = SQLITE_CORRUPT;
		p->standin_since = sqlite3_column_int64(st, 10);
		p->standin_ask = sqlite3_column_int64(st, 11);
		if (rc == SQLITE_CORRUPT)
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? STORE_OK
	                         : store_sqlite_fail(s, rc, "reading seats", err);
}

/* The columns of a game row between moves (0004-life). */
static void load_life(sqlite3_stmt *st, store_game *g)
{
	g->updated = sqlite3_column_int64(st, 13);
	g->turn_seat = sqlite3_column_int(st, 14);
	g->turn_since = sqlite3_column_int64(st, 15);
	g->reminders = sqlite3_column_int(st, 16);
	g->reminder_secs = sqlite3_column_int64(st, 17);
	if (sql_column_text(st, 18, g->rematch, sizeof g->rematch))
		g->rematch[0] = '\0';
	if (sql_column_text(st, 19, g->standin, sizeof g->standin))
		snprintf(g->standin, sizeof g->standin, "off");
	g->standin_days = sqlite3_column_int(st, 20);
	g->practice = sqlite3_column_int(st, 21) != 0;
	g->ended_by = sqlite3_column_int(st, 22);
	g->ended_at = sqlite3_column_int64(st, 23);
	g->taken = sqlite3_column_int(st, 24);
}

/* Loads game id; forces a replay when replay is set (for checks), and
 * leaves the state out when replay < 0 (store_load_row). */
static store_rc load(store *s, const char *id, store_game *g, int replay,
                     store_error *err)
{
	sqlite3_stmt *st = sql_get(s, SQL_GAME_GET);
	store_rc out = STORE_OK;

	memset(g, 0, sizeof *g);
	sql_bind_text(st, 1, id, -1);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		return rc == SQLITE_DONE
		       ? store_fail(err, STORE_NOT_FOUND, "no game '%.40s'", id)
		       : store_sqlite_fail(s, rc, "reading the game", err);
	}
	snprintf(g->id, sizeof g->id, "%s", id);
	g->created = sqlite3_column_int64(st, 0);
	g->players = sqlite3_column_int(st, 1);
	g->first = sqlite3_column_int(st, 2);
	g->seq = sqlite3_column_int(st, 6);
	if (sql_column_text(st, 3, g->seed, sizeof g->seed) ||
	    sql_column_text(st, 4, g->header, sizeof g->header) ||
	    sql_column_text(st, 5, g->options, sizeof g->options) ||
	    g->players < BT_MIN_PLAYERS || g->players > BT_MAX_PLAYERS)
		out = store_fail(err, STORE_CORRUPT, "game %.40s: a damaged "
		                 "row", id);
	load_sweep(st, g);
	load_life(st, g);
	int snapshot = replay < 0 || (!replay && out == STORE_OK &&
	                              use_snapshot(st, g));
	sqlite3_reset(st);
	if (out == STORE_OK)
		out = load_seats(s, g, err);
	if (out == STORE_OK && !snapshot)
		out = replay_game(s, g, err);
	/* a game ended where it could no longer be won (store_end.c) has
	 * no line for it: it reads as lost, snapshot and replay alike */
	if (out == STORE_OK && replay >= 0 && g->ended_by)
		g->state.status = BT_LOST;
	return out;
}

store_rc store_load(store *s, const char *id, store_game *out,
                    store_error *err)
{
	return load(s, id, out, 0, err);
}

store_rc store_load_row(store *s, const char *id, store_game *g,
                        store_error *err)
{
	return load(s, id, g, -1, err);
}

/* For store_check: the game replayed from scratch, never the snapshot. */
store_rc store_load_replayed(store *s, const char *id, store_game *out,
                             store_error *err)
{
	return load(s, id, out, 1, err);
}

/* ---- advancing ---------------------------------------------------------- */

static store_rc advance(store *s, const store_game *before,
                        const bt_game *after, store_error *err)
{
	sqlite3_stmt *st = sql_get(s, SQL_GAME_ADVANCE);

	sql_bind_text(st, 1, before->id, -1);
	sqlite3_bind_int(st, 2, before->seq);
	sqlite3_bind_int64(st, 3, store_now());
	sql_bind_text(st, 4, sql_status_name((bt_status)after->status), -1);
	sqlite3_bind_blob(st, 5, after, sizeof *after, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 6, sql_snapshot_format());
	sqlite3_bind_int(st, 7, sql_turn_seat(after));
	int rc = sql_run(s, SQL_GAME_ADVANCE);
	if (rc != SQLITE_DONE)
		return store_sqlite_fail(s, rc, "saving the state", err);
	return sqlite3_changes(s->db) == 1 ? STORE_OK
	       : store_fail(err, STORE_CONFLICT, "the game moved on");
}

/* Queues the move's emails, each held for hold seconds (a move that may
 * still be taken back mails nobody until its grace is over). */
static store_rc queue_mails(store *s, const store_game *before,
                            const bt_game *after, const bt_action *a,
                            store_mail_fn fn, void *ctx, int64_t hold,
                            store_error *err)
{
	int n = fn ? fn(ctx, before, after, a, s->mail, BT_MAX_PLAYERS + 1) : 0;

	if (n < 0 || n > BT_MAX_PLAYERS + 1)
		return store_fail(err, STORE_ERROR, "the move's emails could "
		                  "not be made");
	for (int i = 0; i < n; i++) {
		store_rc rc = sql_queue_mail_at(s, before->id, &s->mail[i],
		                                before->seq + 1, hold, err);
		if (rc != STORE_OK)
			return rc;
	}
	return STORE_OK;
}

/* The append's work inside its transaction: the line, the state, the
 * emails, and the next seat's turn as a job if a bot plays it. */
store_rc sql_append_locked(store *s, const char *id, int expected_seq,
                           const bt_action *a, const char *made_by,
                           store_mail_fn fn, void *ctx, bt_game *next,
                           store_error *err)
{
	store_game *before = s->scratch;
	char line[BT_ACTION_TEXT_MAX];
	bt_error gerr;
	store_rc rc;

	if ((rc = load(s, id, before, 0, err)))
		return rc;
	if (before->seq != expected_seq)
		return store_fail(err, STORE_CONFLICT, "the game moved on: it "
		                  "has %d actions, the move was chosen after "
		                  "%d", before->seq, expected_seq);
	if (before->sweep_card != BT_NO_CARD &&
	    (a->verb != BT_SPECIAL || a->card != before->sweep_card ||
	     a->seat != before->sweep_seat))
		return store_fail(err, STORE_ILLEGAL, "rule R9: seat %d looked "
		                  "at the Shift Deck with Sensor Sweep and must "
		                  "first choose the order", before->sweep_seat);
	*next = before->state;
	if (bt_apply(next, a, &gerr)) {
		if (err)
			err->game = gerr;
		return store_fail(err, STORE_ILLEGAL, "rule R%d: %s",
		                  gerr.rule, gerr.why);
	}
	if (bt_action_format(a, line, sizeof line) < 0)
		return store_fail(err, STORE_INVALID, "the action cannot be "
		                  "written as a record line");
	/* a person's move that showed nothing may be taken back: its emails
	 * and the bot that answers it wait a little */
	int may_take_back = !made_by[0] &&
	                    bt_take_back_ok(&before->state, a, next);
	int64_t hold = may_take_back ? s->holds.mail_grace : 0;
	if ((rc = sql_insert_line(s, id, before->seq, a->seat, line, made_by,
	                          err)) ||
	    (rc = advance(s, before, next, err)) ||
	    (rc = queue_mails(s, before, next, a, fn, ctx, hold, err)))
		return rc;
	/* the absent player who moves again takes the seat back */
	if (!made_by[0] && before->seats[a->seat - 1].standin_since &&
	    (rc = sql_standin_set(s, id, a->seat, 0, err)))
		return rc;
	if ((rc = sql_queue_review(s, id, next, before->seq + 1, a->seat, err)) ||
	    (next->status == BT_PLAYING &&
	     (rc = sql_queue_hints(s, id, before->practice,
	                           sql_seat_bot(&before->seats[next->turn - 1]),
	                           next, before->seq + 1, err))))
		return rc;
	return sql_queue_bot_turn(s, id, next->status == BT_PLAYING
	                          ? sql_seat_bot(&before->seats[next->turn - 1])
	                          : "", next, before->seq + 1,
	                          may_take_back ? s->holds.bot_wait : 0, err);
}

store_rc store_append(store *s, const char *id, int expected_seq,
                      const bt_action *a, store_mail_fn mail_fn, void *ctx,
                      store_game *after, store_error *err)
{
	return store_append_as(s, id, expected_seq, a, "", mail_fn, ctx, after,
	                       err);
}

store_rc store_append_as(store *s, const char *id, int expected_seq,
                         const bt_action *a, const char *made_by,
                         store_mail_fn mail_fn, void *ctx,
                         store_game *after, store_error *err)
{
	bt_game next;
	store_rc rc;

	if (!made_by || (made_by[0] && strcmp(made_by, "bot") &&
	                 strcmp(made_by, "stand-in")))
		return store_fail(err, STORE_INVALID, "a line is made by a "
		                  "person, a bot or a stand-in");
	if ((rc = sql_begin(s, err)))
		return rc;
	rc = sql_append_locked(s, id, expected_seq, a, made_by, mail_fn, ctx,
	                       &next, err);
	if (rc == STORE_OK)
		rc = sql_commit(s, err);
	else
		sql_rollback(s);
	if (rc == STORE_OK && after) {
		*after = *s->scratch;
		after->seq++;
		after->state = next;
		after->sweep_card = BT_NO_CARD;   /* a new line ends a look */
		after->sweep_seat = 0;
		after->turn_seat = sql_turn_seat(&next);
		after->turn_since = after->updated = store_now();
		after->reminders = 0;
	}
	return rc;
}

store_rc store_revoke(store *s, const char *id, int seat, int64_t *gen,
                      store_error *err)
{
	sqlite3_stmt *st = sql_get(s, SQL_SEAT_REVOKE);

	sql_bind_text(st, 1, id, -1);
	sqlite3_bind_int(st, 2, seat);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && gen)
		*gen = sqlite3_column_int64(st, 0);
	if (rc == SQLITE_ROW)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_DONE && sqlite3_changes(s->db) == 1)
		return STORE_OK;
	if (rc == SQLITE_DONE)
		return store_fail(err, STORE_NOT_FOUND, "no seat %d in game "
		                  "'%.40s'", seat, id);
	return store_sqlite_fail(s, rc, "revoking", err);
}

/* ---- exporting ---------------------------------------------------------- */

static store_rc export_lines(store *s, const char *id, bt_record *rec,
                             store_error *err)
{
	sqlite3_stmt *st = sql_get(s, SQL_ACTIONS_GET);
	bt_error gerr;
	int rc;

	sql_bind_text(st, 1, id, -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (bt_record_add_line(rec,
		                       (const char *)sqlite3_column_text(st, 2),
		                       (size_t)sqlite3_column_bytes(st, 2),
		                       &gerr))
			break;
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return store_fail(err, STORE_CORRUPT, "game %.40s: a stored "
		                  "line is damaged: %s", id, gerr.why);
	return rc == SQLITE_DONE ? STORE_OK
	                         : store_sqlite_fail(s, rc, "reading actions", err);
}

store_rc store_export(store *s, const char *id, int with_seed,
                      bt_record *rec, store_error *err)
{
	store_game *g = s->scratch;
	bt_error gerr;
	store_rc rc;

	if ((rc = load(s, id, g, 0, err)))
		return rc;
	int seed = with_seed || g->state.status != BT_PLAYING;
	if (bt_record_init(rec, g->players, g->first, seed ? g->seed : NULL,
	                   seed ? strlen(g->seed) : 0, &gerr))
		return store_fail(err, STORE_CORRUPT, "game %.40s: %s", id,
		                  gerr.why);
	for (int i = 0; i < g->players; i++)
		if (g->seats[i].name[0] &&
		    bt_record_name(rec, i + 1, g->seats[i].name,
		                   strlen(g->seats[i].name), &gerr))
			return store_fail(err, STORE_CORRUPT, "game %.40s: "
			                  "%s", id, gerr.why);
	const char *at = g->header, *l;
	size_t n;
	while (next_line(&at, &l, &n))
		if (bt_record_add_line(rec, l, n, &gerr))
			return store_fail(err, STORE_CORRUPT, "game %.40s: "
			                  "its header is damaged: %s", id,
			                  gerr.why);
	return export_lines(s, id, rec, err);
}

/* ---- around the moves --------------------------------------------------- */

/* The Sensor Sweep action of seat with card, the top cards in their
 * current order: legal exactly when looking is. */
static bt_action sweep_as_is(const bt_game *g, int seat, bt_card card)
{
	bt_action a = { .seat = (uint8_t)seat, .verb = BT_SPECIAL,
	                .card = card };
	const bt_pile *deck = &g->shift_deck;

	while (a.nargs < BT_SWEEP_CARDS && a.nargs < deck->n) {
		a.arg[a.nargs] = deck->c[deck->n - 1 - a.nargs];
		a.nargs++;
	}
	return a;
}

store_rc sql_sweep_locked(store *s, const char *id, int expected_seq,
                          int seat, bt_card card, store_error *err)
{
	store_game *g = s->scratch;
	bt_error gerr;
	store_rc rc;

	if ((rc = load(s, id, g, 0, err)))
		return rc;
	if (g->seq != expected_seq)
		return store_fail(err, STORE_CONFLICT, "the game moved on: it "
		                  "has %d actions, the move was chosen after "
		                  "%d", g->seq, expected_seq);
	if (g->sweep_card != BT_NO_CARD)
		return g->sweep_card == card && g->sweep_seat == seat ? STORE_OK
		       : store_fail(err, STORE_ILLEGAL, "rule R9: another "
		                    "Sensor Sweep is being looked at");
	bt_action a = sweep_as_is(&g->state, seat, card);
	if (bt_check(&g->state, &a, &gerr)) {
		if (err)
			err->game = gerr;
		return store_fail(err, STORE_ILLEGAL, "rule R%d: %s",
		                  gerr.rule, gerr.why);
	}
	sqlite3_stmt *st = sql_get(s, SQL_SWEEP_SET);
	sql_bind_text(st, 1, id, -1);
	sqlite3_bind_int(st, 2, expected_seq);
	sqlite3_bind_int(st, 3, seat);
	sql_bind_text(st, 4, bt_card_get(card)->id, -1);
	int code = sql_run(s, SQL_SWEEP_SET);
	return code == SQLITE_DONE ? STORE_OK
	       : store_sqlite_fail(s, code, "saving the look", err);
}

store_rc store_sweep_begin(store *s, const char *id, int expected_seq,
                           int seat, bt_card card, store_error *err)
{
	store_rc rc;

	if (card >= BT_CARD_COUNT ||
	    bt_card_get(card)->kind != BT_SENSOR_SWEEP)
		return store_fail(err, STORE_INVALID, "that is not a Sensor "
		                  "Sweep card");
	if ((rc = sql_begin(s, err)))
		return rc;
	rc = sql_sweep_locked(s, id, expected_seq, seat, card, err);
	if (rc == STORE_OK)
		return sql_commit(s, err);
	sql_rollback(s);
	return rc;
}

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
	sqlite3_stmt *st = sql_get(s, SQL_OUTBOX_INSERT);
	sql_bind_text(st, 1, id, -1);
	sqlite3_bind_int(st, 2, m->seat);
	sql_bind_text(st, 3, m->to, -1);
	sql_bind_text(st, 4, m->subject, -1);
	sql_bind_text(st, 5, m->body, -1);
	sqlite3_bind_int64(st, 6, store_now());
	sql_bind_text(st, 7, m->kind, -1);
	sql_bind_text(st, 8, m->reply_to, -1);
	sqlite3_bind_int64(st, 9, delay > 0 ? delay : 0);
	sqlite3_bind_int(st, 10, move_seq);
	sql_bind_text(st, 11, key, -1);
	if (held) {
		sqlite3_bind_int64(st, 12, store_now());
		sql_bind_text(st, 13, held, -1);
	} else {
		sql_bind_text(st, 13, "", -1);
	}
	int rc = sql_run(s, SQL_OUTBOX_INSERT);
	return rc == SQLITE_DONE ? STORE_OK
	                         : store_sqlite_fail(s, rc, "queueing an email", err);
}

store_rc store_touch(store *s, const char *id, int seat, store_error *err)
{
	sqlite3_stmt *st = sql_get(s, SQL_SEAT_TOUCH);

	sql_bind_text(st, 1, id, -1);
	sqlite3_bind_int(st, 2, seat);
	sqlite3_bind_int64(st, 3, store_now());
	int rc = sql_run(s, SQL_SEAT_TOUCH);
	if (rc != SQLITE_DONE)
		return store_sqlite_fail(s, rc, "noting a visit", err);
	return sqlite3_changes(s->db) == 1 ? STORE_OK
	       : store_fail(err, STORE_NOT_FOUND, "no seat %d in game "
	                    "'%.40s'", seat, id);
}
