/*
 * describe.c - actions in words.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "utf8.h"

const char *describe_seat(const store_game *g, int seat, char *buf,
                          size_t cap)
{
	if (seat >= 1 && seat <= g->players && g->seats[seat - 1].name[0])
		return g->seats[seat - 1].name;
	snprintf(buf, cap, "Seat %d", seat);
	return buf;
}

/* A bounded sentence being written. */
typedef struct words {
	char *buf;
	size_t cap, len;
} words;

static void say(words *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(words *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->len + 1 >= w->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->len, w->cap - w->len, fmt, ap);
	va_end(ap);
	w->len = n < 0 ? w->cap : w->len + (size_t)n;
	if (w->len >= w->cap)
		w->len = w->cap - 1;
}

/* The values c shows: "Effort 2", "3 Officers", "Target 2, Leisure 2",
 * or "" for an Ability. */
static void card_values(bt_card c, char *buf, size_t cap)
{
	const bt_card_info *k = bt_card_get(c);

	if (k->officers)
		snprintf(buf, cap, "%d Officer%s", k->officers,
		         k->officers == 1 ? "" : "s");
	else if (k->type == BT_TYPE_SHIFT)
		snprintf(buf, cap, "Effort %d", k->effort);
	else if (k->target)
		snprintf(buf, cap, "Target %d, Leisure %d", k->target,
		         k->leisure);
	else
		snprintf(buf, cap, "%s", "");
}

void describe_card(bt_card c, char *buf, size_t cap)
{
	char v[64];

	if (c >= BT_CARD_COUNT) {
		snprintf(buf, cap, "a card");
		return;
	}
	card_values(c, v, sizeof v);
	if (!v[0])
		snprintf(buf, cap, "%s", bt_card_get(c)->name);
	else if (bt_card_get(c)->type == BT_TYPE_SHIFT)
		snprintf(buf, cap, "%s, %s", bt_card_get(c)->name, v);
	else
		snprintf(buf, cap, "%s (%s)", bt_card_get(c)->name, v);
}

/* What describing one action needs. */
typedef struct scene {
	const bt_game *b, *a;       /* before, after */
	const bt_action *act;
	const store_game *g;
	int viewer;
	int you;                    /* told to the mover: "you", "your" */
	words *w;
} scene;

static const char *who(const scene *s, int seat, char *buf, size_t cap)
{
	if (s->you && seat == s->act->seat)
		return "you";
	return describe_seat(s->g, seat, buf, cap);
}

/* The mover's: "their" to the others, "your" to the mover. */
static const char *their(const scene *s)
{
	return s->you ? "your" : "their";
}

/* ---- the abilities: one line each ------------------------------------ */

/* The printed name of c ("a card" for none). */
static const char *name(bt_card c)
{
	return c < BT_CARD_COUNT ? bt_card_get(c)->name : "a card";
}

/* pre, the card in words, post. */
static void say_card(scene *s, const char *pre, bt_card c, const char *post)
{
	char t[96];

	describe_card(c, t, sizeof t);
	say(s->w, "%s%s%s", pre, t, post);
}

static void sp_overtime(scene *s)
{
	say(s->w, "Effort %d in the Shift Stack",
	    bt_card_get(s->act->card)->effort);
}

static void sp_cover(scene *s)
{
	say(s->w, "%s to the bottom of the Shift Deck", name(s->act->arg[0]));
}

/* The revealed card was the top of the deck before. */
static void sp_deflect(scene *s)
{
	const bt_pile *d = &s->b->shift_deck;
	bt_card c = d->n ? d->c[d->n - 1] : BT_NO_CARD;
	char v[64];

	if (c == BT_NO_CARD)
		return;
	card_values(c, v, sizeof v);
	say(s->w, "revealed %s (%s), %s", name(c), v, bt_card_is_officer(c)
	    ? "sent to the bottom of the Shift Deck" : "onto the Shift Stack");
}

static void sp_extra(scene *s)
{
	say(s->w, "one more Assignment at the bottom of the Assignment Deck");
}

static void sp_holodeck(scene *s)
{
	say(s->w, "%d Leisure in the Scoring Row",
	    bt_card_get(s->act->card)->leisure);
}

/* Only the sweeper knows the order (R10), until the game is over. */
static void sp_sweep(scene *s)
{
	say(s->w, "looked at the top %d Shift card%s and put them back in "
	    "an order of %s choosing", s->act->nargs,
	    s->act->nargs == 1 ? "" : "s", their(s));
	if (s->viewer != s->act->seat && s->viewer != DESCRIBE_EVERYONE)
		return;
	say(s->w, s->viewer == DESCRIBE_EVERYONE ? " (top first: "
	    : " (you chose, top first: ");
	for (int i = 0; i < s->act->nargs; i++)
		say(s->w, "%s%s", i ? ", " : "", name(s->act->arg[i]));
	say(s->w, ")");
}

static void sp_brainstorm(scene *s)
{
	int n = s->b->side_deck.n < 2 ? s->b->side_deck.n : 2;

	say(s->w, "drew %d Side Project%s", n, n == 1 ? "" : "s");
}

static void sp_scale_back(scene *s)
{
	say(s->w, "took %s back into %s hand", name(s->act->arg[0]),
	    their(s));
}

/* The card given is known to the giver and the receiver only (until the
 * game is over). */
static void sp_hand_off(scene *s)
{
	char n[48];
	int to = s->act->arg[1];

	if (s->viewer == s->act->seat || s->viewer == to ||
	    s->viewer == DESCRIBE_EVERYONE)
		say(s->w, "gave %s", name(s->act->arg[0]));
	else
		say(s->w, "gave a card");
	say(s->w, " to %s", who(s, to, n, sizeof n));
}

static void (*const specials[BT_KIND__MAX])(scene *) = {
	[BT_OVERTIME] = sp_overtime, [BT_COVER_STORY] = sp_cover,
	[BT_DEFLECT] = sp_deflect, [BT_EXTRA_DUTY] = sp_extra,
	[BT_HOLODECK] = sp_holodeck, [BT_SENSOR_SWEEP] = sp_sweep,
	[BT_BRAINSTORM] = sp_brainstorm, [BT_SCALE_BACK] = sp_scale_back,
	[BT_HAND_OFF] = sp_hand_off,
};

/* ---- the four verbs ---------------------------------------------------- */

static void v_work(scene *s)
{
	const bt_pile *d = &s->b->shift_deck;

	say(s->w, "got to work: ");
	say_card(s, "", d->n ? d->c[d->n - 1] : BT_NO_CARD, "");
}

static void v_side(scene *s)
{
	say_card(s, "started a side project: ", s->act->card, "");
}

static void v_special(scene *s)
{
	bt_kind k = bt_card_get(s->act->card)->kind;

	say(s->w, "played %s: ", bt_card_get(s->act->card)->name);
	if ((unsigned)k < BT_KIND__MAX && specials[k])
		specials[k](s);
}

static void v_log(scene *s)
{
	const bt_game *b = s->b, *a = s->a;
	char t[96];

	snprintf(t, sizeof t, "%s", b->duty != BT_NO_CARD
	         ? bt_card_get(b->duty)->name : "the assignment");
	say(s->w, "logged a completed assignment: %s", t);
	if (b->side_play_n)
		say(s->w, " and %d Side Project%s", b->side_play_n,
		    b->side_play_n == 1 ? "" : "s");
	say(s->w, " to the Scoring Row, Leisure %+d (%d of %d)",
	    a->leisure - b->leisure, a->leisure, bt_goal(a));
	if (bt_hand_size(a, s->act->seat) > bt_hand_size(b, s->act->seat))
		say(s->w, "; drew an Ability card");
}

static void (*const verbs[BT_VERB__MAX])(scene *) = {
	[BT_WORK] = v_work, [BT_SIDE] = v_side,
	[BT_SPECIAL] = v_special, [BT_LOG] = v_log,
};

/* ---- what followed ----------------------------------------------------- */

/* The card that left the Scoring Row: in before's row, not after's. */
static bt_card row_loss(const bt_game *b, const bt_game *a)
{
	for (int i = 0; i < b->row_n; i++) {
		int kept = 0;
		for (int j = 0; j < a->row_n && !kept; j++)
			kept = a->row[j] == b->row[i];
		if (!kept)
			return b->row[i];
	}
	return BT_NO_CARD;
}

static void reprimand(scene *s)
{
	const bt_game *b = s->b, *a = s->a;
	bt_card lost = row_loss(b, a);

	if (s->act->verb == BT_WORK)
		say(s->w, ". Reprimand! %d or more Officers in the Shift Stack",
		    BT_REPRIMAND_OFFICERS);
	else
		say(s->w, ". Reprimand! The crew was stuck");
	if (b->duty != BT_NO_CARD)
		say(s->w, ": %s went back to the box",
		    bt_card_get(b->duty)->name);
	if (b->side_play_n)
		say(s->w, ", %d Side Project%s shuffled back", b->side_play_n,
		    b->side_play_n == 1 ? "" : "s");
	if (lost != BT_NO_CARD)
		say(s->w, ", %s left the Scoring Row (Leisure -%d)",
		    bt_card_get(lost)->name, bt_card_get(lost)->leisure);
}

static void aftermath(scene *s)
{
	const bt_game *b = s->b, *a = s->a;
	char n[48];

	if (a->reprimands > b->reprimands)
		reprimand(s);
	if (a->status == BT_WON)
		say(s->w, ". The crew reached its Leisure goal: the game is "
		    "won!");
	else if (a->status == BT_LOST)
		say(s->w, ". The Assignment Deck is empty: the game is lost.");
	else if (a->round > b->round && a->duty != BT_NO_CARD)
		say(s->w, ". Round %d begins with %s (Target %d); %s %s "
		    "First Player", a->round, bt_card_get(a->duty)->name,
		    bt_card_get(a->duty)->target, who(s, a->first, n, sizeof n),
		    s->you && a->first == s->act->seat ? "are" : "is");
}

static void describe(const bt_game *before, const bt_game *after,
                     const bt_action *a, const store_game *g, int viewer,
                     int you, char *buf, size_t cap)
{
	words w = { buf, cap, 0 };
	scene s = { before, after, a, g, viewer, you, &w };
	char n[48];

	if (cap == 0)
		return;
	buf[0] = '\0';
	say(&w, "%s ", who(&s, a->seat, n, sizeof n));
	/* Work and log name no card; the others must name a real one. */
	if (a->verb < BT_VERB__MAX && (a->card < BT_CARD_COUNT ||
	    a->verb == BT_WORK || a->verb == BT_LOG))
		verbs[a->verb](&s);
	aftermath(&s);
	utf8_cut_valid(buf);   /* a long name may have been cut in two */
}

void describe_action(const bt_game *before, const bt_game *after,
                     const bt_action *a, const store_game *g, int viewer,
                     char *buf, size_t cap)
{
	describe(before, after, a, g, viewer, 0, buf, cap);
}

void describe_own_action(const bt_game *before, const bt_game *after,
                         const bt_action *a, const store_game *g,
                         char *buf, size_t cap)
{
	describe(before, after, a, g, a->seat, 1, buf, cap);
}
