/*
 * menu.c - the legal actions as a numbered menu, and reading a pick of
 * it (menu.h).  The button words are the table's (cgi/action_forms.c asks
 * words_action_name too), the choices the card table's (describe_card).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "menu.h"
#include "utf8.h"

enum {
	WORDS_MAX = 64,      /* words of a name or a reply we compare */
	REPLY_MAX = 512,     /* bytes of a reply's words we read */
	SEAT_NAME = 64       /* bytes of a player's name in a name */
};

const char *words_action_name(bt_verb verb, bt_card card, char *buf,
                              size_t cap)
{
	const bt_card_info *k;

	if (verb == BT_LOG)
		snprintf(buf, cap, "Log the completed assignment");
	else if (verb == BT_WORK || card >= BT_CARD_COUNT)
		snprintf(buf, cap, "Get to work");
	else if ((k = bt_card_get(card))->type == BT_TYPE_SIDE)
		snprintf(buf, cap, "Start this Side Project");
	else if (k->kind == BT_SENSOR_SWEEP)
		snprintf(buf, cap, "Look at the top of the Shift Deck");
	else
		snprintf(buf, cap, "Play %s", k->name);
	return buf;
}

/* ---- building ---------------------------------------------------------- */

/* snprintf, whose cut (a long player's name) is fine: the caller makes
 * the end valid UTF-8 again. */
static void line(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void line(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
}

static void name_of(const bt_game *g, const bt_action *a,
                    const char *const names[], char *buf, size_t cap)
{
	const bt_card_info *k;
	char card[DESCRIBE_MAX / 4], who[SEAT_NAME + 16];
	int top = g->shift_deck.n < BT_SWEEP_CARDS ? g->shift_deck.n
	                                           : BT_SWEEP_CARDS;
	static const char *const count[BT_SWEEP_CARDS + 1] = {
		"", "card", "two Shift cards", "three Shift cards"
	};

	if (a->verb == BT_WORK || a->verb == BT_LOG ||
	    a->card >= BT_CARD_COUNT) {
		words_action_name((bt_verb)a->verb, a->card, buf, cap);
		return;
	}
	k = bt_card_get(a->card);   /* work and log have no card */
	if (a->verb == BT_SIDE) {
		describe_card(a->card, card, sizeof card);
		line(buf, cap, "Start this Side Project: %s", card);
		return;
	}
	switch (k->kind) {
	case BT_SENSOR_SWEEP:
		line(buf, cap, "Play %s: look at the top %s%s", k->name,
		         top == 1 ? "Shift " : "", count[top]);
		return;
	case BT_COVER_STORY:
	case BT_SCALE_BACK:
		describe_card(a->arg[0], card, sizeof card);
		line(buf, cap, "Play %s on %s", k->name, card);
		return;
	case BT_HAND_OFF:
		describe_card(a->arg[0], card, sizeof card);
		if (names && names[a->arg[1] - 1] && names[a->arg[1] - 1][0])
			line(who, sizeof who, "%.*s", SEAT_NAME,
			         names[a->arg[1] - 1]);
		else
			line(who, sizeof who, "Seat %d", a->arg[1]);
		utf8_cut_valid(who);
		line(buf, cap, "Play %s: give %s to %s", k->name, card, who);
		return;
	default:
		line(buf, cap, "Play %s", k->name);
		return;
	}
}

/* The bytes of name that are the button's words: up to ": " or " on "
 * for an action with a choice (or a side's card), all of it otherwise. */
static int head_of(const bt_action *a, const char *name)
{
	const char *colon = strstr(name, ": "), *on = strstr(name, " on ");
	const char *end = colon && (!on || colon < on) ? colon : on;

	if (a->verb == BT_WORK || a->verb == BT_LOG || !end)
		return (int)strlen(name);
	return (int)(end - name);
}

static void offer_of(const bt_game *g, int seat, const bt_action *a,
                     char *buf, size_t cap)
{
	if (a->verb == BT_WORK)
		offer_work(g, seat, buf, cap);
	else if (a->verb == BT_LOG)
		offer_log(g, buf, cap);
	else
		offer_play(g, a, 1, buf, cap);
}

/* 1 if a is a Sensor Sweep whose card has an item already (its orders
 * are one item: the order is chosen after the look). */
static int sweep_seen(const menu *m, const bt_action *a)
{
	if (a->verb != BT_SPECIAL ||
	    bt_card_get(a->card)->kind != BT_SENSOR_SWEEP)
		return 0;
	for (int i = 0; i < m->n; i++)
		if (m->item[i].a.card == a->card)
			return 1;
	return 0;
}

/* 1 if an item before item i has its name: two copies of a card in
 * hand (or in the Shift Stack) make the same move, and two lines that
 * read alike would only ask which one to choose. */
static int named_before(const menu *m, int i)
{
	for (int k = 0; k < i; k++)
		if (!strcmp(m->item[k].name, m->item[i].name))
			return 1;
	return 0;
}

int menu_build(const bt_game *g, int seat, const char *const names[],
               menu *m)
{
	bt_action legal[BT_MAX_LEGAL];
	int n;

	m->n = 0;
	if (g->status != BT_PLAYING)
		return 0;
	if (seat != g->turn)
		return -1;
	n = bt_legal(g, legal, BT_MAX_LEGAL);
	for (int i = 0; i < n; i++) {
		menu_item *it;
		if (sweep_seen(m, &legal[i]))
			continue;
		if (m->n == MENU_MAX) {
			m->n = 0;
			return -1;
		}
		it = &m->item[m->n++];
		it->a = legal[i];
		if (it->a.verb == BT_SPECIAL &&
		    bt_card_get(it->a.card)->kind == BT_SENSOR_SWEEP) {
			it->a.nargs = 0;
			memset(it->a.arg, 0, sizeof it->a.arg);
		}
		name_of(g, &it->a, names, it->name, sizeof it->name);
		utf8_cut_valid(it->name);
		if (named_before(m, m->n - 1)) {
			m->n--;     /* a copy of a card: the same move */
			continue;
		}
		it->head = head_of(&it->a, it->name);
		offer_of(g, seat, &it->a, it->offer, sizeof it->offer);
		utf8_cut_valid(it->offer);
	}
	return m->n;
}

/* ---- picking ------------------------------------------------------------ */

/* Words of a text: lowercased runs of letters, digits and non-ASCII
 * bytes, at most WORDS_MAX of them. */
typedef struct wordlist {
	int n;
	char text[REPLY_MAX + 1];
	const char *w[WORDS_MAX];
	size_t len[WORDS_MAX];
} wordlist;

static int word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/* Splits s into l; -1 if it is longer than REPLY_MAX or has more than
 * WORDS_MAX words. */
static int split(const char *s, wordlist *l)
{
	size_t n = strnlen(s, REPLY_MAX + 1), i = 0;

	l->n = 0;
	if (n > REPLY_MAX)
		return -1;
	for (size_t k = 0; k < n; k++)
		l->text[k] = s[k] >= 'A' && s[k] <= 'Z' ? (char)(s[k] - 'A' + 'a')
		                                         : s[k];
	l->text[n] = '\0';
	while (i < n) {
		size_t start;
		while (i < n && !word_byte((unsigned char)l->text[i]))
			i++;
		if (i == n)
			break;
		if (l->n == WORDS_MAX)
			return -1;
		start = i;
		while (i < n && word_byte((unsigned char)l->text[i]))
			i++;
		l->w[l->n] = l->text + start;
		l->len[l->n++] = i - start;
	}
	return 0;
}

/* How the reply's words fit a name: each reply word takes one unused
 * equal word of the name (one in the button's words if there is one),
 * so "Seat 4" and "Seat 5" differ even beside "Target 5, Leisure 4". */
typedef struct fit {
	int ok;        /* every reply word found one */
	int head;      /* ... of them in the button's words */
	int extra;     /* words of the name the reply did not take */
} fit;

static int take(const wordlist *name, unsigned char *used, int head,
                const char *w, size_t len)
{
	int any = -1;

	for (int i = 0; i < name->n; i++) {
		if (used[i] || name->len[i] != len ||
		    memcmp(name->w[i], w, len) != 0)
			continue;
		if (name->w[i] - name->text < head) {
			used[i] = 1;
			return 1;
		}
		if (any < 0)
			any = i;
	}
	if (any < 0)
		return -1;
	used[any] = 1;
	return 0;
}

static fit fit_of(const wordlist *reply, const wordlist *name, int head)
{
	unsigned char used[WORDS_MAX] = { 0 };
	fit f = { 1, 0, name->n - reply->n };

	if (head <= 0)
		head = REPLY_MAX + 1;
	for (int i = 0; i < reply->n && f.ok; i++) {
		int t = take(name, used, head, reply->w[i], reply->len[i]);
		f.ok = t >= 0;
		f.head += t > 0;
	}
	return f;
}

int menu_pick(const menu *m, int number, const char *words)
{
	wordlist reply, name;
	int best = -1, best_score = -1, tied = 0;

	if (!m)
		return -1;
	if (number > 0)
		return number <= m->n ? number - 1 : -1;
	if (!words || split(words, &reply) || reply.n == 0)
		return -1;
	for (int i = 0; i < m->n; i++) {
		fit f;
		int score;
		if (split(m->item[i].name, &name))
			continue;
		f = fit_of(&reply, &name, m->item[i].head);
		if (!f.ok)
			continue;
		/* more words in the button first, then fewer unsaid */
		score = f.head * (WORDS_MAX + 1) + WORDS_MAX - f.extra;
		if (score < best_score)
			continue;
		if (score == best_score) {
			tied |= strcmp(m->item[i].name, m->item[best].name) != 0;
			continue;
		}
		best = i;
		best_score = score;
		tied = 0;
	}
	return tied ? -2 : best;
}
