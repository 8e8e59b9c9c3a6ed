/*
 * abilities.c - the nine kinds of Alpha Shift Ability (R9): when each is
 * playable, which choices it takes, and what it does.  One row of the
 * kinds table per kind.
 */
#include <string.h>

#include "engine.h"

/* What a kind needs from the table to be playable at all. */
static int shift_deck_nonempty(const bt_game *g, int seat)
{
	(void)seat;
	return g->shift_deck.n > 0;
}

static int always(const bt_game *g, int seat)
{
	(void)g, (void)seat;
	return 1;
}

static int officer_in_stack(const bt_game *g, int seat)
{
	(void)seat;
	return g->officers > 0;
}

static int any_set_aside(const bt_game *g, int seat)
{
	(void)seat;
	return g->set_aside.n > 0;
}

static int side_deck_nonempty(const bt_game *g, int seat)
{
	(void)seat;
	return g->side_deck.n > 0;
}

static int side_in_play(const bt_game *g, int seat)
{
	(void)seat;
	return g->side_play_n > 0;
}

/* Hand Off's card is already counted in the hand when this is asked. */
static int other_card_in_hand(const bt_game *g, int seat)
{
	return bt_hand_size(g, seat) >= 2;
}

static int sweep_size(const bt_game *g)
{
	return g->shift_deck.n < BT_SWEEP_CARDS ? g->shift_deck.n
	                                         : BT_SWEEP_CARDS;
}

static const struct {
	int (*playable)(const bt_game *, int seat);
	int nargs;            /* -1: Sensor Sweep's, which depends on the deck */
	const char *needs;    /* the R9 condition, for error messages */
} kinds[BT_KIND__MAX] = {
	[BT_OVERTIME] = { always, 0, "" },
	[BT_COVER_STORY] = { officer_in_stack, 1,
		"an Officer in the Shift Stack" },
	[BT_DEFLECT] = { shift_deck_nonempty, 0, "a card in the Shift Deck" },
	[BT_EXTRA_DUTY] = { any_set_aside, 0, "a set-aside Assignment" },
	[BT_HOLODECK] = { always, 0, "" },
	[BT_SENSOR_SWEEP] = { shift_deck_nonempty, -1,
		"a card in the Shift Deck" },
	[BT_BRAINSTORM] = { side_deck_nonempty, 0,
		"a card in the Side Project Deck" },
	[BT_SCALE_BACK] = { side_in_play, 1, "a Side Project in play" },
	[BT_HAND_OFF] = { other_card_in_hand, 2,
		"another card in your hand" },
};

int ability_playable(const bt_game *g, int seat, bt_card c)
{
	return kinds[bt_card_get(c)->kind].playable(g, seat);
}

/* Sensor Sweep's order must be the top cards, each once. */
static int check_sweep(const bt_game *g, const bt_action *a, bt_error *err)
{
	const bt_pile *deck = &g->shift_deck;

	for (int i = 0; i < a->nargs; i++) {
		int at = card_index(deck->c, deck->n, a->arg[i]);
		if (at < deck->n - a->nargs || card_index(a->arg, i, a->arg[i]) >= 0)
			return bt_fail(err, BT_ERR_ILLEGAL, 9, "Sensor Sweep's "
			               "order must name each of the top %d "
			               "Shift cards once", a->nargs);
	}
	return 0;
}

/* The choice a's kind takes: right count, and cards where they must be. */
static int check_choice(const bt_game *g, const bt_action *a, bt_kind k,
                        bt_error *err)
{
	const char *name = bt_kind_name(k);
	int want = kinds[k].nargs < 0 ? sweep_size(g) : kinds[k].nargs;

	if (a->nargs != want)
		return bt_fail(err, BT_ERR_BAD_ACTION, 9, "%s takes %d "
		               "choice%s here, not %d", name, want,
		               want == 1 ? "" : "s", a->nargs);
	switch (k) {
	case BT_COVER_STORY:
		if (card_index(g->stack, g->stack_n, a->arg[0]) < 0 ||
		    !bt_card_is_officer(a->arg[0]))
			return bt_fail(err, BT_ERR_ILLEGAL, 9, "Cover Story must "
			               "choose an Officer card in the Shift Stack");
		return 0;
	case BT_SENSOR_SWEEP:
		return check_sweep(g, a, err);
	case BT_SCALE_BACK:
		if (card_index(g->side_play, g->side_play_n, a->arg[0]) < 0)
			return bt_fail(err, BT_ERR_ILLEGAL, 9, "Scale Back must "
			               "choose a Side Project in play");
		return 0;
	case BT_HAND_OFF:
		if (a->arg[0] == a->card || !hand_has(g, a->seat, a->arg[0]))
			return bt_fail(err, BT_ERR_ILLEGAL, 9, "Hand Off must "
			               "give another card from your hand");
		if (a->arg[1] < 1 || a->arg[1] > g->players ||
		    a->arg[1] == a->seat)
			return bt_fail(err, BT_ERR_ILLEGAL, 9, "Hand Off must "
			               "give to another player, seat 1 to %d",
			               g->players);
		return 0;
	default:
		return 0;
	}
}

int ability_check(const bt_game *g, const bt_action *a, bt_error *err)
{
	bt_kind k = bt_card_get(a->card)->kind;

	if (!kinds[k].playable(g, a->seat))
		return bt_fail(err, BT_ERR_ILLEGAL, 9, "%s is playable only "
		               "with %s", bt_kind_name(k), kinds[k].needs);
	return check_choice(g, a, k, err);
}

static void do_deflect(bt_game *g)
{
	bt_card c = shift_draw(g);

	if (bt_card_is_officer(c))
		shift_put_bottom(g, c);
	else
		stack_push(g, c);
}

/* The sweeper learns the top cards; others' memory of them is stale. */
static void do_sweep(bt_game *g, const bt_action *a)
{
	bt_pile *deck = &g->shift_deck;

	for (int i = 0; i < a->nargs; i++)
		deck->c[deck->n - 1 - i] = a->arg[i];
	memset(g->known_top, 0, sizeof g->known_top);
	g->known_top[a->seat - 1] = a->nargs;
	g->known_any = 1;
	if (g->known_bottom > deck->n - a->nargs)
		g->known_bottom = (uint8_t)(deck->n - a->nargs);
}

static void do_brainstorm(bt_game *g, int seat)
{
	for (int i = 0; i < BT_BRAINSTORM_CARDS && g->side_deck.n; i++)
		hand_add(g, seat, pile_pop(&g->side_deck));
}

void ability_apply(bt_game *g, const bt_action *a)
{
	bt_kind k = bt_card_get(a->card)->kind;
	int at;

	switch (k) {
	case BT_OVERTIME:
		stack_push(g, a->card);
		return;
	case BT_HOLODECK:
		row_push(g, a->card);
		return;
	case BT_COVER_STORY:
		stack_remove_at(g, card_index(g->stack, g->stack_n, a->arg[0]));
		shift_put_bottom(g, a->arg[0]);
		break;
	case BT_DEFLECT:
		do_deflect(g);
		break;
	case BT_EXTRA_DUTY:
		pile_push_bottom(&g->assignment_deck, pile_pop(&g->set_aside));
		break;
	case BT_SENSOR_SWEEP:
		do_sweep(g, a);
		break;
	case BT_BRAINSTORM:
		do_brainstorm(g, a->seat);
		break;
	case BT_SCALE_BACK:
		at = card_index(g->side_play, g->side_play_n, a->arg[0]);
		side_play_remove_at(g, at);
		hand_add(g, a->seat, a->arg[0]);
		break;
	case BT_HAND_OFF:
		hand_remove(g, a->seat, a->arg[0]);
		hand_add(g, a->arg[1], a->arg[0]);
		break;
	default:
		break;
	}
	pile_push(&g->ability_discard, a->card);
}

/* Appends one action of card c with the given choice, if room is left. */
static void emit(bt_action *out, int *n, int max, int seat, bt_card c,
                 int nargs, const bt_card *args)
{
	if (*n >= max)
		return;
	bt_action *a = &out[(*n)++];
	a->seat = (uint8_t)seat;
	a->verb = BT_SPECIAL;
	a->card = c;
	a->nargs = (uint8_t)nargs;
	for (int i = 0; i < BT_SWEEP_CARDS; i++)
		a->arg[i] = i < nargs ? args[i] : 0;
}

/* Every order of the top k Shift cards (positions from the top), in
 * lexicographic order, for k = 1..3. */
static const struct {
	int count;
	uint8_t order[6][BT_SWEEP_CARDS];
} sweep_orders[BT_SWEEP_CARDS + 1] = {
	[1] = { 1, { { 0 } } },
	[2] = { 2, { { 0, 1 }, { 1, 0 } } },
	[3] = { 6, { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
	             { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } } },
};

static void list_sweeps(const bt_game *g, int seat, bt_card c,
                        bt_action *out, int *n, int max)
{
	int k = sweep_size(g);
	const bt_card *top = &g->shift_deck.c[g->shift_deck.n - 1];

	for (int o = 0; o < sweep_orders[k].count; o++) {
		bt_card args[BT_SWEEP_CARDS];
		for (int i = 0; i < k; i++)
			args[i] = *(top - sweep_orders[k].order[o][i]);
		emit(out, n, max, seat, c, k, args);
	}
}

static void list_hand_offs(const bt_game *g, int seat, bt_card c,
                           bt_action *out, int *n, int max)
{
	uint64_t others = g->hand[seat - 1] & ~card_bit(c);

	while (others) {
		bt_card give = (bt_card)__builtin_ctzll(others);
		others &= others - 1;
		for (int to = 1; to <= g->players; to++) {
			bt_card args[2] = { give, (bt_card)to };
			if (to != seat)
				emit(out, n, max, seat, c, 2, args);
		}
	}
}

void ability_list(const bt_game *g, int seat, bt_card c, bt_action *out,
                  int *n, int max)
{
	bt_kind k = bt_card_get(c)->kind;

	if (!kinds[k].playable(g, seat))
		return;
	switch (k) {
	case BT_COVER_STORY:
		for (int i = 0; i < g->stack_n; i++)
			if (bt_card_is_officer(g->stack[i]))
				emit(out, n, max, seat, c, 1, &g->stack[i]);
		return;
	case BT_SENSOR_SWEEP:
		list_sweeps(g, seat, c, out, n, max);
		return;
	case BT_SCALE_BACK:
		for (int i = 0; i < g->side_play_n; i++)
			emit(out, n, max, seat, c, 1, &g->side_play[i]);
		return;
	case BT_HAND_OFF:
		list_hand_offs(g, seat, c, out, n, max);
		return;
	default:
		emit(out, n, max, seat, c, 0, NULL);
		return;
	}
}
