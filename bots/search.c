/*
 * search.c - determinized Monte Carlo from one seat's observation, with
 * the greedy crew playing the games out (search.h says why and how).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "observe.h"
#include "policy.h"
#include "search.h"

enum {
	ROLLOUT_MAX_ACTIONS = 4000,   /* a longer game is a bug: stop it */
	WORDS = BOT_MAX_WORLDS / 64,  /* win bits per action */
	PRUNE_EVERY = 8,              /* drawn games between prunings */
	PRUNE_MIN_PAIRS = 6,          /* discordant games before judging */
	SHORTLIST_WORLDS = 16         /* drawn games the shortlist asks */
};

/* How many standard errors behind the best action an action must be to
 * be dropped (a paired sign test on the games where the two differ). */
static const double prune_z = 2.5;

/*
 * How far (in the same units) an action must beat the greedy crew's own
 * choice (its most frequent choice in the drawn games) to be played
 * instead.  Weighing every legal action, the best of many is often best
 * by luck: with table talk, on the same 200 games at 2000 rollouts,
 * 0 won 68.0% (2 players) and 68.5% (3), 1.5 won 72.5% and 76.5%, 2.5
 * won 67.5% and 80.0% (greedy: 63.0%, 76.0%).  Then on 500 fresh games
 * (seed 1001), 1.5 won 72.2% against greedy's 64.0% at 2 players, 78.0%
 * against 73.2% at 3, 79.4% against 68.2% at 4.  The shortlist (below)
 * weighs few actions and needs no bar: 0 there (1.5 there: 76.0% at 3).
 * Checked again at 2 players on the first 900 games of seed 1 at 2000
 * rollouts: 0.5 won 68.3%, 1.5 71.4%, 2.5 68.0% (greedy 66.9%); ranking
 * the actions by wins plus 0.05 per point of Leisure margin, 71.6%.
 */
static const double accept_z_all = 1.5, accept_z_shortlist = 0;

/* One action under consideration.  sweep_macro: "play this Sensor Sweep",
 * its order chosen in each drawn game (the cards are not seen yet). */
typedef struct candidate {
	bt_action a;
	int sweep_macro;
	int alive;
	uint64_t votes;    /* drawn games where the greedy crew chose it */
	uint64_t wins;
	uint64_t played;   /* drawn games it was played in */
	int64_t margin;
} candidate;

/* xoshiro256**: fast, small, and good enough for sampling deals. */
typedef struct bot_rng {
	uint64_t s[4];
} bot_rng;

struct bot {
	bt_obs obs;
	bt_game world, trial;
	bt_action legal[BT_MAX_LEGAL];
	bot_rng rng;
	int ncand, chosen;       /* the last search's options and pick */
	int crew;                /* ... and the greedy crew's choice */
	uint64_t weighed;        /* drawn games it played each option in */
	candidate cand[BOT_MAX_CANDIDATES];
	uint64_t won[BOT_MAX_CANDIDATES][WORDS];
};

/* ---- the bot's generator ---------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void rng_seed(bot_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(bot_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* bt_draw_fn: uniform in 0..bound-1 by Lemire's multiply-shift, drawing
 * again on the rare biased products. */
static unsigned rng_draw(void *ctx, unsigned bound)
{
	bot_rng *r = ctx;
	uint64_t m = (rng_next(r) >> 32) * bound;

	if ((uint32_t)m < bound) {
		uint32_t threshold = (uint32_t)(0 - bound) % bound;
		while ((uint32_t)m < threshold)
			m = (rng_next(r) >> 32) * bound;
	}
	return (unsigned)(m >> 32);
}

/* ---- playing out ----------------------------------------------------------- */

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Plays w to its end with the greedy crew. */
static void rollout(bot *b, bt_game *w, int *won, int *margin)
{
	bt_error err;
	uint64_t unused = 0;

	while (w->status == BT_PLAYING && w->actions < ROLLOUT_MAX_ACTIONS) {
		int n = bt_legal(w, b->legal, BT_MAX_LEGAL);
		if (n <= 0)
			break;
		int pick = policy_greedy(w, b->legal, n, &unused);
		if (bt_apply_legal(w, &b->legal[pick], &err))
			break;
	}
	*won = w->status == BT_WON;
	*margin = w->leisure - bt_goal(w);
}

/* Plays candidate c in w (a copy); -1 if the world refuses it, which
 * only an inconsistent sample could cause. */
static int play_candidate(bot *b, const candidate *c, bt_game *w)
{
	bt_error err;

	if (c->sweep_macro) {
		int n = bt_legal(w, b->legal, BT_MAX_LEGAL);
		int i = policy_sweep_best(b->legal, n, c->a.card);
		return i < 0 ? -1 : bt_apply_legal(w, &b->legal[i], &err);
	}
	return bt_apply(w, &c->a, &err) ? -1 : 0;
}

/* ---- the actions to weigh ----------------------------------------------- */

static int is_sweep(const bt_action *a)
{
	return a->verb == BT_SPECIAL &&
	       bt_card_get(a->card)->kind == BT_SENSOR_SWEEP;
}

/* 1 if the seat knows every card a Sensor Sweep would show now. */
static int sweep_seen(const bt_obs *o)
{
	int n = o->table.shift_deck.n;

	return o->known_top_n >= (n < BT_SWEEP_CARDS ? n : BT_SWEEP_CARDS);
}

static void add_candidate(bot *b, const bt_action *a, int macro)
{
	candidate *c;

	if (b->ncand >= BOT_MAX_CANDIDATES)
		return;
	c = &b->cand[b->ncand++];
	memset(c, 0, sizeof *c);
	c->a = *a;
	c->sweep_macro = macro;
	if (macro) {
		c->a.nargs = 0;
		memset(c->a.arg, 0, sizeof c->a.arg);
	}
	c->alive = 1;
}

/*
 * The actions of the seat in world, which agrees with o: they depend only
 * on what the seat sees, except Sensor Sweep's orders, which name cards
 * it has not seen; those become one "play it" per card.  With only_sweep
 * a card, only that card's sweeps are listed.
 */
static void list_candidates(bot *b, const bt_obs *o, const bt_game *world,
                            bt_card only_sweep)
{
	int n = bt_legal(world, b->legal, BT_MAX_LEGAL);
	int seen = sweep_seen(o);

	b->ncand = 0;
	for (int i = 0; i < n; i++) {
		const bt_action *a = &b->legal[i];
		int sweep = is_sweep(a);
		if (only_sweep != BT_NO_CARD &&
		    (!sweep || a->card != only_sweep))
			continue;
		if (sweep && !seen) {
			if (b->ncand && b->cand[b->ncand - 1].sweep_macro &&
			    b->cand[b->ncand - 1].a.card == a->card)
				continue;
			add_candidate(b, a, 1);
		} else {
			add_candidate(b, a, 0);
		}
	}
}

/* ---- weighing ------------------------------------------------------------ */

/* 1 if candidate x beats y: more wins, then more margin, then earlier. */
static int better(const candidate *x, const candidate *y)
{
	if (x->wins != y->wins)
		return x->wins > y->wins;
	return x->margin > y->margin;
}

static int leader(const bot *b)
{
	int best = -1;

	for (int k = 0; k < b->ncand; k++)
		if (b->cand[k].alive &&
		    (best < 0 || better(&b->cand[k], &b->cand[best])))
			best = k;
	return best;
}

static int popcount(uint64_t x)
{
	return __builtin_popcountll(x);
}

/* The greedy crew's choice: the action it took in most drawn games. */
static int greedy_choice(const bot *b)
{
	int best = 0;

	for (int k = 1; k < b->ncand; k++)
		if (b->cand[k].votes > b->cand[best].votes)
			best = k;
	return best;
}

/* 1 if x won clearly more often than y on the same drawn games (a sign
 * test on the games where exactly one of them won: z standard errors). */
static int beats(const bot *b, int x, int y, uint64_t worlds, double z)
{
	size_t words = (size_t)((worlds + 63) / 64);
	int only_x = 0, only_y = 0;

	for (size_t w = 0; w < words; w++) {
		only_x += popcount(b->won[x][w] & ~b->won[y][w]);
		only_y += popcount(b->won[y][w] & ~b->won[x][w]);
	}
	return only_x + only_y >= PRUNE_MIN_PAIRS &&
	       only_x - only_y > z * sqrt(only_x + only_y);
}

/* 1 if x and y won on exactly the same drawn games. */
static int same_wins(const bot *b, int x, int y, uint64_t worlds)
{
	size_t words = (size_t)((worlds + 63) / 64);

	for (size_t w = 0; w < words; w++)
		if (b->won[x][w] != b->won[y][w])
			return 0;
	return 1;
}

/* Drops the actions that won clearly less often than the leader on the
 * same drawn games (never the greedy crew's choice, the default);
 * returns how many are left. */
static int prune(bot *b, uint64_t worlds)
{
	int best = leader(b), keep = greedy_choice(b), left = 0;

	for (int k = 0; k < b->ncand; k++) {
		candidate *c = &b->cand[k];
		if (c->alive && k != best && k != keep &&
		    beats(b, best, k, worlds, prune_z))
			c->alive = 0;
		left += c->alive;
	}
	return left;
}

/* The action to play: the leader if it clearly beats the greedy crew's
 * choice, or wins exactly where it does with more Leisure (the
 * tie-break); else the greedy crew's choice. */
static int final_choice(const bot *b, uint64_t worlds, double accept_z)
{
	int best = leader(b), keep = greedy_choice(b);

	if (best == keep || beats(b, best, keep, worlds, accept_z) ||
	    (same_wins(b, best, keep, worlds) &&
	     b->cand[best].margin > b->cand[keep].margin))
		return best;
	return keep;
}

/* Books the greedy crew's choice in world as a vote for its candidate. */
static void vote(bot *b, const bt_game *world)
{
	uint64_t unused = 0;
	int n = bt_legal(world, b->legal, BT_MAX_LEGAL), pick;
	const bt_action *a;

	if (n <= 0)
		return;
	pick = policy_greedy(world, b->legal, n, &unused);
	a = &b->legal[pick];
	for (int k = 0; k < b->ncand; k++) {
		const candidate *c = &b->cand[k];
		if (c->sweep_macro ? is_sweep(a) && a->card == c->a.card
		                   : bot_action_index(&c->a, 1, a) == 0) {
			b->cand[k].votes++;
			return;
		}
	}
	/* Choosing a sweep's order, the crew's favourite order gets it. */
	pick = policy_sweep_best(b->legal, n, b->cand[0].a.card);
	if (pick >= 0)
		for (int k = 0; k < b->ncand; k++)
			if (bot_action_index(&b->cand[k].a, 1, &b->legal[pick]) == 0)
				b->cand[k].votes++;
}

/*
 * The BOT_SHORTLIST variant: keeps the actions the greedy crew takes in
 * some of SHORTLIST_WORLDS drawn games, and work and log.  Fewer actions,
 * more drawn games each.  It was the default while the bots heard no
 * table talk (on 100 games of 3 players at 1000 rollouts: greedy won 67,
 * every action 68, the shortlist 75).  With table talk the drawn games
 * differ only in the deck orders, the crew's choice is nearly always the
 * same one, and the shortlist shrinks to it, work and log: on the same
 * 200 games, 65.5% at 2 players against 72.5% for every action with the
 * bar of accept_z_all.  Returns how many are left.
 */
static int shortlist(bot *b, const bt_obs *o, bot_stats *st)
{
	int left = 0;

	vote(b, &b->world);
	for (int i = 1; i < SHORTLIST_WORLDS; i++) {
		if (bt_obs_sample(o, rng_draw, &b->rng, &b->world))
			break;
		st->worlds++;
		vote(b, &b->world);
	}
	for (int k = 0; k < b->ncand; k++) {
		candidate *c = &b->cand[k];
		c->alive = c->votes > 0 || c->a.verb == BT_WORK ||
		           c->a.verb == BT_LOG;
		left += c->alive;
	}
	/* The first game of the search proper. */
	if (bt_obs_sample(o, rng_draw, &b->rng, &b->world))
		return 0;
	st->worlds++;
	return left;
}

/* Plays candidate k in a copy of world and books the result. */
static int trial(bot *b, int k, const bt_game *world, uint64_t index)
{
	candidate *c = &b->cand[k];
	int won, margin;

	b->trial = *world;
	if (play_candidate(b, c, &b->trial))
		return -1;
	rollout(b, &b->trial, &won, &margin);
	c->played++;
	c->wins += (uint64_t)won;
	c->margin += margin;
	if (won)
		b->won[k][index / 64] |= (uint64_t)1 << (index % 64);
	return 0;
}

/* Plays the drawn game index out once for every action still in. */
static int weigh_world(bot *b, const bt_obs *o, const bot_budget *budget,
                       uint64_t index, bot_stats *st)
{
	vote(b, &b->world);
	for (int k = 0; k < b->ncand; k++) {
		if (!b->cand[k].alive)
			continue;
		/* The caller drew this world; the measuring variant draws
		 * one per action instead. */
		if ((budget->flags & BOT_INDEPENDENT) && k > 0) {
			if (bt_obs_sample(o, rng_draw, &b->rng, &b->world))
				return -1;
			st->worlds++;
		}
		if (trial(b, k, &b->world, index))
			return -1;
		st->rollouts++;
	}
	return 0;
}

static int alive_count(const bot *b)
{
	int n = 0;

	for (int k = 0; k < b->ncand; k++)
		n += b->cand[k].alive;
	return n;
}

/* 1 once the budget is spent (or would be by one more drawn game), with
 * used rollouts played so far in this search. */
static int spent(const bot_budget *budget, uint64_t used, int alive,
                 double deadline)
{
	if (budget->rollouts > 0)
		return used + (uint64_t)alive > (uint64_t)budget->rollouts;
	return now_seconds() >= deadline;
}

/*
 * The search proper: the best of o's actions (only only_sweep's orders,
 * if it is a card) into *choice.  Sees nothing but o.
 */
static int search_obs(bot *b, const bt_obs *o, bt_card only_sweep,
                      const bot_budget *budget, uint64_t seed,
                      candidate *choice, bot_stats *st)
{
	double deadline = now_seconds() + budget->think_ms / 1000.0;
	uint64_t w, start = st->rollouts;  /* the sweep's order: a new budget */
	int left, short_list;

	rng_seed(&b->rng, seed);
	if (bt_obs_sample(o, rng_draw, &b->rng, &b->world))
		return -1;
	st->worlds++;
	list_candidates(b, o, &b->world, only_sweep);
	st->candidates = b->ncand;
	if (b->ncand == 0)
		return -1;
	/* A sweep's orders are few, and the crew has one favourite: all are
	 * weighed. */
	short_list = (budget->flags & BOT_SHORTLIST) && only_sweep == BT_NO_CARD;
	left = short_list ? shortlist(b, o, st) : b->ncand;
	if (left == 0)
		return -1;
	memset(b->won, 0, (size_t)b->ncand * sizeof b->won[0]);
	/* A choice needs two actions; an estimate weighs even one. */
	int least = (budget->flags & BOT_ESTIMATE) ? 1 : 2;
	for (w = 0; left >= least && w < BOT_MAX_WORLDS; w++) {
		if (w > 0) {
			if (spent(budget, st->rollouts - start, left, deadline))
				break;
			if (bt_obs_sample(o, rng_draw, &b->rng, &b->world))
				return -1;
			st->worlds++;
		}
		if (weigh_world(b, o, budget, w, st))
			return -1;
		if (!(budget->flags & BOT_NO_PRUNE) &&
		    (w + 1) % PRUNE_EVERY == 0)
			left = prune(b, w + 1);
		else
			left = alive_count(b);
	}
	b->weighed = w;
	b->crew = greedy_choice(b);
	b->chosen = final_choice(b, w, short_list ? accept_z_shortlist
	                                          : accept_z_all);
	*choice = b->cand[b->chosen];
	return 0;
}

/* ---- the entry points ------------------------------------------------------ */

bot *bot_new(void)
{
	return calloc(1, sizeof(bot));
}

void bot_free(bot *b)
{
	free(b);
}

static int budget_ok(const bot_budget *budget)
{
	if (budget->rollouts > 0)
		return budget->rollouts <= BOT_MAX_ROLLOUTS;
	return budget->rollouts == 0 && budget->think_ms > 0 &&
	       budget->think_ms <= BOT_MAX_THINK_MS;
}

/* A candidate's share of the drawn games it won in (0 if none). */
static double share(const candidate *c)
{
	return c->played ? (double)c->wins / (double)c->played : 0;
}

/*
 * The chance, as far as o knows the Shift Deck, that its next card
 * brings a reprimand: a known top card decides it; else every card whose
 * place is unknown is as likely (the unseen Shift cards are exactly
 * those: observe.h).
 */
static void obs_risk(const bt_obs *o, int *num, int *den)
{
	const bt_pile *d = &o->table.shift_deck;

	*num = *den = 0;
	if (d->n == 0)
		return;
	if (d->c[d->n - 1] != BT_NO_CARD) {
		*num = bt_draw_reprimands(&o->table, d->c[d->n - 1]);
		*den = 1;
		return;
	}
	for (int c = BT_SHIFT_FIRST; c < BT_SHIFT_FIRST + BT_SHIFT_COUNT; c++)
		if (o->unseen[c / 64] >> (c % 64) & 1) {
			*num += bt_draw_reprimands(&o->table, (bt_card)c);
			(*den)++;
		}
}

/* The figures of the decision search_obs just made (before a sweep's
 * order is chosen). */
static void figures(const bot *b, const bt_obs *o, bot_figures *fig)
{
	const candidate *chosen = &b->cand[b->chosen];
	const candidate *crew = &b->cand[b->crew];

	memset(fig, 0, sizeof *fig);
	fig->options = b->ncand;
	fig->games = chosen->played;
	fig->chance = share(chosen);
	fig->crew_differs = b->crew != b->chosen;
	fig->crew = crew->a;
	fig->crew_chance = share(crew);
	obs_risk(o, &fig->risk_num, &fig->risk_den);
	fig->effort_needed = o->table.target - o->table.effort;
	fig->swept = chosen->sweep_macro;
}

/* The decision of bot_search and bot_search_heard: seat heard the hands
 * and the sweeps of those seats; fig (may be NULL) gets its figures. */
static int decide(bot *b, const bt_game *g, int seat, unsigned hands,
                  unsigned sweeps, const bot_budget *budget, uint64_t seed,
                  bt_action *out, bot_stats *st, bot_figures *fig)
{
	candidate choice;

	memset(st, 0, sizeof *st);
	if (g->status != BT_PLAYING || g->turn != seat || !budget_ok(budget) ||
	    bt_observe_heard(g, seat, hands, sweeps, 0, &b->obs) ||
	    search_obs(b, &b->obs, BT_NO_CARD, budget, seed, &choice, st))
		return -1;
	if (fig)
		figures(b, &b->obs, fig);
	if (choice.sweep_macro) {
		/* It plays the sweep and looks: now it chooses the order. */
		bt_card card = choice.a.card;
		if (bt_observe_heard(g, seat, hands, sweeps, 1, &b->obs) ||
		    search_obs(b, &b->obs, card, budget, splitmix(&seed), &choice,
		               st))
			return -1;
	}
	*out = choice.a;
	return 0;
}

int bot_search(bot *b, const bt_game *g, int seat, unsigned told,
               const bot_budget *budget, uint64_t seed, bt_action *out,
               bot_stats *st)
{
	bot_stats local;

	return decide(b, g, seat, told, told, budget, seed, out,
	              st ? st : &local, NULL);
}

int bot_search_heard(bot *b, const bt_game *g, int seat,
                     const bot_heard *heard, const bot_budget *budget,
                     uint64_t seed, bt_action *out, bot_figures *fig)
{
	bot_stats st;

	return decide(b, g, seat, heard ? heard->hands : 0,
	              heard ? heard->sweeps : 0, budget, seed, out, &st, fig);
}

const bt_obs *bot_observation(const bot *b)
{
	return &b->obs;
}

int bot_estimate_options(bot *b, const bt_game *g, int seat, unsigned told,
                         const bot_budget *budget, uint64_t seed,
                         bot_estimate *out)
{
	bot_budget every = *budget;
	bot_stats st;
	candidate choice;

	memset(&st, 0, sizeof st);
	memset(out, 0, sizeof *out);
	every.flags = (budget->flags | BOT_NO_PRUNE | BOT_ESTIMATE) &
	              ~(unsigned)(BOT_SHORTLIST | BOT_INDEPENDENT);
	if (g->status != BT_PLAYING || g->turn != seat || !budget_ok(budget) ||
	    bt_observe_told(g, seat, told, 0, &b->obs) ||
	    search_obs(b, &b->obs, BT_NO_CARD, &every, seed, &choice, &st) ||
	    b->weighed == 0)
		return -1;
	out->n = b->ncand;
	out->best = leader(b);
	out->choice = b->chosen;
	out->games = b->weighed;
	for (int k = 0; k < b->ncand; k++) {
		const candidate *c = &b->cand[k];
		bot_option *o = &out->option[k];
		o->a = c->a;
		o->sweep = c->sweep_macro;
		o->chance = (double)c->wins / (double)b->weighed;
		o->margin = (double)c->margin / (double)b->weighed;
	}
	return 0;
}

int bot_option_of(const bot_estimate *e, const bt_action *a)
{
	for (int k = 0; k < e->n; k++) {
		const bot_option *o = &e->option[k];
		if (o->sweep ? is_sweep(a) && a->card == o->a.card
		             : bot_action_index(&o->a, 1, a) == 0)
			return k;
	}
	return -1;
}

int bot_clairvoyant(bot *b, const bt_game *g, bt_action *out,
                    bot_stats *st)
{
	bot_stats local;
	int n, best = -1, best_won = 0, best_margin = 0;
	bt_action legal[BT_MAX_LEGAL];
	bt_error err;

	if (!st)
		st = &local;
	memset(st, 0, sizeof *st);
	n = bt_legal(g, legal, BT_MAX_LEGAL);
	st->candidates = n;
	for (int i = 0; i < n && n > 1; i++) {
		int won, margin;
		b->trial = *g;
		if (bt_apply_legal(&b->trial, &legal[i], &err))
			return -1;
		rollout(b, &b->trial, &won, &margin);
		st->rollouts++;
		if (best < 0 || won > best_won ||
		    (won == best_won && margin > best_margin)) {
			best = i;
			best_won = won;
			best_margin = margin;
		}
	}
	if (n <= 0)
		return -1;
	*out = legal[best < 0 ? 0 : best];
	return 0;
}

int bot_action_index(const bt_action *legal, int n, const bt_action *a)
{
	for (int i = 0; i < n; i++) {
		const bt_action *x = &legal[i];
		if (x->seat == a->seat && x->verb == a->verb &&
		    x->card == a->card && x->nargs == a->nargs &&
		    !memcmp(x->arg, a->arg, x->nargs))
			return i;
	}
	return -1;
}

int bot_kind_by_name(const char *name)
{
	if (!strcmp(name, "search"))
		return 1;
	if (!strcmp(name, "clairvoyant"))
		return 2;
	return 0;
}
