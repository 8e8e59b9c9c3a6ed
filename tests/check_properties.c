/*
 * check_properties.c - properties that hold over whole games: thousands of
 * them, played by the random and the greedy policy at every player count.
 *
 *   - every step: the invariants hold (bt_game_check: every card in one
 *     place, the totals equal their definitions, R5), the seat to move has
 *     a legal action, and every listed action passes bt_check and applies;
 *   - a finished game lists nothing and refuses every action;
 *   - a game ends within a bound of actions;
 *   - determinism (R11): the same key gives the same game, and a memcpy'd
 *     copy given the same actions stays byte for byte the same;
 *   - records (R11, RECORD.md): a game's record, written and replayed,
 *     gives the same final state, byte for byte;
 *   - the stakes the table shows before a move come true: a reprimand
 *     by drawing costs what bt_reprimand_stake said (R7, R8.2), a log
 *     brings what bt_log_gain said (R6).
 *
 * Hot loops report with ck_abort_msg() only on failure: Check's passing
 * assertions cost a message to the parent process each.
 */
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "game.h"
#include "policy.h"
#include "record.h"

enum {
	GAMES_FULL = 300,       /* games per policy and player count, with
	                         * every legal action tried on a copy */
	GAMES_RECORD = 200,     /* games per policy and player count for the
	                         * record property */
	MAX_ACTIONS = 2000,     /* no game comes near this */
	RECORD_TEXT = 64 * 1024
};

static const struct {
	const char *name;
	policy_fn fn;
} policies[] = {
	{ "random", policy_random },
	{ "greedy", policy_greedy },
};

/* The key and policy seed of game i of a test: from a fixed stream, so a
 * failure names a game that can be played again. */
static void test_key(uint64_t tag, int players, int i,
                     uint8_t key[BT_KEY_BYTES], uint64_t *prng)
{
	uint64_t s = tag * 1000003u + (uint64_t)players * 7919u + (uint64_t)i;

	for (int b = 0; b < BT_KEY_BYTES; b += 8) {
		uint64_t v = policy_rng_next(&s);
		memcpy(key + b, &v, 8);
	}
	*prng = policy_rng_next(&s);
}

static void new_game(bt_game *g, int players, int first,
                     const uint8_t key[BT_KEY_BYTES])
{
	bt_error err;

	if (bt_game_new(g, players, first, key, &err))
		ck_abort_msg("bt_game_new(%d, %d): %s", players, first,
		             err.why);
}

static int boxed(const bt_game *g, bt_card c)
{
	return c < BT_CARD_COUNT && (g->box[c / 64] >> (c % 64) & 1);
}

/* R7, R8.2: a draw that reprimands costs what the stake said. */
static void check_reprimand_stake(const bt_game *g, const bt_game *after,
                                  const char *where)
{
	bt_stake st;

	bt_reprimand_stake(g, &st);
	if (after->reprimands != g->reprimands + 1)
		ck_abort_msg("%s: the draw was to reprimand", where);
	if (!boxed(after, st.duty) ||
	    (st.row_card != BT_NO_CARD && !boxed(after, st.row_card)))
		ck_abort_msg("%s: the stake named cards that stayed", where);
	if (after->leisure != st.leisure_after ||
	    (after->status == BT_LOST) != st.game_lost)
		ck_abort_msg("%s: stake said Leisure %d, lost %d; got %d, %d",
		             where, st.leisure_after, st.game_lost,
		             after->leisure, after->status == BT_LOST);
}

/* R6: a log brings what the gain said. */
static void check_log_gain(const bt_game *g, const bt_game *after,
                           const char *where)
{
	bt_gain gain;

	bt_log_gain(g, &gain);
	if (after->leisure != gain.total ||
	    (after->status == BT_WON) != gain.wins ||
	    (after->status == BT_LOST) != gain.game_lost ||
	    after->row_n != g->row_n + gain.cards)
		ck_abort_msg("%s: log gain said %d cards, total %d, win %d, "
		             "lost %d; got %d, %d, %d", where, gain.cards,
		             gain.total, gain.wins, gain.game_lost,
		             after->row_n - g->row_n, after->leisure,
		             after->status);
}

static void check_stakes(const bt_game *g, const bt_action *a,
                         const bt_game *after, const char *where)
{
	if (a->verb == BT_WORK &&
	    bt_draw_reprimands(g, g->shift_deck.c[g->shift_deck.n - 1]))
		check_reprimand_stake(g, after, where);
	else if (a->verb == BT_WORK && after->reprimands != g->reprimands)
		ck_abort_msg("%s: a draw reprimanded unforeseen", where);
	else if (a->verb == BT_LOG)
		check_log_gain(g, after, where);
}

/* Every listed action is legal and applies to a copy, which stays
 * consistent; the state itself is consistent. */
static void check_step(const bt_game *g, const bt_action *legal, int n,
                       const char *where)
{
	static bt_game copy;
	char why[200];
	bt_error err;

	if (bt_game_check(g, why, sizeof why))
		ck_abort_msg("%s: invariant: %s", where, why);
	if (n <= 0 || !bt_has_legal(g))
		ck_abort_msg("%s: no legal action while playing (%d)", where,
		             n);
	for (int i = 0; i < n; i++) {
		if (bt_check(g, &legal[i], &err))
			ck_abort_msg("%s: listed action %d refused: %s", where,
			             i, err.why);
		memcpy(&copy, g, sizeof copy);
		if (bt_apply(&copy, &legal[i], &err))
			ck_abort_msg("%s: listed action %d failed: %s", where,
			             i, err.why);
		if (bt_game_check(&copy, why, sizeof why))
			ck_abort_msg("%s: after action %d: %s", where, i, why);
		check_stakes(g, &legal[i], &copy, where);
	}
}

/* A finished game lists nothing and refuses a move. */
static void check_over(const bt_game *g, const bt_action *any,
                       const char *where)
{
	static bt_game copy;
	bt_action out[4];
	bt_error err;

	if (bt_legal(g, out, 4) != 0 || bt_has_legal(g))
		ck_abort_msg("%s: legal actions after the end", where);
	memcpy(&copy, g, sizeof copy);
	if (bt_apply(&copy, any, &err) != BT_ERR_GAME_OVER)
		ck_abort_msg("%s: an action applied after the end", where);
	if (memcmp(&copy, g, sizeof copy))
		ck_abort_msg("%s: a refused action changed the game", where);
}

/*
 * Plays one game with policy p to its end, checking every step if full;
 * appends the actions to rec if it is not NULL.  The final state is left
 * in *g.
 */
static void play_game(bt_game *g, int pol, int players, int i, int full,
                      bt_record *rec)
{
	static bt_action legal[BT_MAX_LEGAL];
	uint8_t key[BT_KEY_BYTES];
	uint64_t prng;
	bt_action last;
	bt_error err;
	char where[80];

	test_key((uint64_t)pol + 1, players, i, key, &prng);
	new_game(g, players, 1 + i % players, key);
	memset(&last, 0, sizeof last);
	while (g->status == BT_PLAYING) {
		snprintf(where, sizeof where, "%s, %d players, game %d, "
		         "action %u", policies[pol].name, players, i,
		         (unsigned)g->actions + 1);
		if (g->actions >= MAX_ACTIONS)
			ck_abort_msg("%s: over %d actions", where, MAX_ACTIONS);
		int n = bt_legal(g, legal, BT_MAX_LEGAL);
		if (full)
			check_step(g, legal, n, where);
		else if (n <= 0)
			ck_abort_msg("%s: no legal action", where);
		int k = policies[pol].fn(g, legal, n, &prng);
		if (k < 0 || k >= n)
			ck_abort_msg("%s: policy chose %d of %d", where, k, n);
		last = legal[k];
		if (rec && bt_record_add_action(rec, &last, &err))
			ck_abort_msg("%s: record: %s", where, err.why);
		if (bt_apply(g, &last, &err))
			ck_abort_msg("%s: %s", where, err.why);
	}
	if (full)
		check_over(g, &last, where);
}

/* _i: the policy; every player count, GAMES_FULL games each. */
START_TEST(test_every_step_is_consistent)
{
	static bt_game g;
	char why[200];

	for (int p = BT_MIN_PLAYERS; p <= BT_MAX_PLAYERS; p++)
		for (int i = 0; i < GAMES_FULL; i++) {
			play_game(&g, _i, p, i, 1, NULL);
			if (bt_game_check(&g, why, sizeof why))
				ck_abort_msg("final state: %s", why);
			if (g.status != BT_WON && g.status != BT_LOST)
				ck_abort_msg("game %d ended playing", i);
		}
}
END_TEST

/* R11: the whole game is its key, players, First Player and actions. */
START_TEST(test_same_key_same_game)
{
	static bt_game a, b;

	for (int p = BT_MIN_PLAYERS; p <= BT_MAX_PLAYERS; p++)
		for (int i = 0; i < 20; i++) {
			play_game(&a, _i, p, i, 0, NULL);
			play_game(&b, _i, p, i, 0, NULL);
			if (memcmp(&a, &b, sizeof a))
				ck_abort_msg("%d players, game %d: two plays "
				             "differ", p, i);
		}
}
END_TEST

/* A game is a plain struct: a copy moved the same way stays the same. */
START_TEST(test_copies_evolve_identically)
{
	static bt_game g, h;
	static bt_action legal[BT_MAX_LEGAL], legal2[BT_MAX_LEGAL];
	uint8_t key[BT_KEY_BYTES];
	uint64_t prng;
	bt_error err;

	for (int p = BT_MIN_PLAYERS; p <= BT_MAX_PLAYERS; p++)
		for (int i = 0; i < 20; i++) {
			test_key(99, p, i, key, &prng);
			new_game(&g, p, 1, key);
			memcpy(&h, &g, sizeof h);
			while (g.status == BT_PLAYING) {
				int n = bt_legal(&g, legal, BT_MAX_LEGAL);
				int m = bt_legal(&h, legal2, BT_MAX_LEGAL);
				if (n != m || memcmp(legal, legal2,
				                     (size_t)n * sizeof *legal))
					ck_abort_msg("game %d: legal lists "
					             "differ", i);
				int k = policy_random(&g, legal, n, &prng);
				if (bt_apply(&g, &legal[k], &err) ||
				    bt_apply(&h, &legal[k], &err))
					ck_abort_msg("game %d: %s", i, err.why);
				if (memcmp(&g, &h, sizeof g))
					ck_abort_msg("game %d, action %u: the "
					             "copy differs", i,
					             (unsigned)g.actions);
			}
		}
}
END_TEST

/* Writes rec's text into a buffer and replays it into r. */
static void write_replay(const bt_record *rec, bt_replay *r, char *text,
                         const char *where)
{
	size_t len = bt_record_write_buf(rec, text, RECORD_TEXT);
	bt_error err;

	if (len == (size_t)-1 || len >= RECORD_TEXT)
		ck_abort_msg("%s: the record cannot be written (%zu)", where,
		             len);
	bt_replay_init(r);
	if (bt_replay_text(r, text, len, &err))
		ck_abort_msg("%s: replay stops on line %d: %s", where,
		             r->err_line, err.why);
}

/* R11 and RECORD.md: the record of a game replays to the same state. */
START_TEST(test_record_replays_to_same_state)
{
	static bt_game g;
	static bt_record rec;
	static bt_replay r;
	static char text[RECORD_TEXT];
	uint8_t key[BT_KEY_BYTES];
	uint64_t prng;
	char seed[BT_SEED_TEXT_MAX + 1], where[64];
	bt_error err;

	for (int p = BT_MIN_PLAYERS; p <= BT_MAX_PLAYERS; p++)
		for (int i = 0; i < GAMES_RECORD; i++) {
			snprintf(where, sizeof where, "%s, %d players, game %d",
			         policies[_i].name, p, i);
			test_key((uint64_t)_i + 1, p, i, key, &prng);
			bt_seed_hex(key, seed);
			if (bt_record_init(&rec, p, 1 + i % p, seed,
			                   strlen(seed), &err))
				ck_abort_msg("%s: %s", where, err.why);
			play_game(&g, _i, p, i, 0, &rec);
			write_replay(&rec, &r, text, where);
			if (r.game.actions != g.actions ||
			    memcmp(&r.game, &g, sizeof g))
				ck_abort_msg("%s: the replay ends elsewhere "
				             "(%u actions, %u replayed)", where,
				             (unsigned)g.actions,
				             (unsigned)r.game.actions);
		}
}
END_TEST

/* The policies: a choice within range, the random one uniform. */
START_TEST(test_policy_random_is_uniform)
{
	enum { N = 3, DRAWS = 30000 };
	int count[N] = { 0 };
	uint64_t rng = 12345;

	for (int i = 0; i < DRAWS; i++) {
		uint64_t v = policy_rng_below(&rng, N);
		ck_assert_uint_lt(v, N);
		count[v]++;
	}
	/* Each count is 10000 +- 3 sigma (about 245). */
	for (int k = 0; k < N; k++)
		ck_assert_msg(abs(count[k] - DRAWS / N) < 300, "count[%d] %d",
		              k, count[k]);
	ck_assert_uint_eq(policy_rng_below(&rng, 1), 0);
	ck_assert(policy_by_name("random") == policy_random);
	ck_assert(policy_by_name("greedy") == policy_greedy);
	ck_assert(policy_by_name("nobody") == NULL);
}
END_TEST

/* The greedy crew should beat chance: a sanity check, not a benchmark. */
START_TEST(test_greedy_beats_random)
{
	static bt_game g;
	int wins[2] = { 0, 0 };

	for (int pol = 0; pol < 2; pol++)
		for (int i = 0; i < 200; i++) {
			play_game(&g, pol, 4, i, 0, NULL);
			wins[pol] += g.status == BT_WON;
		}
	ck_assert_msg(wins[1] > wins[0] + 40, "greedy %d, random %d of 200",
	              wins[1], wins[0]);
}
END_TEST

static Suite *properties_suite(void)
{
	Suite *s = suite_create("properties");
	TCase *tc = tcase_create("games");
	int npol = (int)(sizeof policies / sizeof policies[0]);

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_every_step_is_consistent, 0, npol);
	tcase_add_loop_test(tc, test_same_key_same_game, 0, npol);
	tcase_add_test(tc, test_copies_evolve_identically);
	tcase_add_loop_test(tc, test_record_replays_to_same_state, 0, npol);
	tcase_add_test(tc, test_policy_random_is_uniform);
	tcase_add_test(tc, test_greedy_beats_random);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	if (sodium_init() < 0)
		return 1;
	sr = srunner_create(properties_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
