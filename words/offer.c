/*
 * offer.c - what an offered action will do, in words.  The figures come
 * from the engine (bt_risk, bt_reprimand_stake, bt_log_gain and the card
 * table); this file only phrases them.
 */
#include <stdio.h>
#include <string.h>

#include "append.h"
#include "describe.h"
#include "offer.h"


static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void offer_risk(int num, int den, char *buf, size_t cap)
{
	long tenths = den > 0 ? ((long)num * 1000 + den / 2) / den : 0;

	if (den <= 0)
		snprintf(buf, cap, "none: the Shift Deck is empty");
	else if (den == 1)
		snprintf(buf, cap, "%s", num ? "certain: you know the next "
		         "card brings a reprimand" : "none: you know the next "
		         "card is safe");
	else if (tenths % 10 == 0)
		snprintf(buf, cap, "%ld%% (%d in %d)", tenths / 10, num, den);
	else
		snprintf(buf, cap, "%ld.%ld%% (%d in %d)", tenths / 10,
		         tenths % 10, num, den);
}

void offer_reprimand_cost(const bt_game *g, char *buf, size_t cap)
{
	bt_stake st;
	char what[3][96];
	int n = 0;

	bt_reprimand_stake(g, &st);
	buf[0] = '\0';
	if (st.duty != BT_NO_CARD)
		snprintf(what[n++], sizeof what[0], "the Duty Assignment");
	if (st.sides)
		snprintf(what[n++], sizeof what[0], "%d Side %s in play",
		         st.sides, plural(st.sides, "Project", "Projects"));
	if (st.row_card != BT_NO_CARD)
		snprintf(what[n++], sizeof what[0], "the Scoring Row's best "
		         "card (Leisure %d)", st.row_leisure);
	if (n == 0 && !st.game_lost)
		return;
	words_append(buf, cap, "A reprimand now would cost ");
	for (int i = 0; i < n; i++)
		words_append(buf, cap, "%s%s", i == 0 ? ""
		             : i == n - 1 ? " and " : ", ", what[i]);
	if (st.game_lost)
		words_append(buf, cap, "%sthe game: no Assignment is left",
		             n ? ", and " : "");
	words_append(buf, cap, ".");
}

int offer_out_of_reach(const bt_game *g, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (!bt_out_of_reach(g))
		return 0;
	snprintf(buf, cap, "Even if every card still to come went the crew's "
	         "way, it could reach at most %d of the %d Leisure it needs: "
	         "this game can no longer be won. You may play it out.",
	         bt_leisure_ceiling(g), bt_goal(g));
	return 1;
}

void offer_work(const bt_game *g, int seat, char *buf, size_t cap)
{
	char risk[96], cost[320];
	int num, den;

	bt_risk(g, seat, &num, &den);
	offer_risk(num, den, risk, sizeof risk);
	offer_reprimand_cost(g, cost, sizeof cost);
	snprintf(buf, cap, "Draw a Shift card onto the Shift Stack. Chance "
	         "of a reprimand: %s.%s%s", risk, num && cost[0] ? " " : "",
	         num ? cost : "");
}

void offer_log(const bt_game *g, char *buf, size_t cap)
{
	bt_gain gain;

	bt_log_gain(g, &gain);
	snprintf(buf, cap, "%d %s worth %d Leisure %s to the Scoring Row "
	         "(total %d of %d), and you draw an Ability card.",
	         gain.cards, plural(gain.cards, "card", "cards"), gain.leisure,
	         plural(gain.cards, "goes", "go"), gain.total, bt_goal(g));
	if (gain.wins)
		words_append(buf, cap, " That reaches the goal: the crew "
		             "wins.");
	else if (gain.game_lost)
		words_append(buf, cap, " No Assignment is left: the game ends, "
		             "lost.");
	else
		words_append(buf, cap, " A new round begins.");
}

/* The distinct cards of arg[0] over the plays acts[0..n-1], at most
 * cap of them, in the engine's order. */
static int choices_of(const bt_action *acts, int n, bt_card *out, int cap)
{
	int k = 0;

	for (int i = 0; i < n && k < cap; i++) {
		int seen = acts[i].nargs == 0;
		for (int j = 0; j < k && !seen; j++)
			seen = out[j] == acts[i].arg[0];
		if (!seen)
			out[k++] = acts[i].arg[0];
	}
	return k;
}

/* " to 0 (Ship's Doctor) or 2 (Captain)": the figure after each choice,
 * from before less each chosen card's own figure; " to 0" if the
 * choices are one card, or all leave the same figure. */
static void after_each(char *buf, size_t cap, int before,
                       const bt_card *c, int n, int officers)
{
	int same = 1;

	for (int i = 1; i < n; i++) {
		const bt_card_info *a = bt_card_get(c[0]);
		const bt_card_info *b = bt_card_get(c[i]);
		same &= officers ? a->officers == b->officers
		                 : a->target == b->target;
	}
	for (int i = 0; i < (same ? 1 : n); i++) {
		const bt_card_info *k = bt_card_get(c[i]);
		words_append(buf, cap, "%s%d", i == 0 ? " to "
		             : i == n - 1 ? " or " : ", ",
		             before - (officers ? k->officers : k->target));
		if (!same)
			words_append(buf, cap, " (%s)", k->name);
	}
}

static void offer_cover_story(const bt_game *g, const bt_action *acts,
                              int n, char *buf, size_t cap)
{
	bt_card c[BT_STACK_MAX];
	int k = choices_of(acts, n, c, BT_STACK_MAX);

	if (k == 1)
		snprintf(buf, cap, "%s leaves the Shift Stack for the bottom "
		         "of the Shift Deck: Officers fall from %d",
		         bt_card_get(c[0])->name, g->officers);
	else
		snprintf(buf, cap, "The Officer you choose leaves the Shift "
		         "Stack for the bottom of the Shift Deck: Officers "
		         "fall from %d", g->officers);
	after_each(buf, cap, g->officers, c, k, 1);
	words_append(buf, cap, "; a reprimand comes at %d.",
	             BT_REPRIMAND_OFFICERS);
}

static void offer_scale_back(const bt_game *g, const bt_action *acts,
                             int n, char *buf, size_t cap)
{
	bt_card c[BT_SIDE_COUNT];
	int k = choices_of(acts, n, c, BT_SIDE_COUNT);

	if (k == 1)
		snprintf(buf, cap, "%s comes back to your hand: the Target "
		         "falls from %d", bt_card_get(c[0])->name, g->target);
	else
		snprintf(buf, cap, "The Side Project you choose comes back to "
		         "your hand: the Target falls from %d", g->target);
	after_each(buf, cap, g->target, c, k, 0);
	words_append(buf, cap, ".");
}

/* The Ability kinds' effect on this table. */
static void offer_ability(const bt_game *g, const bt_card_info *k,
                          const bt_action *acts, int n, char *buf,
                          size_t cap)
{
	int top = g->shift_deck.n < BT_SWEEP_CARDS ? g->shift_deck.n
	          : BT_SWEEP_CARDS;
	int draw = g->side_deck.n < BT_BRAINSTORM_CARDS ? g->side_deck.n
	           : BT_BRAINSTORM_CARDS;

	switch (k->kind) {
	case BT_OVERTIME:
		snprintf(buf, cap, "The card joins the Shift Stack: Effort "
		         "rises by %d to %d (Target %d).", k->effort,
		         g->effort + k->effort, g->target);
		break;
	case BT_HOLODECK:
		snprintf(buf, cap, "The card goes to the Scoring Row: Leisure "
		         "rises by %d to %d of %d.", k->leisure,
		         g->leisure + k->leisure, bt_goal(g));
		break;
	case BT_COVER_STORY:
		offer_cover_story(g, acts, n, buf, cap);
		break;
	case BT_DEFLECT:
		snprintf(buf, cap, "The top Shift card is shown: an Officer "
		         "goes to the bottom of the Shift Deck, any other card "
		         "onto the Shift Stack. It never brings a reprimand.");
		break;
	case BT_EXTRA_DUTY:
		snprintf(buf, cap, "One more round: the Assignment Deck grows "
		         "from %d to %d.", g->assignment_deck.n,
		         g->assignment_deck.n + 1);
		break;
	case BT_SENSOR_SWEEP:
		snprintf(buf, cap, "You see the top %d Shift %s and choose "
		         "their order; only you see them. Once you look you "
		         "must finish: you choose the order next.", top,
		         plural(top, "card", "cards"));
		break;
	case BT_BRAINSTORM:
		snprintf(buf, cap, "You draw %d Side %s into your hand.",
		         draw, plural(draw, "Project", "Projects"));
		break;
	case BT_SCALE_BACK:
		offer_scale_back(g, acts, n, buf, cap);
		break;
	case BT_HAND_OFF:
		snprintf(buf, cap, "The card you choose goes to the player you "
		         "choose.");
		break;
	default:
		buf[0] = '\0';
	}
}

void offer_play(const bt_game *g, const bt_action *acts, int n, char *buf,
                size_t cap)
{
	const bt_card_info *k;

	buf[0] = '\0';
	if (n <= 0 || acts[0].card >= BT_CARD_COUNT)
		return;
	k = bt_card_get(acts[0].card);
	if (k->type == BT_TYPE_SIDE)
		snprintf(buf, cap, "The Target rises by %d to %d; its %d "
		         "Leisure counts once the assignment is logged, and a "
		         "reprimand sends it back to its deck.", k->target,
		         g->target + k->target, k->leisure);
	else if (k->type == BT_TYPE_ABILITY)
		offer_ability(g, k, acts, n, buf, cap);
}
