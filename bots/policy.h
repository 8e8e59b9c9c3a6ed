/*
 * policy.h - the fast policies: they choose one of the legal actions at
 * once (for sim, tests, and as the search's rollout policy, search.h).
 *
 * A policy gets the game, the list bt_legal() returned (n > 0) and a
 * PRNG state, and returns the index of its choice in 0..n-1.  The PRNG
 * is a policy's own: it is not part of the game record, so it is a small
 * fast generator rather than the game's libsodium stream.
 */
#ifndef BT_POLICY_H
#define BT_POLICY_H

#include <stdint.h>

#include "game.h"

/* A policy: the index of the chosen action among legal[0..n-1], n > 0. */
typedef int (*policy_fn)(const bt_game *g, const bt_action *legal, int n,
                         uint64_t *rng);

/* The next 64 bits of the splitmix64 generator with state *rng (any
 * value is a valid state, including 0). */
uint64_t policy_rng_next(uint64_t *rng);

/* A uniform integer in 0..bound-1 (bound >= 1), without modulo bias. */
uint64_t policy_rng_below(uint64_t *rng, uint64_t bound);

/* Chooses uniformly among the n legal actions. */
int policy_random(const bt_game *g, const bt_action *legal, int n,
                  uint64_t *rng);

/*
 * A heuristic crew.  It plays as the whole crew with table talk (R10):
 * it uses the public table (the Shift Deck's composition is every shift
 * card not in the stack), the hands the players may tell each other
 * about, the top cards of the Shift Deck some seat saw with Sensor Sweep
 * and the bottom ones everyone saw put there; never the rest of the
 * hidden order.  It plans the round's side projects by the chance of
 * reaching their target before the officers reprimand the crew, and
 * keeps Overtime, Deflect, Sensor Sweep and Cover Story for dangerous
 * draws.  Deterministic: rng is unused, accepted only so all policies
 * share one signature.  Thread-safe (its tables are per thread).
 */
int policy_greedy(const bt_game *g, const bt_action *legal, int n,
                  uint64_t *rng);

/*
 * The Sensor Sweep of card among legal[0..n-1] whose order the greedy
 * crew likes best (effort cards on top, biggest first, then the
 * officers, smallest first); -1 if there is none.
 */
int policy_sweep_best(const bt_action *legal, int n, bt_card card);

/* The policy named name ("random", "greedy"), or NULL. */
policy_fn policy_by_name(const char *name);

#endif
