/*
 * check_bots.c - the observation of a seat (rules/observe.c, R10) and the
 * search bot (bots/search.c).
 *
 *   - honesty: two true states that differ only in what a seat cannot see
 *     (other hands, deck orders, the set-aside pile, the shuffle key)
 *     give byte-identical observations and the same decision for the
 *     same seed; with table talk, the told hands and sweeps are seen and
 *     kept, the untold cards still change nothing;
 *   - samples agree with the observation: bt_game_check passes, the
 *     seat's hand, the public table, the known top and bottom Shift
 *     cards, hand and deck sizes are kept, the key is not the real one;
 *     and each unseen card goes to each place about as often as it
 *     should;
 *   - the decision is always one of bt_legal's, and depends only on the
 *     game, the seat, the budget and the seed;
 *   - the clairvoyant bound does use the hidden cards: on some position
 *     it chooses otherwise than the honest search.
 *
 * Every search here has a tiny budget: the whole file runs in seconds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "game.h"
#include "observe.h"
#include "policy.h"
#include "search.h"

enum {
	POSITIONS = 240,      /* positions taken from greedy games */
	EVERY = 7,            /* one position every EVERY actions */
	SAMPLES = 40,         /* samples checked per position and seat */
	TINY = 24             /* rollouts of the searches here */
};

static bt_game positions[POSITIONS];
static int npositions;

/* The test's own generator, for bt_obs_sample. */
static unsigned test_draw(void *ctx, unsigned bound)
{
	return (unsigned)policy_rng_below(ctx, bound);
}

/* Positions of greedy games at 2..6 players, from a fixed stream. */
static void collect_positions(void)
{
	uint64_t s = 11;
	bt_action legal[BT_MAX_LEGAL];
	bt_error err;

	for (int i = 0; npositions < POSITIONS; i++) {
		uint8_t key[BT_KEY_BYTES];
		bt_game g;
		int players = BT_MIN_PLAYERS + i % 5;
		for (int b = 0; b < BT_KEY_BYTES; b++)
			key[b] = (uint8_t)policy_rng_next(&s);
		ck_assert_int_eq(bt_game_new(&g, players, 1 + i % players, key,
		                             &err), 0);
		while (g.status == BT_PLAYING && npositions < POSITIONS) {
			int n = bt_legal(&g, legal, BT_MAX_LEGAL);
			if (g.actions % EVERY == (unsigned)i % EVERY)
				positions[npositions++] = g;
			ck_assert_int_eq(bt_apply(&g, &legal[policy_greedy(&g,
			                 legal, n, &s)], &err), 0);
		}
	}
}

static void sample(const bt_obs *o, uint64_t *rng, bt_game *w)
{
	char why[200];

	ck_assert_int_eq(bt_obs_sample(o, test_draw, rng, w), 0);
	if (bt_game_check(w, why, sizeof why))
		ck_abort_msg("sample breaks an invariant: %s", why);
}

/* 1 if a and b differ in something only other seats could see. */
static int hidden_differs(const bt_game *a, const bt_game *b)
{
	return memcmp(a->hand, b->hand, sizeof a->hand) ||
	       memcmp(&a->shift_deck, &b->shift_deck, sizeof a->shift_deck) ||
	       memcmp(&a->side_deck, &b->side_deck, sizeof a->side_deck) ||
	       memcmp(&a->ability_deck, &b->ability_deck,
	              sizeof a->ability_deck) ||
	       memcmp(a->rng.key, b->rng.key, sizeof a->rng.key);
}

START_TEST(test_hidden_cards_do_not_change_the_observation)
{
	uint64_t rng = 5;
	int differ = 0, checked = 0;

	for (int p = 0; p < npositions; p++) {
		const bt_game *g = &positions[p];
		for (int seat = 1; seat <= g->players; seat++) {
			bt_obs a, b;
			bt_game other;
			ck_assert_int_eq(bt_observe(g, seat, &a), 0);
			sample(&a, &rng, &other);
			/* and another shuffle key than the sample's */
			bt_rng_init(&other.rng, (const uint8_t[BT_KEY_BYTES]){
			            (uint8_t)p, (uint8_t)seat, 1 });
			ck_assert_int_eq(bt_observe(&other, seat, &b), 0);
			if (memcmp(&a, &b, sizeof a))
				ck_abort_msg("position %d seat %d: the "
				             "observation sees hidden cards", p,
				             seat);
			differ += hidden_differs(g, &other);
			checked++;
		}
	}
	/* The other states really were different ones. */
	ck_assert_int_gt(differ, checked * 9 / 10);
}
END_TEST

/* Two seats of one game see different things: the observation is not
 * blind either. */
START_TEST(test_observation_shows_own_hand_and_sweep)
{
	const bt_game *g = &positions[10];
	bt_obs a, b;

	ck_assert_int_eq(bt_observe(g, 1, &a), 0);
	ck_assert_int_eq(bt_observe(g, 2, &b), 0);
	ck_assert(a.hand == g->hand[0] && b.hand == g->hand[1]);
	ck_assert(a.table.hand[1] == 0 && b.table.hand[0] == 0);
	ck_assert_int_eq(bt_observe_sweep(g, 1, &a), 0);
	ck_assert_int_eq(a.known_top_n, g->shift_deck.n < 3 ? g->shift_deck.n
	                                                     : 3);
	for (int i = 0; i < a.known_top_n; i++)
		ck_assert_int_eq(a.known_top[i],
		                 g->shift_deck.c[g->shift_deck.n - 1 - i]);
	ck_assert_int_eq(bt_observe(g, 0, &a), -1);
	ck_assert_int_eq(bt_observe(g, g->players + 1, &a), -1);
}
END_TEST

/* The sample keeps everything the seat knows. */
static void check_agrees(const bt_game *g, const bt_obs *o,
                         const bt_game *w, int seat)
{
	const bt_pile *d = &w->shift_deck;

	ck_assert(w->hand[seat - 1] == g->hand[seat - 1]);
	for (int s = 1; s <= g->players; s++)
		ck_assert_int_eq(bt_hand_size(w, s), bt_hand_size(g, s));
	ck_assert(w->duty == g->duty && w->turn == g->turn &&
	          w->round == g->round && w->leisure == g->leisure &&
	          w->effort == g->effort && w->target == g->target);
	ck_assert(!memcmp(w->stack, g->stack, g->stack_n) &&
	          w->stack_n == g->stack_n);
	ck_assert(!memcmp(w->row, g->row, g->row_n) && w->row_n == g->row_n);
	ck_assert(!memcmp(w->side_play, g->side_play, g->side_play_n) &&
	          w->side_play_n == g->side_play_n);
	ck_assert(!memcmp(w->ability_discard.c, g->ability_discard.c,
	                  g->ability_discard.n));
	ck_assert(!memcmp(w->box, g->box, sizeof w->box));
	ck_assert(d->n == g->shift_deck.n &&
	          w->side_deck.n == g->side_deck.n &&
	          w->ability_deck.n == g->ability_deck.n &&
	          w->assignment_deck.n == g->assignment_deck.n &&
	          w->set_aside.n == g->set_aside.n);
	for (int i = 0; i < o->known_top_n; i++)
		ck_assert_int_eq(d->c[d->n - 1 - i],
		                 g->shift_deck.c[d->n - 1 - i]);
	for (int i = 0; i < g->known_bottom; i++)
		ck_assert_int_eq(d->c[i], g->shift_deck.c[i]);
	ck_assert(memcmp(w->rng.key, g->rng.key, sizeof w->rng.key));
	ck_assert_int_eq(w->rig_n[BT_DECK_SHIFT], 0);
}

START_TEST(test_samples_agree_with_the_observation)
{
	uint64_t rng = 7;
	int sweeps = 0;

	for (int p = 0; p < npositions; p += 3) {
		const bt_game *g = &positions[p];
		for (int seat = 1; seat <= g->players; seat++) {
			bt_obs o;
			bt_game w;
			ck_assert_int_eq(p % 2 ? bt_observe(g, seat, &o)
			                       : bt_observe_sweep(g, seat, &o), 0);
			sweeps += o.known_top_n > 0;
			for (int k = 0; k < SAMPLES; k++) {
				sample(&o, &rng, &w);
				check_agrees(g, &o, &w, seat);
			}
		}
	}
	ck_assert_int_gt(sweeps, 10);
}
END_TEST

/* What other seats tell the seat (table talk, R10) is in its observation
 * and kept by every sample; what they do not tell is still hidden. */
START_TEST(test_told_hands_are_heard_and_kept)
{
	uint64_t rng = 13;
	int heard_sweeps = 0, untold_differ = 0;

	for (int p = 0; p < npositions; p += 3) {
		const bt_game *g = &positions[p];
		int seat = g->turn, talker = seat % g->players + 1;
		unsigned told = 1u << (talker - 1);
		bt_obs o, again;
		bt_game w;
		ck_assert_int_eq(bt_observe_told(g, seat, told | 0xc0u, 0, &o),
		                 0);
		ck_assert_uint_eq(o.told, told);   /* bits beyond: ignored */
		ck_assert(o.table.hand[talker - 1] == g->hand[talker - 1]);
		int heard = g->known_top[talker - 1];
		heard = heard < 3 ? heard : 3;
		heard = heard < g->shift_deck.n ? heard : g->shift_deck.n;
		ck_assert_int_ge(o.known_top_n, heard);
		heard_sweeps += g->known_top[talker - 1] >
		                g->known_top[seat - 1];
		for (int k = 0; k < SAMPLES / 4; k++) {
			sample(&o, &rng, &w);
			check_agrees(g, &o, &w, seat);
			ck_assert(w.hand[talker - 1] == g->hand[talker - 1]);
			for (int s = 1; s <= g->players; s++)
				if (s != seat && s != talker)
					untold_differ += w.hand[s - 1] !=
					                 g->hand[s - 1];
			/* honest still: the sample looks the same to the seat */
			ck_assert_int_eq(bt_observe_told(&w, seat, told, 0,
			                                 &again), 0);
			if (memcmp(&o, &again, sizeof o))
				ck_abort_msg("position %d seat %d: the told "
				             "observation sees hidden cards", p,
				             seat);
		}
	}
	ck_assert_int_gt(heard_sweeps, 0);
	ck_assert_int_gt(untold_differ, 0);
}
END_TEST

/* Each unseen card goes to another hand about as often as hand sizes
 * say: uniform dealing, not the real deal. */
START_TEST(test_samples_deal_uniformly)
{
	const bt_game *g = &positions[20];
	bt_obs o;
	bt_game w;
	uint64_t rng = 9;
	int seat = g->turn, in_hands[BT_HANDABLE_COUNT] = { 0 };
	int held = 0, tries = 4000;

	ck_assert_int_eq(bt_observe(g, seat, &o), 0);
	for (int s = 1; s <= g->players; s++)
		if (s != seat)
			held += bt_hand_size(g, s);
	for (int k = 0; k < tries; k++) {
		uint64_t others = 0;
		sample(&o, &rng, &w);
		for (int s = 1; s <= g->players; s++)
			if (s != seat)
				others |= w.hand[s - 1];
		for (int c = 0; c < BT_HANDABLE_COUNT; c++)
			in_hands[c] += (int)(others >> c & 1);
	}
	/* Sides and abilities share the hands but not the decks: an unseen
	 * card of a kind is in another hand with chance (unseen of its kind
	 * less its deck) / unseen of its kind; allow five deviations. */
	for (int kind = 0; kind < 2; kind++) {
		int lo = kind ? BT_ABILITY_FIRST : BT_SIDE_FIRST;
		int hi = kind ? BT_HANDABLE_COUNT : BT_ABILITY_FIRST;
		int deck = kind ? g->ability_deck.n : g->side_deck.n, n = 0;
		double p, sd;
		for (int c = lo; c < hi; c++)
			n += (int)(o.unseen[0] >> c & 1);
		ck_assert_int_gt(n, 0);
		p = (double)(n - deck) / n;
		sd = sqrt(tries * p * (1 - p));
		for (int c = lo; c < hi; c++)
			if (o.unseen[0] >> c & 1)
				ck_assert_msg(fabs(in_hands[c] - tries * p) <=
				              5 * sd + 1, "%s: %d of %d, expected "
				              "%.0f", bt_card_get((bt_card)c)->id,
				              in_hands[c], tries, tries * p);
	}
	ck_assert_int_gt(held, 0);
}
END_TEST

START_TEST(test_inconsistent_observation_is_refused)
{
	bt_obs o;
	bt_game w;
	uint64_t rng = 1;
	const bt_game *g = &positions[30];
	int other = g->turn % g->players + 1;

	ck_assert_int_eq(bt_observe(g, g->turn, &o), 0);
	o.hand_size[other - 1]++;
	ck_assert_int_eq(bt_obs_sample(&o, test_draw, &rng, &w), -1);
	o.hand_size[other - 1]--;
	o.table.shift_deck.n++;
	ck_assert_int_eq(bt_obs_sample(&o, test_draw, &rng, &w), -1);
}
END_TEST

static int is_sweep(const bt_action *a)
{
	return a->verb == BT_SPECIAL &&
	       bt_card_get(a->card)->kind == BT_SENSOR_SWEEP;
}

static int same_action(const bt_action *a, const bt_action *b)
{
	return bot_action_index(a, 1, b) == 0;
}

/* The search's action, which must be legal in g. */
static bt_action search(bot *b, const bt_game *g, int rollouts,
                        uint64_t seed)
{
	bot_budget budget = { rollouts, 0, 0 };
	bt_action a, legal[BT_MAX_LEGAL];
	int n = bt_legal(g, legal, BT_MAX_LEGAL);

	ck_assert_int_eq(bot_search(b, g, g->turn, 0, &budget, seed, &a,
	                            NULL), 0);
	ck_assert_int_ge(bot_action_index(legal, n, &a), 0);
	return a;
}

START_TEST(test_hidden_cards_do_not_change_the_decision)
{
	bot *b = bot_new();
	uint64_t rng = 3;
	int sweeps = 0;

	ck_assert_ptr_nonnull(b);
	for (int p = 0; p < npositions; p += 2) {
		const bt_game *g = &positions[p];
		bt_obs o;
		bt_game other;
		bt_action x, y;
		ck_assert_int_eq(bt_observe(g, g->turn, &o), 0);
		sample(&o, &rng, &other);
		x = search(b, g, TINY, (uint64_t)p);
		y = search(b, &other, TINY, (uint64_t)p);
		if (is_sweep(&x)) {
			/* The order is chosen after looking at the cards,
			 * which differ; the same sight gives the same order. */
			ck_assert(is_sweep(&y) && x.card == y.card);
			ck_assert_int_eq(bt_observe_sweep(g, g->turn, &o), 0);
			sample(&o, &rng, &other);
			y = search(b, &other, TINY, (uint64_t)p);
			sweeps++;
		}
		if (!same_action(&x, &y))
			ck_abort_msg("position %d: the decision depends on "
			             "cards seat %d cannot see", p, g->turn);
	}
	bot_free(b);
}
END_TEST

/* With table talk: the decision depends on the told hands, never on the
 * untold ones nor the deck orders. */
START_TEST(test_untold_cards_do_not_change_the_decision)
{
	bot *b = bot_new();
	bot_budget budget = { TINY, 0, 0 };
	uint64_t rng = 17;
	int checked = 0;

	ck_assert_ptr_nonnull(b);
	for (int p = 1; p < npositions; p += 2) {
		const bt_game *g = &positions[p];
		unsigned told = 1u << (g->turn % g->players);
		bt_obs o;
		bt_game other;
		bt_action x, y;
		ck_assert_int_eq(bt_observe_told(g, g->turn, told, 0, &o), 0);
		sample(&o, &rng, &other);
		ck_assert_int_eq(bot_search(b, g, g->turn, told, &budget,
		                            (uint64_t)p, &x, NULL), 0);
		if (is_sweep(&x))
			continue;   /* the order follows other cards' sight */
		ck_assert_int_eq(bot_search(b, &other, g->turn, told, &budget,
		                            (uint64_t)p, &y, NULL), 0);
		if (!same_action(&x, &y))
			ck_abort_msg("position %d: the decision depends on "
			             "cards seat %d was not told", p, g->turn);
		checked++;
	}
	ck_assert_int_gt(checked, npositions / 4);
	bot_free(b);
}
END_TEST

START_TEST(test_decisions_are_legal_and_games_end)
{
	bot *b = bot_new();
	bt_error err;

	for (int players = BT_MIN_PLAYERS; players <= BT_MAX_PLAYERS;
	     players++) {
		uint8_t key[BT_KEY_BYTES] = { 'b', 'o', 't', (uint8_t)players };
		bt_game g;
		ck_assert_int_eq(bt_game_new(&g, players, 1, key, &err), 0);
		while (g.status == BT_PLAYING) {
			bt_action a = search(b, &g, 8, g.actions);
			ck_assert_int_eq(bt_apply(&g, &a, &err), 0);
			ck_assert_int_lt(g.actions, 2000);
		}
	}
	bot_free(b);
}
END_TEST

START_TEST(test_same_seed_same_decision)
{
	bot *b = bot_new(), *c = bot_new();

	/* A fresh bot and a used one, one decision apart: same choice. */
	for (int p = 1; p < npositions; p += 9) {
		bt_action x = search(b, &positions[p], TINY, 42);
		bt_action y = search(c, &positions[p], TINY, 42);
		bt_action z = search(b, &positions[p], TINY, 42);
		ck_assert(same_action(&x, &y) && same_action(&x, &z));
	}
	bot_free(b);
	bot_free(c);
}
END_TEST

/* Choosing a sweep's order is a second decision with its own budget. */
START_TEST(test_sweep_order_gets_its_own_budget)
{
	bot *b = bot_new();
	bot_budget budget = { 60, 0, 0 };
	int found = 0;

	for (int p = 0; p < npositions && found < 3; p++) {
		const bt_game *g = &positions[p];
		bot_stats st;
		bt_action a;
		ck_assert_int_eq(bot_search(b, g, g->turn, 0, &budget, 5, &a,
		                            &st), 0);
		if (!is_sweep(&a) || st.candidates < 2)
			continue;
		/* 60 to decide to sweep, about 60 more for the order */
		ck_assert_uint_gt(st.rollouts, 90);
		found++;
	}
	ck_assert_int_gt(found, 0);
	bot_free(b);
}
END_TEST

START_TEST(test_bad_calls_are_refused)
{
	bot *b = bot_new();
	const bt_game *g = &positions[5];
	bot_budget none = { 0, 0, 0 }, ok = { 4, 0, 0 };
	bt_action a;

	ck_assert_int_eq(bot_search(b, g, g->turn, 0, &none, 1, &a, NULL), -1);
	ck_assert_int_eq(bot_search(b, g, g->turn % g->players + 1, 0, &ok, 1,
	                            &a, NULL), -1);
	ck_assert_int_eq(bot_kind_by_name("search"), 1);
	ck_assert_int_eq(bot_kind_by_name("clairvoyant"), 2);
	ck_assert_int_eq(bot_kind_by_name("greedy"), 0);
	bot_free(b);
}
END_TEST

START_TEST(test_clairvoyant_uses_what_it_sees)
{
	bot *b = bot_new();
	int differ = 0;

	for (int p = 0; p < npositions && !differ; p++) {
		const bt_game *g = &positions[p];
		bt_action legal[BT_MAX_LEGAL], x, y;
		int n = bt_legal(g, legal, BT_MAX_LEGAL);
		ck_assert_int_eq(bot_clairvoyant(b, g, &x, NULL), 0);
		ck_assert_int_ge(bot_action_index(legal, n, &x), 0);
		y = search(b, g, TINY, 1);
		differ = !same_action(&x, &y);
	}
	ck_assert_msg(differ, "clairvoyant and search always agree");
	bot_free(b);
}
END_TEST

static Suite *bots_suite(void)
{
	Suite *s = suite_create("bots");
	TCase *tc = tcase_create("observe and search");

	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, collect_positions, NULL);
	tcase_add_test(tc, test_hidden_cards_do_not_change_the_observation);
	tcase_add_test(tc, test_observation_shows_own_hand_and_sweep);
	tcase_add_test(tc, test_samples_agree_with_the_observation);
	tcase_add_test(tc, test_samples_deal_uniformly);
	tcase_add_test(tc, test_inconsistent_observation_is_refused);
	tcase_add_test(tc, test_told_hands_are_heard_and_kept);
	tcase_add_test(tc, test_hidden_cards_do_not_change_the_decision);
	tcase_add_test(tc, test_untold_cards_do_not_change_the_decision);
	tcase_add_test(tc, test_decisions_are_legal_and_games_end);
	tcase_add_test(tc, test_same_seed_same_decision);
	tcase_add_test(tc, test_sweep_order_gets_its_own_budget);
	tcase_add_test(tc, test_bad_calls_are_refused);
	tcase_add_test(tc, test_clairvoyant_uses_what_it_sees);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	if (sodium_init() < 0)
		return 1;
	sr = srunner_create(bots_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
