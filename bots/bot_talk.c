/*
 * bot_talk.c - a bot's line of table talk from its search's figures
 * (bot_talk.h says when it speaks, and why it names no card another
 * player holds).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bot_talk.h"

enum { WORDS_MAX = 160 };   /* bytes of one card or action in words */

/* Appends printf text to buf (cap bytes) at *at; -1 once it is full. */
static int put(char *buf, size_t cap, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int put(char *buf, size_t cap, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= cap)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, cap - *at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap - *at) {
		*at = cap;
		return -1;
	}
	*at += (size_t)n;
	return 0;
}

/* The line written, or nothing if it did not fit: never half a
 * sentence. */
static int done(char *buf, size_t cap, size_t at, int bad)
{
	if (bad || at >= cap) {
		if (cap > 0)
			buf[0] = '\0';
		return 0;
	}
	return (int)at;
}

/* 0..100, rounded. */
static int pct(double p)
{
	return p <= 0 ? 0 : p >= 1 ? 100 : (int)(p * 100 + 0.5);
}

/* A Shift card with its icons: "Captain (3 Officers)". */
static void shift_words(bt_card c, char *buf, size_t cap)
{
	const bt_card_info *k = bt_card_get(c);

	if (k->officers)
		snprintf(buf, cap, "%s (%d Officer%s)", k->name, k->officers,
		         k->officers == 1 ? "" : "s");
	else
		snprintf(buf, cap, "%s (Effort %d)", k->name, k->effort);
}

static const char *seat_name(const char *const *names, int seat,
                             char *buf, size_t cap)
{
	if (names && seat >= 1 && seat <= BT_MAX_PLAYERS && names[seat - 1] &&
	    names[seat - 1][0])
		return names[seat - 1];
	snprintf(buf, cap, "seat %d", seat);
	return buf;
}

/* An action as a gerund, lower case: "drawing a Shift card", "starting
 * Trivia Night", "handing a card to Ann" (the card unnamed). */
static void gerund(const bt_action *a, const char *const *names, char *buf,
                   size_t cap)
{
	char who[48];

	switch (a->verb) {
	case BT_WORK:
		snprintf(buf, cap, "drawing a Shift card");
		return;
	case BT_LOG:
		snprintf(buf, cap, "logging the assignment");
		return;
	case BT_SIDE:
		snprintf(buf, cap, "starting %s", bt_card_get(a->card)->name);
		return;
	default:
		break;
	}
	if (a->card >= BT_CARD_COUNT) {
		snprintf(buf, cap, "playing a card");
		return;
	}
	if (bt_card_get(a->card)->kind == BT_HAND_OFF && a->nargs >= 2)
		snprintf(buf, cap, "handing a card to %s",
		         seat_name(names, a->arg[1], who, sizeof who));
	else
		snprintf(buf, cap, "playing %s",
		         bt_kind_name(bt_card_get(a->card)->kind));
}

/* Rule 1: the cards of the sweep a, top first. */
static int sweep_line(const bt_game *g, const bt_action *a, char *buf,
                      size_t cap)
{
	char card[WORDS_MAX];
	size_t at = 0;
	int bad = put(buf, cap, &at, "Sensor Sweep: the next Shift card%s ",
	              a->nargs == 1 ? " is" : "s are");

	for (int i = 0; i < a->nargs && i < BT_SWEEP_CARDS; i++) {
		if (a->arg[i] >= BT_CARD_COUNT)
			return done(buf, cap, at, 1);
		shift_words(a->arg[i], card, sizeof card);
		bad |= put(buf, cap, &at, "%s%s", i ? ", then " : "", card);
	}
	bad |= put(buf, cap, &at, "; the next draw %s.",
	           bt_draw_reprimands(g, a->arg[0]) ? "brings a reprimand"
	                                            : "is safe");
	return done(buf, cap, at, bad || a->nargs == 0);
}

/* Rule 2: why not the crew's usual move. */
static int gain_line(const bt_action *a, const bot_figures *f,
                     const char *const *names, char *buf, size_t cap)
{
	char mine[WORDS_MAX], theirs[WORDS_MAX];
	size_t at = 0;
	int bad;

	gerund(a, names, mine, sizeof mine);
	gerund(&f->crew, names, theirs, sizeof theirs);
	if (mine[0] >= 'a' && mine[0] <= 'z')
		mine[0] = (char)(mine[0] - 'a' + 'A');
	bad = put(buf, cap, &at, "%s: %d%% to win this way, against %d%% for "
	          "%s.", mine, pct(f->chance), pct(f->crew_chance), theirs);
	return done(buf, cap, at, bad);
}

/* Rule 3: a risky draw. */
static int risk_line(const bot_figures *f, char *buf, size_t cap)
{
	size_t at = 0;
	int need = f->effort_needed, bad;

	if (f->risk_num >= f->risk_den)
		bad = put(buf, cap, &at, "Drawing: the next card brings a "
		          "reprimand, but nothing else does better; we need %d "
		          "more Effort.", need);
	else
		bad = put(buf, cap, &at, "Drawing: %d%% risk, and we need %d "
		          "more Effort.",
		          pct((double)f->risk_num / f->risk_den), need);
	return done(buf, cap, at, bad);
}

int bot_talk_move(const bt_game *g, const bt_action *a,
                  const bot_figures *f, const char *const *names,
                  char *buf, size_t cap)
{
	if (cap > 0)
		buf[0] = '\0';
	if (!g || !a || !f || cap == 0)
		return 0;
	if (f->swept && a->verb == BT_SPECIAL && a->nargs > 0)
		return sweep_line(g, a, buf, cap);
	if (f->crew_differs && f->games > 0 &&
	    pct(f->chance) - pct(f->crew_chance) >= BOT_TALK_GAIN)
		return gain_line(a, f, names, buf, cap);
	if (a->verb == BT_WORK && f->risk_den > 0 &&
	    f->risk_num * 100 >= BOT_TALK_RISKY * f->risk_den)
		return risk_line(f, buf, cap);
	return 0;
}

int bot_talk_hand(const bt_game *g, int seat, const char *last, char *buf,
                  size_t cap)
{
	size_t at = 0;
	int bad, news = 0, n = 0;

	if (cap > 0)
		buf[0] = '\0';
	if (!g || seat < 1 || seat > g->players || cap == 0)
		return 0;
	bad = put(buf, cap, &at, "%s", BOT_TALK_HAND);
	for (int c = BT_ABILITY_FIRST; c < BT_ABILITY_FIRST + BT_ABILITY_COUNT;
	     c++) {
		if (!(g->hand[seat - 1] >> c & 1))
			continue;
		const char *kind = bt_kind_name(bt_card_get((bt_card)c)->kind);
		news |= !last || !strstr(last, kind);
		bad |= put(buf, cap, &at, "%s %s", n++ ? "," : "", kind);
	}
	bad |= put(buf, cap, &at, ".");
	return done(buf, cap, at, bad || !news);
}
