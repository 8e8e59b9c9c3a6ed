/*
 * actions.c - checking and carrying out the four actions of R6.
 */
#include "engine.h"

static int check_turn(const bt_game *g, const bt_action *a, bt_error *err)
{
	if (g->round == 0)
		return bt_fail(err, BT_ERR_GAME_OVER, 3, "the game has not "
		               "been set up");
	if (g->status != BT_PLAYING)
		return bt_fail(err, BT_ERR_GAME_OVER, 6, "the game is over: "
		               "the crew %s", g->status == BT_WON ? "won" : "lost");
	if (a->seat != g->turn)
		return bt_fail(err, BT_ERR_NOT_YOUR_TURN, 6, "it is seat %d's "
		               "turn, not seat %d's", g->turn, a->seat);
	return 0;
}

static int check_no_choice(const bt_action *a, const char *verb,
                           bt_error *err)
{
	if (a->card != BT_NO_CARD || a->nargs)
		return bt_fail(err, BT_ERR_BAD_ACTION, 6, "%s takes no card",
		               verb);
	return 0;
}

static int check_work(const bt_game *g, const bt_action *a, bt_error *err)
{
	if (check_no_choice(a, "GET TO WORK", err))
		return BT_ERR_BAD_ACTION;
	if (g->effort >= g->target)
		return bt_fail(err, BT_ERR_ILLEGAL, 6, "GET TO WORK needs "
		               "Effort Total %d below Target Total %d",
		               g->effort, g->target);
	if (g->shift_deck.n == 0)
		return bt_fail(err, BT_ERR_ILLEGAL, 6, "GET TO WORK needs a "
		               "card in the Shift Deck, and it is empty");
	return 0;
}

static int check_log(const bt_game *g, const bt_action *a, bt_error *err)
{
	if (check_no_choice(a, "LOG A COMPLETED ASSIGNMENT", err))
		return BT_ERR_BAD_ACTION;
	if (g->effort < g->target)
		return bt_fail(err, BT_ERR_ILLEGAL, 6, "LOG A COMPLETED "
		               "ASSIGNMENT needs Effort Total %d to reach "
		               "Target Total %d", g->effort, g->target);
	return 0;
}

/* The card a plays must be of type t and in the player's hand. */
static int check_card(const bt_game *g, const bt_action *a, bt_card_type t,
                      const char *what, bt_error *err)
{
	if (a->card >= BT_CARD_COUNT || bt_card_type_of(a->card) != t)
		return bt_fail(err, BT_ERR_BAD_ACTION, 6, "that is not %s",
		               what);
	if (!hand_has(g, a->seat, a->card))
		return bt_fail(err, BT_ERR_ILLEGAL, 6, "%s is not in seat "
		               "%d's hand", bt_card_get(a->card)->id, a->seat);
	return 0;
}

static int check_side(const bt_game *g, const bt_action *a, bt_error *err)
{
	int rc = check_card(g, a, BT_TYPE_SIDE, "a Side Project", err);
	if (rc)
		return rc;
	if (a->nargs)
		return bt_fail(err, BT_ERR_BAD_ACTION, 6, "START A SIDE "
		               "PROJECT takes one card and no choice");
	return 0;
}

static int check_special(const bt_game *g, const bt_action *a,
                         bt_error *err)
{
	int rc = check_card(g, a, BT_TYPE_ABILITY, "an Ability card", err);
	return rc ? rc : ability_check(g, a, err);
}

int bt_check(const bt_game *g, const bt_action *a, bt_error *err)
{
	int rc = check_turn(g, a, err);
	if (rc)
		return rc;
	switch (a->verb) {
	case BT_WORK: return check_work(g, a, err);
	case BT_LOG: return check_log(g, a, err);
	case BT_SIDE: return check_side(g, a, err);
	case BT_SPECIAL: return check_special(g, a, err);
	default: return bt_fail(err, BT_ERR_BAD_ACTION, 6, "no such action");
	}
}

/* R6 LOG step 1: the Ability Deck, refilled from the discard if empty. */
static int draw_ability(bt_game *g, int seat, bt_error *err)
{
	if (g->ability_deck.n == 0 && g->ability_discard.n) {
		g->ability_deck = g->ability_discard;
		g->ability_discard.n = 0;
		if (deck_shuffle(g, BT_DECK_ABILITY, err))
			return BT_ERR_STACK;
	}
	if (g->ability_deck.n)
		hand_add(g, seat, pile_pop(&g->ability_deck));
	return 0;
}

static int do_log(bt_game *g, int seat, bt_error *err)
{
	if (draw_ability(g, seat, err))
		return BT_ERR_STACK;
	bt_card duty = g->duty;
	g->target = (int16_t)(g->target - bt_card_get(duty)->target);
	g->duty = BT_NO_CARD;
	row_push(g, duty);
	for (int i = 0; i < g->side_play_n; i++)
		row_push(g, g->side_play[i]);
	while (g->side_play_n)
		side_play_remove_at(g, g->side_play_n - 1);
	if (g->leisure >= bt_goal(g)) {
		g->status = BT_WON;
		g->turn = 0;
		return 0;
	}
	return round_end(g, seat, err);
}

static int do_work(bt_game *g, bt_error *err)
{
	stack_push(g, shift_draw(g));
	if (g->officers >= BT_REPRIMAND_OFFICERS)
		return round_reprimand(g, g->turn, err);
	return turn_pass(g, err);
}

int bt_apply_legal(bt_game *g, const bt_action *a, bt_error *err)
{
	g->actions++;
	switch (a->verb) {
	case BT_WORK:
		return do_work(g, err);
	case BT_LOG:
		return do_log(g, a->seat, err);
	case BT_SIDE:
		hand_remove(g, a->seat, a->card);
		side_play_push(g, a->card);
		return turn_pass(g, err);
	default:
		hand_remove(g, a->seat, a->card);
		ability_apply(g, a);
		return turn_pass(g, err);
	}
}

int bt_apply(bt_game *g, const bt_action *a, bt_error *err)
{
	int rc = bt_check(g, a, err);
	return rc ? rc : bt_apply_legal(g, a, err);
}
