/*
 * store_create.c - how a game comes into the store: made new (with its
 * seats' emails in the same transaction, within the limits; at most once
 * per new-game form, when the form's key is given) or imported from a
 * whole record, which must replay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "sql.h"

/* 16 random bytes as 22 base64url characters. */
void store_random_id(char id[STORE_ID_LEN + 1])
{
	unsigned char raw[16];
	char b64[sodium_base64_ENCODED_LEN(16,
	         sodium_base64_VARIANT_URLSAFE_NO_PADDING)];

	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(b64, sizeof b64, raw, sizeof raw,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	memcpy(id, b64, STORE_ID_LEN);
	id[STORE_ID_LEN] = '\0';
}

/* A plausible address: printable, no spaces, one '@' inside, and a key
 * (the block list and the limits must be able to name it). */
static int email_ok(const char *e)
{
	size_t n = strlen(e);
	const char *at = strchr(e, '@');
	char key[STORE_EMAIL_MAX + 1];

	if (n == 0)
		return 1;
	if (n > STORE_EMAIL_MAX || !at || at == e || at[1] == '\0' ||
	    strchr(at + 1, '@') || store_address_key(e, key, sizeof key))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)e[i] <= ' ' || e[i] == 0x7f)
			return 0;
	return 1;
}

/* ---- writing rows ------------------------------------------------------ */

static store_rc insert_game(store *s, const char *id, const bt_record *rec,
                            const char *header, const char *options,
                            int seq, const bt_game *state,
                            int64_t reminder_secs, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_GAME_INSERT);

	db_bind_text(st, 1, id, -1);
	db_bind_int64(st, 2, store_now());
	db_bind_int(st, 3, rec->players);
	db_bind_int(st, 4, rec->first);
	db_bind_text(st, 5, rec->seed, -1);
	db_bind_text(st, 6, header, -1);
	db_bind_text(st, 7, options ? options : "", -1);
	db_bind_int(st, 8, seq);
	db_bind_text(st, 9, sql_status_name((bt_status)state->status), -1);
	db_bind_blob(st, 10, state, sizeof *state);
	db_bind_int(st, 11, sql_snapshot_format());
	db_bind_int(st, 12, sql_turn_seat(state));
	db_bind_int64(st, 13, reminder_secs ? reminder_secs
	                                         : STORE_REMIND_DEFAULT);
	int rc = sql_run(s, SQL_GAME_INSERT);
	return rc == DB_DONE ? STORE_OK
	                         : store_db_fail(s, rc, "saving the game", err);
}

/* The seats, with their emails and bots (either may be NULL). */
static store_rc insert_seats(store *s, const char *id, const bt_record *rec,
                             const char *const emails[BT_MAX_PLAYERS],
                             const char *const bots[BT_MAX_PLAYERS],
                             store_error *err)
{
	for (int seat = 1; seat <= rec->players; seat++) {
		db_stmt *st = sql_get(s, SQL_SEAT_INSERT);
		const char *email = emails && emails[seat - 1] ?
		                    emails[seat - 1] : "";
		const char *bot = bots && bots[seat - 1] ? bots[seat - 1] : "";
		db_bind_text(st, 1, id, -1);
		db_bind_int(st, 2, seat);
		db_bind_text(st, 3, rec->name[seat - 1], -1);
		db_bind_text(st, 4, email, -1);
		db_bind_text(st, 5, bot, -1);
		int rc = sql_run(s, SQL_SEAT_INSERT);
		if (rc != DB_DONE)
			return store_db_fail(s, rc, "saving a seat", err);
	}
	return STORE_OK;
}

/* ---- creating ----------------------------------------------------------- */


/* 1 if seats i and j (0-based) have addresses of one key. */
static int same_address(const char *const emails[BT_MAX_PLAYERS], int i,
                        int j)
{
	char a[STORE_EMAIL_MAX + 1], b[STORE_EMAIL_MAX + 1];

	return emails[i] && emails[j] && emails[i][0] && emails[j][0] &&
	       store_address_key(emails[i], a, sizeof a) == 0 &&
	       store_address_key(emails[j], b, sizeof b) == 0 &&
	       strcmp(a, b) == 0;
}

/* Every address plausible, and none in two seats: a game must not be a
 * way to send one stranger six emails at once. */
static store_rc check_emails(const char *const emails[BT_MAX_PLAYERS],
                             int players, store_error *err)
{
	for (int i = 0; emails && i < players; i++) {
		if (emails[i] && !email_ok(emails[i]))
			return store_fail(err, STORE_INVALID, "seat %d: '%.60s' "
			                  "is not an email address", i + 1,
			                  emails[i]);
		for (int j = 0; j < i; j++)
			if (same_address(emails, j, i))
				return store_fail(err, STORE_INVALID, "seats %d "
				                  "and %d have the same email "
				                  "address: an address may be in "
				                  "one seat of a game", j + 1, i + 1);
	}
	return STORE_OK;
}

/* Header, names and options of ng into rec, all checked. */
/* A bot seat's name says so wherever it is shown (tables, histories,
 * emails, records): "NAME (bot)"; without a name "Bot", or "Bot 2",
 * "Bot 3" for the game's second and third nameless bots.  A name that
 * says so already (a rematch's) is kept. */
static const char *as_bot(const store_new_game *ng, int i, char *buf,
                          size_t cap)
{
	static const char mark[] = " (bot)";
	const char *name = ng->names[i];
	size_t n = name ? strlen(name) : 0, m = sizeof mark - 1;
	int nth = 1;

	if ((n >= m && strcmp(name + n - m, mark) == 0) ||
	    (n >= 3 && strncmp(name, "Bot", 3) == 0 &&
	     (name[3] == '\0' || (name[3] == ' ' && name[4] >= '2' &&
	      name[4] <= '9' && name[5] == '\0'))))
		return name;
	if (n) {
		snprintf(buf, cap, "%s%s", name, mark);
		return buf;
	}
	for (int j = 0; j < i; j++)
		nth += ng->bots[j] && ng->bots[j][0] &&
		       !(ng->names[j] && ng->names[j][0]);
	if (nth == 1)
		snprintf(buf, cap, "Bot");
	else
		snprintf(buf, cap, "Bot %d", nth);
	return buf;
}

static store_rc new_record(const store_new_game *ng, bt_record *rec,
                           store_error *err)
{
	char seed[BT_SEED_TEXT_MAX + 1];
	bt_error gerr;

	if (ng->seed) {
		snprintf(seed, sizeof seed, "%s", ng->seed);
	} else {
		uint8_t key[BT_KEY_BYTES];
		randombytes_buf(key, sizeof key);
		bt_seed_hex(key, seed);
	}
	if (bt_record_init(rec, ng->players, ng->first, seed, strlen(seed),
	                   &gerr))
		return store_fail(err, STORE_INVALID, "%s", gerr.why);
	for (int i = 0; i < ng->players; i++) {
		char bot_name[BT_NAME_BYTES_MAX + 8];
		const char *name = ng->names[i];
		if (ng->bots[i] && ng->bots[i][0])
			name = as_bot(ng, i, bot_name, sizeof bot_name);
		if (name && name[0] &&
		    bt_record_name(rec, i + 1, name, strlen(name), &gerr))
			return store_fail(err, STORE_INVALID, "seat %d: %s",
			                  i + 1, gerr.why);
	}
	if (ng->options && strlen(ng->options) > STORE_OPTIONS_MAX)
		return store_fail(err, STORE_INVALID, "options over %d bytes",
		                  STORE_OPTIONS_MAX);
	if (ng->reminder_secs && (ng->reminder_secs < STORE_REMIND_MIN ||
	                          ng->reminder_secs > STORE_REMIND_MAX))
		return store_fail(err, STORE_INVALID, "a reminder interval "
		                  "must be from 1 hour to 30 days");
	if (ng->standin && strcmp(ng->standin, "off") &&
	    strcmp(ng->standin, "agree") &&
	    (strcmp(ng->standin, "days") || ng->standin_days < 1 ||
	     ng->standin_days > STORE_STANDIN_DAYS_MAX))
		return store_fail(err, STORE_INVALID, "a stand-in rule is off, "
		                  "agree, or days with 1 to %d days",
		                  STORE_STANDIN_DAYS_MAX);
	for (int i = 0; i < ng->players; i++)
		if (ng->bots[i] && ng->bots[i][0] &&
		    (!store_bot_ok(ng->bots[i]) ||
		     (ng->emails[i] && ng->emails[i][0])))
			return store_fail(err, STORE_INVALID, "seat %d: %s", i + 1,
			                  store_bot_ok(ng->bots[i])
			                  ? "a bot seat has no email address"
			                  : "there is no such bot");
	return check_emails(ng->emails, ng->players, err);
}

/* The game's stand-in rule, unless off (the column's default). */
static store_rc standin_rule(store *s, const char *id,
                             const store_new_game *ng, store_error *err)
{
	if (!ng->standin || strcmp(ng->standin, "off") == 0)
		return STORE_OK;
	db_stmt *st = sql_get(s, SQL_STANDIN_RULE);
	db_bind_text(st, 1, id, -1);
	db_bind_text(st, 2, ng->standin, -1);
	db_bind_int(st, 3, strcmp(ng->standin, "days") == 0
	                        ? ng->standin_days : 0);
	int rc = sql_run(s, SQL_STANDIN_RULE);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "saving the stand-in rule", err);
}

/* A practice table: marked, and its first turn's hints queued. */
static store_rc practice(store *s, const char *id, const store_new_game *ng,
                         const bt_game *state, store_error *err)
{
	if (!ng->practice)
		return STORE_OK;
	db_stmt *st = sql_get(s, SQL_PRACTICE_SET);
	db_bind_text(st, 1, id, -1);
	int rc = sql_run(s, SQL_PRACTICE_SET);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "marking a practice table", err);
	return sql_queue_hints(s, id, 1, ng->bots[state->turn - 1], state, 0,
	                       err);
}

/* A game from the web (ng->client set) has a person in it.  A game of
 * bots only sends no email and waits for nobody: it would be the
 * worker's CPU for the asking, with a few bot moves a second until it
 * ends, made again and again by "play again".  With a person in a seat
 * the bots move only between that person's moves.  The command line
 * (no client) may still make one, for tests and benchmarks. */
static store_rc has_person(const store_new_game *ng, store_error *err)
{
	if (!ng->client)
		return STORE_OK;
	for (int i = 0; i < ng->players; i++)
		if (!ng->bots[i] || !ng->bots[i][0])
			return STORE_OK;
	return store_fail(err, STORE_INVALID, "A game needs at least one "
	                  "person playing, not only bots: untick a bot and "
	                  "give that player a name.");
}

/* The game's client has made one more game: refused when that is over
 * its games_per_hour. */
static store_rc count_game(store *s, const store_new_game *ng,
                           store_error *err)
{
	int max = s->limits.games_per_hour;
	store_rc rc;

	if (!ng->client)
		return STORE_OK;
	rc = store_limit_take(s, STORE_LIMIT_GAME, ng->client, max,
	                      STORE_LIMIT_HOUR, err);
	if (rc == STORE_LIMITED)
		sql_limited_why(err, "Your address has made %d game%s in the "
		                "last hour, the most this server allows.", max,
		                max == 1 ? "" : "s");
	return rc;
}

store_rc store_create_locked(store *s, const store_new_game *ng,
                             char id[STORE_ID_LEN + 1], store_error *err)
{
	bt_record *rec = &s->replay->rec;
	bt_game state;
	bt_error gerr;
	store_rc rc;

	if ((rc = new_record(ng, rec, err)))
		return rc;
	if (bt_game_new(&state, rec->players, rec->first, rec->key, &gerr))
		return store_fail(err, STORE_INVALID, "%s", gerr.why);
	if ((rc = has_person(ng, err)) || (rc = count_game(s, ng, err)))
		return rc;
	store_random_id(id);
	if ((rc = insert_game(s, id, rec, "", ng->options, 0, &state,
	                      ng->reminder_secs, err)) ||
	    (rc = insert_seats(s, id, rec, ng->emails, ng->bots, err)) ||
	    (rc = sql_queue_bot_turn(s, id, ng->bots[state.turn - 1], &state,
	                             0, 0, err)) ||
	    (rc = standin_rule(s, id, ng, err)) ||
	    (rc = practice(s, id, ng, &state, err)))
		return rc;
	return ng->mail_fn ? store_seat_mails_locked(s, id, ng->mail_fn,
	                                             ng->mail_ctx, err)
	                   : STORE_OK;
}

store_rc store_seat_mails_locked(store *s, const char *id,
                                 store_seat_mail_fn fn, void *ctx,
                                 store_error *err)
{
	store_game *g = s->scratch;
	store_rc rc;

	if ((rc = store_load(s, id, g, err)))
		return rc;
	for (int seat = 1; seat <= g->players; seat++) {
		int made = fn(ctx, g, seat, s->mail);
		if (made < 0)
			return store_fail(err, STORE_ERROR, "seat %d's email "
			                  "could not be written", seat);
		if (made && (rc = store_queue_mail(s, id, s->mail, err)))
			return rc;
	}
	return STORE_OK;
}

store_rc store_create(store *s, const store_new_game *ng,
                      char id[STORE_ID_LEN + 1], store_error *err)
{
	store_rc rc;

	if ((rc = sql_begin(s, err)))
		return rc;
	if ((rc = store_create_locked(s, ng, id, err))) {
		sql_rollback(s);
		return rc;
	}
	return sql_commit(s, err);
}

/* ---- once per form ------------------------------------------------------ */

/* The stored form of a key: its hash, so the table holds nothing that
 * would show a game's links to whoever read it. */
static store_rc once_hash(const char *once,
                          unsigned char h[crypto_generichash_BYTES],
                          store_error *err)
{
	size_t n = once ? strlen(once) : 0;

	if (n == 0 || n > STORE_ONCE_MAX)
		return store_fail(err, STORE_INVALID, "a form's key has 1 to "
		                  "%d characters", STORE_ONCE_MAX);
	crypto_generichash(h, crypto_generichash_BYTES,
	                   (const unsigned char *)once, n, NULL, 0);
	return STORE_OK;
}

/* The game of hash h into id: STORE_OK, STORE_NOT_FOUND or an error. */
static store_rc creation_find(store *s, const unsigned char *h,
                              char id[STORE_ID_LEN + 1], store_error *err)
{
	db_stmt *st = sql_get(s, SQL_CREATION_GET);
	int rc;

	db_bind_blob(st, 1, h, crypto_generichash_BYTES);
	rc = db_step(st);
	if (rc == DB_ROW) {
		int bad = sql_column_text(st, 0, id, STORE_ID_LEN + 1);
		db_reset(st);
		return bad ? store_fail(err, STORE_CORRUPT, "a creation's "
		                        "game id is too long") : STORE_OK;
	}
	db_reset(st);
	if (rc != DB_DONE)
		return store_db_fail(s, rc, "finding a form's game", err);
	return store_fail(err, STORE_NOT_FOUND, "no game made by that form");
}

store_rc store_creation_get(store *s, const char *once,
                            char id[STORE_ID_LEN + 1], store_error *err)
{
	unsigned char h[crypto_generichash_BYTES];
	store_rc rc;

	id[0] = '\0';
	if ((rc = once_hash(once, h, err)))
		return rc;
	return creation_find(s, h, id, err);
}

/* Inside the transaction: the game of the key, or a new one and its
 * row. */
static store_rc create_once_locked(store *s, const store_new_game *ng,
                                   const unsigned char *h,
                                   char id[STORE_ID_LEN + 1], int *made,
                                   store_error *err)
{
	store_rc rc = creation_find(s, h, id, err);

	if (rc != STORE_NOT_FOUND)
		return rc;
	if ((rc = store_create_locked(s, ng, id, err)))
		return rc;
	db_stmt *st = sql_get(s, SQL_CREATION_ADD);
	db_bind_blob(st, 1, h, crypto_generichash_BYTES);
	db_bind_text(st, 2, id, -1);
	int src = sql_run(s, SQL_CREATION_ADD);
	if (src != DB_DONE)
		return store_db_fail(s, src, "saving the form's key", err);
	*made = 1;
	return STORE_OK;
}

store_rc store_create_once(store *s, const store_new_game *ng,
                           const char *once, char id[STORE_ID_LEN + 1],
                           int *made, store_error *err)
{
	unsigned char h[crypto_generichash_BYTES];
	store_rc rc;

	*made = 0;
	id[0] = '\0';
	if ((rc = once_hash(once, h, err)) || (rc = sql_begin(s, err)))
		return rc;
	/* BEGIN IMMEDIATE: two sends of one form at the same instant are
	 * one after the other here, and the second finds the first's row */
	if ((rc = create_once_locked(s, ng, h, id, made, err))) {
		sql_rollback(s);
		*made = 0;
		return rc;
	}
	if ((rc = sql_commit(s, err)))
		*made = 0;
	return rc;
}

/* ---- importing ---------------------------------------------------------- */

struct text_buf {
	char *p;
	size_t n, cap;
};

static int grow_emit(void *ctx, const char *text, size_t n)
{
	struct text_buf *b = ctx;

	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->cap + n + 1) * 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, text, n);
	b->n += n;
	b->p[b->n] = '\0';
	return 0;
}

/* Replays rec from its text, as a reader of the record would. */
static store_rc replay_record(store *s, const bt_record *rec,
                              store_error *err)
{
	struct text_buf text = { 0 };

	if (bt_record_write(rec, grow_emit, &text)) {
		free(text.p);
		return store_fail(err, STORE_INVALID, "the record cannot be "
		                  "written (no seed, or out of memory)");
	}
	bt_error gerr;
	bt_replay_init(s->replay);
	int bad = bt_replay_text(s->replay, text.p, text.n, &gerr);
	free(text.p);
	if (!bad)
		return STORE_OK;
	if (err)
		err->game = gerr;
	return store_fail(err, STORE_ILLEGAL, "line %d: rule R%d: %s",
	                  s->replay->err_line, gerr.rule, gerr.why);
}

/* The header's stack lines as text, a line each. */
static store_rc header_text(const bt_record *rec, char *buf, size_t cap,
                            store_error *err)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < rec->header_stacks; i++) {
		int n = bt_stack_format(&rec->stacks[i], buf + at, cap - at);
		if (n < 0 || at + (size_t)n + 2 > cap)
			return store_fail(err, STORE_INVALID, "header too long");
		at += (size_t)n;
		buf[at++] = '\n';
		buf[at] = '\0';
	}
	return STORE_OK;
}

static store_rc insert_items(store *s, const char *id, const bt_record *rec,
                             store_error *err)
{
	char line[BT_RECORD_LINE_MAX];

	for (int i = 0; i < rec->nitems; i++) {
		const bt_item *it = &rec->items[i];
		int seat = it->type == BT_ITEM_ACTION ? it->action.seat : 0;
		int n = it->type == BT_ITEM_ACTION
		        ? bt_action_format(&it->action, line, sizeof line)
		        : bt_stack_format(&rec->stacks[it->stack], line,
		                          sizeof line);
		if (n < 0)
			return store_fail(err, STORE_INVALID, "item %d cannot "
			                  "be written", i + 1);
		store_rc rc = sql_insert_line(s, id, i, seat, line, "", err);
		if (rc)
			return rc;
	}
	return STORE_OK;
}

store_rc store_import(store *s, const bt_record *rec,
                      const char *const emails[BT_MAX_PLAYERS],
                      char id[STORE_ID_LEN + 1], store_error *err)
{
	char header[STORE_HEADER_MAX + 1];
	store_rc rc;

	if ((rc = check_emails(emails, rec->players, err)) ||
	    (rc = header_text(rec, header, sizeof header, err)) ||
	    (rc = replay_record(s, rec, err)))
		return rc;
	store_random_id(id);
	if ((rc = sql_begin(s, err)))
		return rc;
	if ((rc = insert_game(s, id, rec, header, NULL, rec->nitems,
	                      &s->replay->game, 0, err)) ||
	    (rc = insert_seats(s, id, rec, emails, NULL, err)) ||
	    (rc = insert_items(s, id, rec, err)) ||
	    (rc = sql_queue_review(s, id, &s->replay->game, rec->nitems, 1,
	                           err))) {
		sql_rollback(s);
		return rc;
	}
	return sql_commit(s, err);
}
