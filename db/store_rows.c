/*
 * store_rows.c - a game's rows, the bottom of the store: its status and
 * snapshot layout, a line inserted, the game loaded (from its snapshot,
 * or by replaying its lines) and a seat's mail setting by name.  It
 * calls nothing of the store above it: the transactions of moves
 * (store_games.c), creation (store_create.c) and a game's life between
 * moves (store_life.c) are made of these.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sql.h"

static const char *const notify_names[STORE_NOTIFY__MAX] = {
	[STORE_NOTIFY_EVERY] = "every",
	[STORE_NOTIFY_TURN] = "turn",
	[STORE_NOTIFY_DIGEST] = "digest",
	[STORE_NOTIFY_NONE] = "none",
};

const char *store_notify_name(store_notify n)
{
	return (unsigned)n < STORE_NOTIFY__MAX ? notify_names[n] : "turn";
}

int store_notify_parse(const char *text, store_notify *out)
{
	for (int i = 0; text && i < STORE_NOTIFY__MAX; i++)
		if (strcmp(text, notify_names[i]) == 0) {
			*out = (store_notify)i;
			return 0;
		}
	return -1;
}

static const char *const status_names[] = {
	[BT_PLAYING] = "playing", [BT_WON] = "won", [BT_LOST] = "lost",
};

const char *sql_status_name(bt_status st)
{
	return status_names[st];
}

bt_status sql_status_of(const char *text)
{
	for (int st = BT_WON; st <= BT_LOST; st++)
		if (text && !strcmp(text, status_names[st]))
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
int sql_next_line(const char **at, const char **line, size_t *len)
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
	db_stmt *st = sql_get(s, SQL_ACTION_INSERT);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seq);
	db_bind_int(st, 3, seat);
	db_bind_text(st, 4, line, -1);
	db_bind_int64(st, 5, store_now());
	db_bind_text(st, 6, made_by, -1);
	int rc = sql_run(s, SQL_ACTION_INSERT);
	return rc == DB_DONE ? STORE_OK
	                         : store_db_fail(s, rc, "saving an action", err);
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
	while (!bad && sql_next_line(&at, &l, &n))
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
	db_stmt *st = sql_get(s, SQL_WALK);
	db_bind_text(st, 1, g->id, -1);
	int rc = DB_ROW;
	while (!bad && (rc = db_step(st)) == DB_ROW) {
		if (db_column_int(st, 0) != rows++)
			break;
		bad = bt_replay_line(s->replay,
		                     (const char *)db_column_text(st, 2),
		                     (size_t)db_column_bytes(st, 2), &gerr);
	}
	db_reset(st);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_db_fail(s, rc, "reading actions", err);
	if (!bad && rc == DB_ROW)
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
static int use_snapshot(db_stmt *st, store_game *g)
{
	char why[160];

	if (db_column_int(st, 9) != sql_snapshot_format() ||
	    db_column_int(st, 8) != g->seq ||
	    db_column_bytes(st, 7) != (int)sizeof g->state)
		return 0;
	memcpy(&g->state, db_column_blob(st, 7), sizeof g->state);
	return bt_game_check(&g->state, why, sizeof why) == 0;
}

/* A pending Sensor Sweep counts only while the game has not moved on. */
static void load_sweep(db_stmt *st, store_game *g)
{
	char id[4];

	g->sweep_card = BT_NO_CARD;
	g->sweep_seat = 0;
	if (db_column_int(st, 10) != g->seq ||
	    sql_column_text(st, 12, id, sizeof id))
		return;
	g->sweep_card = bt_card_parse(id, strlen(id));
	g->sweep_seat = g->sweep_card == BT_NO_CARD ? 0
	                : db_column_int(st, 11);
}

static store_rc load_seats(store *s, store_game *g, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_SEATS_GET);
	int rc;

	db_bind_text(st, 1, g->id, -1);
	while ((rc = db_step(st)) == DB_ROW) {
		int seat = db_column_int(st, 0);
		if (seat < 1 || seat > g->players)
			continue;
		store_seat *p = &g->seats[seat - 1];
		if (sql_column_text(st, 1, p->name, sizeof p->name) ||
		    sql_column_text(st, 2, p->email, sizeof p->email))
			rc = DB_CORRUPT;
		p->token_gen = db_column_int64(st, 3);
		p->last_seen = db_column_int64(st, 4);
		if (store_notify_parse((const char *)db_column_text(st, 5),
		                       &p->notify))
			p->notify = STORE_NOTIFY_TURN;
		p->digest_sent = db_column_int64(st, 6);
		p->nudged = db_column_int64(st, 7);
		p->blocked = p->email[0] && db_column_int(st, 8);
		if (sql_column_text(st, 9, p->bot, sizeof p->bot))
			rc = DB_CORRUPT;
		p->standin_since = db_column_int64(st, 10);
		p->standin_ask = db_column_int64(st, 11);
		if (rc == DB_CORRUPT)
			break;
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	                         : store_db_fail(s, rc, "reading seats", err);
}

/* The columns of a game row between moves (0004-life). */
static void load_life(db_stmt *st, store_game *g)
{
	g->updated = db_column_int64(st, 13);
	g->turn_seat = db_column_int(st, 14);
	g->turn_since = db_column_int64(st, 15);
	g->reminders = db_column_int(st, 16);
	g->reminder_secs = db_column_int64(st, 17);
	if (sql_column_text(st, 18, g->rematch, sizeof g->rematch))
		g->rematch[0] = '\0';
	if (sql_column_text(st, 19, g->standin, sizeof g->standin))
		snprintf(g->standin, sizeof g->standin, "off");
	g->standin_days = db_column_int(st, 20);
	g->practice = db_column_int(st, 21) != 0;
	g->ended_by = db_column_int(st, 22);
	g->ended_at = db_column_int64(st, 23);
	g->taken = db_column_int(st, 24);
}

/* Reads game id; forces a replay when replay is set (for checks), and
 * leaves the state out when replay < 0 (store_load_row). */
static store_rc load_rows(store *s, const char *id, store_game *g,
                          int replay, store_error *err)
{
	store_rc out = STORE_OK;
	db_stmt *st = sql_get(s, SQL_GAME_GET);
	memset(g, 0, sizeof *g);
	db_bind_text(st, 1, id, -1);
	int rc = db_step(st);
	if (rc != DB_ROW) {
		db_reset(st);
		return rc == DB_DONE
		       ? store_fail(err, STORE_NOT_FOUND, "no game '%.40s'", id)
		       : store_db_fail(s, rc, "reading the game", err);
	}
	snprintf(g->id, sizeof g->id, "%s", id);
	g->created = db_column_int64(st, 0);
	g->players = db_column_int(st, 1);
	g->first = db_column_int(st, 2);
	g->seq = db_column_int(st, 6);
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
	db_reset(st);
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

/* load_rows, its two reads in one round trip on a server */
static store_rc load(store *s, const char *id, store_game *g, int replay,
                     store_error *err)
{
	int ahead = sql_read_ahead_game(s, id);
	store_rc rc = load_rows(s, id, g, replay, err);

	if (ahead)
		db_read_ahead_drop(s->db);
	return rc;
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

