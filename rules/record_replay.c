/*
 * record_replay.c - replaying a record of RECORD.md line by line: the
 * version line, the header's keywords and stacks, then action lines
 * applied by the engine.  As strict as the writer (record.c): what it
 * would not write is refused with its line number.
 */
#include <stdio.h>
#include <string.h>

#include "record_lex.h"

/* ---- replaying -------------------------------------------------------- */

enum phase {
	PH_VERSION,     /* expecting line 1 */
	PH_HEADER,
	PH_ACTIONS,     /* the game is running */
	PH_DONE,        /* finished */
	PH_FAILED
};

void bt_replay_init(bt_replay *r)
{
	memset(r, 0, sizeof *r);
	r->phase = PH_VERSION;
}

/* Records err as the replay's error, on line. */
static int replay_fail(bt_replay *r, int line, bt_error *err)
{
	if (err->rule == 0)
		err->rule = 11;
	r->err = *err;
	r->err_line = line > 0 ? line : 1;
	r->phase = PH_FAILED;
	return -1;
}

/* Forgets the stack lines whose deck has been shuffled. */
static void refresh_waiting(bt_replay *r)
{
	for (int d = 0; d < BT_DECK__MAX; d++)
		if (r->game.rig_n[d] == 0)
			r->waiting[d] = 0;
}

/* The line an engine error belongs on: a failed waiting stack line's
 * own, else the current one. */
static int engine_line(const bt_replay *r, const bt_error *err)
{
	if (err->code == BT_ERR_STACK && (unsigned)err->deck < BT_DECK__MAX &&
	    r->waiting[err->deck] > 0)
		return r->waiting[err->deck];
	return r->line;
}

static int header_complete(const bt_replay *r, bt_error *err)
{
	const char *missing = r->rec.players == 0 ? "players"
	                    : r->rec.first == 0 ? "first"
	                    : !r->has_seed ? "seed" : NULL;

	if (missing != NULL)
		return record_fail(err, BT_ERR_SETUP, 11, "the header has no '%s' line",
		                   missing);
	return 0;
}

/* Ends the header: sets the game up with the header's stack lines. */
static int replay_start(bt_replay *r, bt_error *err)
{
	const bt_record *rec = &r->rec;
	bt_game *g = &r->game;

	if (header_complete(r, err))
		return replay_fail(r, r->line, err);
	if (bt_game_init(g, rec->players, rec->first, rec->key, err))
		return replay_fail(r, r->players_line, err);
	for (int i = 0; i < rec->header_stacks; i++) {
		const bt_stack_line *s = &rec->stacks[i];
		if (bt_game_stack(g, (bt_deck)s->deck, s->c, s->n, err))
			return replay_fail(r, r->stack_line[i], err);
		r->waiting[s->deck] = r->stack_line[i];
	}
	if (bt_game_start(g, err))
		return replay_fail(r, engine_line(r, err), err);
	refresh_waiting(r);
	r->started = 1;
	r->phase = PH_ACTIONS;
	return 0;
}

static int line_action(bt_replay *r, const char *s, size_t n, bt_error *err)
{
	bt_action a;

	if (!r->started && replay_start(r, err))
		return -1;
	if (bt_action_parse(s, n, &a, err))
		return replay_fail(r, r->line, err);
	if (r->rec.nitems >= BT_RECORD_MAX_ITEMS) {
		record_fail(err, BT_ERR_BAD_ACTION, 11, "record too long (more than"
		            " %d lines after the header)", BT_RECORD_MAX_ITEMS);
		return replay_fail(r, r->line, err);
	}
	if (bt_apply(&r->game, &a, err))
		return replay_fail(r, engine_line(r, err), err);
	refresh_waiting(r);
	/* Cannot fail: the shape was parsed and the room checked. */
	bt_record_add_action(&r->rec, &a, err);
	return 0;
}

static int kw_players(bt_replay *r, const tok *t, int n, bt_error *err)
{
	long v;

	if (n != 2)
		return record_fail(err, BT_ERR_SETUP, 11, "expected 'players N'");
	if (r->rec.players != 0)
		return record_fail(err, BT_ERR_SETUP, 11, "a second 'players' line");
	v = record_tok_num(&t[1]);
	if (record_check_players(v, err))
		return -1;
	r->rec.players = (uint8_t)v;
	r->players_line = r->line;
	return 0;
}

static int kw_first(bt_replay *r, const tok *t, int n, bt_error *err)
{
	long v;

	if (n != 2)
		return record_fail(err, BT_ERR_SETUP, 11, "expected 'first SEAT'");
	if (r->rec.players == 0)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "'first' must come after 'players'");
	if (r->rec.first != 0)
		return record_fail(err, BT_ERR_SETUP, 11, "a second 'first' line");
	v = record_tok_num(&t[1]);
	if (record_check_first(v, r->rec.players, err))
		return -1;
	r->rec.first = (uint8_t)v;
	return 0;
}

static int kw_seed(bt_replay *r, const tok *t, int n, bt_error *err)
{
	if (n != 2)
		return record_fail(err, BT_ERR_SETUP, 11, "expected 'seed HEX'");
	if (r->has_seed)
		return record_fail(err, BT_ERR_SETUP, 11, "a second 'seed' line");
	if (record_set_seed(&r->rec, t[1].s, t[1].n, err))
		return -1;
	r->has_seed = 1;
	return 0;
}

/* "name SEAT TEXT": the name is the rest of the line, spaces and all,
 * so it is cut from the line rather than from the tokens. */
static int kw_name(bt_replay *r, const char *s, size_t len, bt_error *err)
{
	const char *seat = s + 5, *end = s + len, *sp;
	char q[32];
	tok ts;

	if (len <= 5)
		return record_fail(err, BT_ERR_SETUP, 11, "expected 'name SEAT NAME'");

	sp = memchr(seat, ' ', (size_t)(end - seat));
	if (sp == NULL || sp == seat || sp + 1 == end)
		return record_fail(err, BT_ERR_SETUP, 11, "expected 'name SEAT NAME'");
	if (r->rec.players == 0)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "'name' must come after 'players'");
	ts.s = seat;
	ts.n = (size_t)(sp - seat);
	long v = record_tok_num(&ts);
	if (v < 1 || v > r->rec.players)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "'%s' is not a seat from 1 to %d",
		                   record_clip(ts.s, ts.n, q), r->rec.players);
	return bt_record_name(&r->rec, (int)v, sp + 1,
	                      (size_t)(end - sp - 1), err);
}

/* Parses tokens "stack DECK CARD..." into *out. */
static int parse_stack(const tok *t, int n, bt_stack_line *out,
                       bt_error *err)
{
	char q[32];
	int d;

	if (n < 3 || !record_tok_is(&t[0], "stack"))
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "expected 'stack DECK CARD...'");
	for (d = 0; d < BT_DECK__MAX &&
	     !record_tok_is(&t[1], record_decks[d].name); d++)
		;
	if (d == BT_DECK__MAX)
		return record_fail(err, BT_ERR_SETUP, 11, "no deck '%s' (assignment,"
		                   " side, shift or ability)",
		                   record_clip(t[1].s, t[1].n, q));
	if (n - 2 > record_decks[d].size)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "the %s deck has only %d cards", record_decks[d].name,
		                   record_decks[d].size);
	for (int i = 0; i < n - 2; i++) {
		out->c[i] = record_tok_card(&t[i + 2], record_decks[d].type, BT_ERR_SETUP,
		                            err);
		if (out->c[i] == BT_NO_CARD)
			return -1;
	}
	out->deck = (uint8_t)d;
	out->n = (uint8_t)(n - 2);
	return 0;
}

int bt_stack_parse(const char *s, size_t len, bt_stack_line *out,
                   bt_error *err)
{
	tok t[TOK_MAX];
	int n = record_split(s, len, t, TOK_MAX);

	if (n < 0)
		return record_fail(err, BT_ERR_SETUP, 11, n == -1 ? "tokens must be "
		                   "separated by one space" : "too many tokens");
	return parse_stack(t, n, out, err);
}

int bt_record_add_line(bt_record *rec, const char *s, size_t len,
                       bt_error *err)
{
	bt_stack_line st;
	bt_action a;

	if (len > 6 && memcmp(s, "stack ", 6) == 0)
		return bt_stack_parse(s, len, &st, err) ? -1 :
		       bt_record_add_stack(rec, (bt_deck)st.deck, st.c, st.n,
		                           err);
	return bt_action_parse(s, len, &a, err) ? -1 :
	       bt_record_add_action(rec, &a, err);
}

static int kw_stack(bt_replay *r, const tok *t, int n, bt_error *err)
{
	bt_stack_line st;

	if (parse_stack(t, n, &st, err))
		return -1;
	int d = st.deck;
	bt_card *cards = st.c;
	/* The engine would refuse a second header stack line for a deck
	 * only at setup; saying so now keeps errors in line order. */
	for (int i = 0; !r->started && i < r->rec.header_stacks; i++)
		if (r->rec.stacks[i].deck == d)
			return record_fail(err, BT_ERR_SETUP, 11, "a second header"
			                   " stack line for the %s deck (line %d)",
			                   record_decks[d].name, r->stack_line[i]);
	int idx = r->rec.nstacks;
	if (bt_record_add_stack(&r->rec, (bt_deck)d, cards, st.n, err))
		return -1;
	r->stack_line[idx] = r->line;
	if (!r->started)
		return 0;
	/* Among the actions: it waits for the deck's next shuffle. */
	if (bt_game_stack(&r->game, (bt_deck)d, cards, st.n, err))
		return -1;
	r->waiting[d] = r->line;
	return 0;
}

/* A line that starts with a keyword rather than a seat. */
static int line_keyword(bt_replay *r, const char *s, size_t n,
                        bt_error *err)
{
	tok t[TOK_MAX];
	char q[32];
	int k;

	if ((n == 4 && memcmp(s, "name", 4) == 0) ||
	    (n > 4 && memcmp(s, "name ", 5) == 0)) {
		if (r->started)
			return record_fail(err, BT_ERR_SETUP, 11,
			                   "'name' after the first action");
		return kw_name(r, s, n, err);
	}
	k = record_split(s, n, t, TOK_MAX);
	if (k == -1)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "tokens must be separated by exactly one space");
	if (k == -2)
		return record_fail(err, BT_ERR_SETUP, 11, "too many tokens");
	if (record_tok_is(&t[0], "stack"))
		return kw_stack(r, t, k, err);
	if (r->started && (record_tok_is(&t[0], "players") ||
	                   record_tok_is(&t[0], "first") ||
	                   record_tok_is(&t[0], "seed")))
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "'%s' after the first action",
		                   record_clip(t[0].s, t[0].n, q));
	if (record_tok_is(&t[0], "players"))
		return kw_players(r, t, k, err);
	if (record_tok_is(&t[0], "first"))
		return kw_first(r, t, k, err);
	if (record_tok_is(&t[0], "seed"))
		return kw_seed(r, t, k, err);
	return record_fail(err, BT_ERR_SETUP, 11, "unknown line '%s'",
	                   record_clip(t[0].s, t[0].n, q));
}

static int line_version(bt_replay *r, const char *s, size_t n,
                        bt_error *err)
{
	static const char want[] = "buffertime 1";
	tok v;

	if (n == sizeof want - 1 && memcmp(s, want, n) == 0) {
		r->phase = PH_HEADER;
		return 0;
	}
	if (n > 11 && memcmp(s, "buffertime ", 11) == 0) {
		v.s = s + 11;
		v.n = n - 11;
	} else {
		v.s = s;
		v.n = 0;
	}
	if (v.n > 0 && record_tok_num(&v) >= 0)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "unsupported record version (this is %d)",
		                   BT_RECORD_VERSION);
	return record_fail(err, BT_ERR_SETUP, 11,
	                   "not a record: line 1 must be 'buffertime 1'");
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ')
			return 0;
	return 1;
}

/* One line of a known-good shape (length, UTF-8) in the current phase. */
static int line_dispatch(bt_replay *r, const char *s, size_t n,
                         bt_error *err)
{
	if (r->phase == PH_VERSION)
		return line_version(r, s, n, err);
	if (is_blank(s, n) || s[0] == '#')
		return 0;
	if (s[0] >= '0' && s[0] <= '9')
		return line_action(r, s, n, err);
	return line_keyword(r, s, n, err);
}

int bt_replay_line(bt_replay *r, const char *line, size_t len,
                   bt_error *err)
{
	bt_error e;

	if (err == NULL)
		err = &e;
	if (r->phase == PH_FAILED) {
		*err = r->err;
		return -1;
	}
	if (r->phase == PH_DONE) {
		record_fail(err, BT_ERR_SETUP, 11, "a line after the end");
		return replay_fail(r, r->line, err);
	}
	if (r->line >= BT_RECORD_MAX_LINES) {
		record_fail(err, BT_ERR_SETUP, 11, "too many lines (more than %d)",
		            BT_RECORD_MAX_LINES);
		return replay_fail(r, r->line, err);
	}
	r->line++;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > BT_RECORD_LINE_MAX) {
		record_fail(err, BT_ERR_SETUP, 11, "line too long (more than %d"
		            " bytes)", BT_RECORD_LINE_MAX);
		return replay_fail(r, r->line, err);
	}
	if (record_text_check(line, len, err) < 0)
		return replay_fail(r, r->line, err);
	if (line_dispatch(r, line, len, err))
		return r->phase == PH_FAILED ? -1 :
		       replay_fail(r, r->line, err);
	return 0;
}

int bt_replay_finish(bt_replay *r, bt_error *err)
{
	bt_error e;

	if (err == NULL)
		err = &e;
	switch (r->phase) {
	case PH_FAILED:
		*err = r->err;
		return -1;
	case PH_DONE:
		return 0;
	case PH_VERSION:
		record_fail(err, BT_ERR_SETUP, 11,
		            "empty record: line 1 must be 'buffertime 1'");
		return replay_fail(r, 1, err);
	default:
		break;
	}
	if (!r->started && replay_start(r, err))
		return -1;
	r->phase = PH_DONE;
	return 0;
}

int bt_replay_text(bt_replay *r, const char *text, size_t len,
                   bt_error *err)
{
	size_t start = 0;

	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl != NULL ? (size_t)(nl - text) : len;
		if (bt_replay_line(r, text + start, end - start, err))
			return -1;
		start = end + 1;
	}
	return bt_replay_finish(r, err);
}
