/*
 * greedy.c - the fast policies: random, and the greedy crew (for the
 * simulator, the property tests, and the search's rollouts).
 *
 * The greedy crew values a state by a rough chance of winning from it:
 * the leisure still needed against what the remaining rounds can bring
 * (a normal approximation), and weighs each plan for the current round by
 * the chance of reaching its target before the Officers reprimand the
 * crew.  That chance is computed from public knowledge only (R10): the
 * Shift Deck's composition is every shift card not in the stack, the top
 * cards some seat saw with Sensor Sweep are known in order (table talk),
 * and so are the bottom cards everyone saw put there.
 */
#include <math.h>
#include <string.h>

#include "policy.h"

/* ---- the policies' PRNG --------------------------------------------------- */

uint64_t policy_rng_next(uint64_t *rng)
{
	/* splitmix64: one add and a mix, every state valid, period 2^64. */
	uint64_t z = (*rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

uint64_t policy_rng_below(uint64_t *rng, uint64_t bound)
{
	uint64_t r, threshold;

	if (bound <= UINT32_MAX) {
		/* Lemire's multiply-shift: the high half of r * bound is
		 * uniform once the few low halves below 2^32 mod bound are
		 * drawn again; no division on the common path. */
		uint64_t m = (policy_rng_next(rng) >> 32) * bound;
		if ((uint32_t)m < bound) {
			threshold = (uint32_t)(0 - (uint32_t)bound) %
			            (uint32_t)bound;
			while ((uint32_t)m < threshold)
				m = (policy_rng_next(rng) >> 32) * bound;
		}
		return m >> 32;
	}
	/* Values below 2^64 mod bound would favour the low results. */
	threshold = (0 - bound) % bound;
	do
		r = policy_rng_next(rng);
	while (r < threshold);
	return r % bound;
}

int policy_random(const bt_game *g, const bt_action *legal, int n,
                  uint64_t *rng)
{
	(void)g, (void)legal;
	return n > 1 ? (int)policy_rng_below(rng, (uint64_t)n) : 0;
}

/* ---- what the crew knows ------------------------------------------------- */

/*
 * Knobs of the greedy crew, tuned with `buffertime sim` (each was worth a
 * point or more of win rate against its neighbours).  A build with
 * -DPOLICY_TUNE may change them through policy_tune() to tune again.
 */
#ifdef POLICY_TUNE
#define KNOB_CONST
#else
#define KNOB_CONST const
#endif
static KNOB_CONST struct {
	double round_mean;     /* leisure a later round brings on average */
	double round_sd;       /* and its spread (rounds are all or nothing) */
	double hold_risk;      /* keep Overtime and Deflect while the next
	                        * draw reprimands less often than this */
	int cover_officers;    /* Cover Story once this many officers are up */
	int sweep_officers;    /* Sensor Sweep once this many are up */
} knob = { 3.0, 5.0, 0.10, 2, 2 };

#ifdef POLICY_TUNE
#include <stdlib.h>
void policy_tune(void);

/* Reads the knobs from K_MEAN, K_SD, K_HOLD, K_COVER, K_SWEEP. */
void policy_tune(void)
{
	const char *v;

	if ((v = getenv("K_MEAN")))
		knob.round_mean = atof(v);
	if ((v = getenv("K_SD")))
		knob.round_sd = atof(v);
	if ((v = getenv("K_HOLD")))
		knob.hold_risk = atof(v);
	if ((v = getenv("K_COVER")))
		knob.cover_officers = atoi(v);
	if ((v = getenv("K_SWEEP")))
		knob.sweep_officers = atoi(v);
}
#endif

enum {
	MAX_OFFICER_CARDS = 8,
	/* worth() is a table over leisure still needed and rounds left */
	WORTH_NEED = 64,
	WORTH_ROUNDS = BT_ASSIGN_COUNT + 1
};

typedef struct crew {
	const bt_game *g;
	int seat;
	int effort, target, officers;
	int banked;            /* Leisure Total */
	int pending;           /* leisure a log would add now */
	double lose;           /* worth() after a reprimand */
	int rounds_after;      /* rounds still to come after this one */
	int goal;
	/* the top cards someone saw, top first */
	int nknown;
	bt_card known[BT_SWEEP_CARDS];
	/* the cards whose order nobody knows, tallied on first use */
	int tallied;
	int ne;                /* effort cards */
	int effort_sum;
	int nofficer;          /* officer cards */
	uint8_t icons[MAX_OFFICER_CARDS];
	/* calm[j]: share of the j-card subsets of those officers that show
	 * fewer icons than the budget (within one decision the budget asked
	 * about is always the same: four less what is up and known) */
	int calm_budget;
	double calm[BT_REPRIMAND_OFFICERS];
	/* safe[m] for m < nsafe: safe_draws() of m, filled in order of m;
	 * p0n / p0d is P(no officer before the m-th effort card) for
	 * m = nsafe (a fraction, to divide once) */
	int nsafe;
	double p0n, p0d;
	double safe[BT_SHIFT_COUNT + 2];
} crew;

/* Leisure of the card a reprimand takes from the row (R7.3). */
static int row_max(const bt_game *g)
{
	int best = 0;

	for (int i = 0; i < g->row_n && i < BT_ROW_MAX; i++) {
		int l = bt_card_get(g->row[i])->leisure;
		if (l > best)
			best = l;
	}
	return best;
}

static int pending_leisure(const bt_game *g)
{
	int l = g->duty == BT_NO_CARD ? 0 : bt_card_get(g->duty)->leisure;

	for (int i = 0; i < g->side_play_n && i < BT_SIDE_COUNT; i++)
		l += bt_card_get(g->side_play[i])->leisure;
	return l;
}

/* The hand bits of the Extra Duty cards; filled once per thread. */
static _Thread_local uint64_t extra_duty_mask;
static _Thread_local int extra_duty_ready;

/* Extra Duty cards the crew holds add rounds, up to what is set aside. */
static int rounds_after(const bt_game *g)
{
	uint64_t held = 0;
	int extra = 0;

	if (!extra_duty_ready) {
		for (int i = 0; i < BT_ABILITY_COUNT; i++) {
			bt_card c = (bt_card)(BT_ABILITY_FIRST + i);
			if (bt_card_get(c)->kind == BT_EXTRA_DUTY)
				extra_duty_mask |= (uint64_t)1 << c;
		}
		extra_duty_ready = 1;
	}
	for (int s = 0; s < g->players; s++)
		held |= g->hand[s];
	for (held &= extra_duty_mask; held; held &= held - 1)
		extra++;
	if (extra > g->set_aside.n)
		extra = g->set_aside.n;
	return g->assignment_deck.n + extra;
}

/* The deepest view of the deck's top that some seat shares (R10). */
static int known_top(const bt_game *g)
{
	int k = 0;

	for (int s = 0; s < g->players; s++)
		if (g->known_top[s] > k)
			k = g->known_top[s];
	return k < g->shift_deck.n ? k : g->shift_deck.n;
}

/* n choose k for small numbers, as a double. */
static double choose(int n, int k)
{
	double r = 1;

	if (k < 0 || n < k)
		return 0;
	for (int i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

/* Tallies the part of the deck whose order nobody knows. */
static void crew_deck(crew *c)
{
	const bt_pile *d = &c->g->shift_deck;
	int lo = c->g->known_bottom, hi = d->n - c->nknown;

	c->ne = c->effort_sum = c->nofficer = 0;
	for (int i = lo; i < hi; i++) {
		const bt_card_info *k = bt_card_get(d->c[i]);
		if (k->officers && c->nofficer < MAX_OFFICER_CARDS) {
			c->icons[c->nofficer++] = k->officers;
		} else if (!k->officers) {
			c->ne++;
			c->effort_sum += k->effort;
		}
	}
	c->tallied = 1;
	c->calm_budget = 0;
}

/* How many size-card subsets of icons[from..n-1] show fewer than room
 * icons.  Every officer shows one or more, so size < room <= 4. */
static int subsets_below(const uint8_t *icons, int n, int from, int size,
                         int room)
{
	int count = 0;

	if (size == 0)
		return room > 0;
	for (int i = from; i < n; i++)
		if (icons[i] < room)
			count += subsets_below(icons, n, i + 1, size - 1,
			                       room - icons[i]);
	return count;
}

/* Fills calm[] for budget. */
static void crew_calm(crew *c, int budget)
{
	for (int j = 0; j < BT_REPRIMAND_OFFICERS; j++)
		c->calm[j] = j < budget && j <= c->nofficer ?
			subsets_below(c->icons, c->nofficer, 0, j, budget) /
			choose(c->nofficer, j) : 0;
	c->calm_budget = budget;
}

static double worth(const crew *c, int banked, int rounds);

static void crew_init(crew *c, const bt_game *g)
{
	c->g = g;
	c->seat = g->turn;
	c->effort = g->effort;
	c->target = g->target;
	c->officers = g->officers;
	c->banked = g->leisure;
	c->pending = pending_leisure(g);
	c->rounds_after = rounds_after(g);
	c->goal = bt_goal(g);
	c->lose = worth(c, c->banked - row_max(g), c->rounds_after);
	c->nknown = known_top(g);
	for (int i = 0; i < c->nknown; i++)
		c->known[i] = g->shift_deck.c[g->shift_deck.n - 1 - i];
	c->tallied = 0;
	c->calm_budget = 0;
	c->nsafe = 0;
}

/* ---- chances --------------------------------------------------------------- */

/*
 * The chance that no reprimand comes while m more effort cards are drawn
 * from the unknown cards, with budget officer icons still allowed.  The
 * number J of officers drawn before the m-th effort card follows the
 * negative hypergeometric law,
 *	P(J = j) = C(m - 1 + j, j) C(ne - m + k - j, k - j) / C(ne + k, k),
 * and given J they are a uniform subset of the k officers.  Within one
 * decision the budget is always the same (four less the officers up and
 * known), so the answers are kept, computed for m = 1, 2, ... in turn.
 */
static double safe_draws(crew *c, int m, int budget)
{
	int k = c->nofficer, ne = c->ne;

	if (m > ne || budget <= 0)
		return 0;
	if (budget != c->calm_budget) {
		crew_calm(c, budget);
		c->nsafe = 0;
	}
	if (c->nsafe == 0) {
		/* P(J = 0) for m = 1: C(ne - 1 + k, k) / C(ne + k, k) */
		c->p0n = ne;
		c->p0d = ne + k;
		c->safe[0] = 1;
		c->nsafe = 1;
	}
	while (c->nsafe <= m) {
		int n = c->nsafe, top = budget - 1 < k ? budget - 1 : k;
		double num = 0, den = 1;
		/* Horner over j with the ratio P(J = j + 1) / P(J = j), as
		 * one fraction: divisions are the slow part. */
		for (int j = top - 1; j >= 0; j--) {
			num = (num + c->calm[j + 1] * den) * (n + j) * (k - j);
			den *= (double)(j + 1) * (ne - n + k - j);
		}
		c->safe[n] = c->p0n * (c->calm[0] * den + num) / (c->p0d * den);
		/* P(J = 0) for m + 1 */
		c->p0n *= ne - n;
		c->p0d *= ne - n + k;
		c->nsafe++;
	}
	return c->safe[m];
}

/* The chance to add need more effort before the Officers reach four. */
static double reach(crew *c, int need)
{
	int o = c->officers;
	double draws, frac;
	int lo;

	for (int i = 0; i < c->nknown && need > 0; i++) {
		const bt_card_info *k = bt_card_get(c->known[i]);
		o += k->officers;
		if (o >= BT_REPRIMAND_OFFICERS)
			return 0;
		need -= k->effort;
	}
	if (need <= 0)
		return 1;
	if (!c->tallied)
		crew_deck(c);
	if (c->ne == 0)
		return 0;
	/* Cards needed: about need / mean effort, plus the overshoot of the
	 * last card; between two counts, interpolate. */
	draws = (need - 1) * (double)c->ne / c->effort_sum + 1;
	lo = (int)draws;
	frac = draws - lo;
	return (1 - frac) * safe_draws(c, lo, BT_REPRIMAND_OFFICERS - o) +
	       frac * safe_draws(c, lo + 1, BT_REPRIMAND_OFFICERS - o);
}

/* worth_table[r][n]: the chance that r rounds bring n more leisure, each
 * round's leisure roughly normal; filled once per thread. */
static _Thread_local double worth_table[WORTH_ROUNDS][WORTH_NEED];
static _Thread_local int worth_ready;

static void worth_fill(void)
{
	for (int r = 0; r < WORTH_ROUNDS; r++)
		for (int n = 0; n < WORTH_NEED; n++)
			worth_table[r][n] = n <= 0 ? 1 : r == 0 ? 0 :
				0.5 * erfc((n - knob.round_mean * r) /
				           (knob.round_sd * sqrt(2.0 * r)));
	worth_ready = 1;
}

/* Rough chance of winning with banked leisure and rounds still to play. */
static double worth(const crew *c, int banked, int rounds)
{
	int need = c->goal - banked;

	if (need <= 0)
		return 1;
	if (!worth_ready)
		worth_fill();
	return worth_table[rounds < WORTH_ROUNDS ? rounds : WORTH_ROUNDS - 1]
	                  [need < WORTH_NEED ? need : WORTH_NEED - 1];
}

/* Value of playing this round on to target, then logging pending; the
 * chance to get there goes to *chance if it is not NULL. */
static double plan_value(crew *c, int target, int pending, double *chance)
{
	double q = target <= c->effort ? 1 : reach(c, target - c->effort);

	if (chance)
		*chance = q;
	if (q <= 0)
		return c->lose;
	return q * worth(c, c->banked + pending, c->rounds_after) +
	       (1 - q) * c->lose;
}

/* ---- choosing ---------------------------------------------------------- */

/* Where the interesting actions sit in the legal list; -1 if absent. */
typedef struct menu {
	int work, log;
	int sides;                /* how many side projects can be played */
	int kind[BT_KIND__MAX];   /* the first action of each plain kind */
	int cover;                /* Cover Story on the biggest officer */
	int sweep;                /* Sensor Sweep in the best order */
	long sweep_rank;
} menu;

/* How good a Sensor Sweep order is: effort cards on top, biggest first,
 * then the officers, smallest first. */
static long sweep_rank(const bt_action *a)
{
	long r = 0;

	for (int i = 0; i < a->nargs && i < BT_SWEEP_CARDS; i++) {
		const bt_card_info *k = bt_card_get(a->arg[i]);
		r = r * 16 + (k->officers ? 4 - k->officers : 8 + k->effort);
	}
	return r;
}

static void menu_special(menu *m, const bt_action *legal, int i)
{
	const bt_action *a = &legal[i];
	bt_kind k = bt_card_get(a->card)->kind;

	if (k == BT_COVER_STORY) {
		if (m->cover < 0 || bt_card_get(a->arg[0])->officers >
		    bt_card_get(legal[m->cover].arg[0])->officers)
			m->cover = i;
	} else if (k == BT_SENSOR_SWEEP) {
		long r = sweep_rank(a);
		if (m->sweep < 0 || r > m->sweep_rank) {
			m->sweep = i;
			m->sweep_rank = r;
		}
	}
	if (m->kind[k] < 0)
		m->kind[k] = i;
}

static void menu_build(menu *m, const bt_action *legal, int n)
{
	m->work = m->log = m->cover = m->sweep = -1;
	m->sweep_rank = 0;
	m->sides = 0;
	for (int k = 0; k < BT_KIND__MAX; k++)
		m->kind[k] = -1;
	for (int i = 0; i < n; i++) {
		if (legal[i].verb == BT_WORK)
			m->work = i;
		else if (legal[i].verb == BT_LOG)
			m->log = i;
		else if (legal[i].verb == BT_SIDE)
			m->sides++;
		else if (legal[i].verb == BT_SPECIAL)
			menu_special(m, legal, i);
	}
}

/* The Scale Back whose plan beats base, the best one; -1 if none. */
static int best_scale_back(crew *c, const bt_action *legal, int n,
                           double base)
{
	int best = -1;

	for (int i = 0; i < n; i++) {
		const bt_card_info *k;
		double v;
		if (legal[i].verb != BT_SPECIAL ||
		    bt_card_get(legal[i].card)->kind != BT_SCALE_BACK)
			continue;
		k = bt_card_get(legal[i].arg[0]);
		v = plan_value(c, c->target - k->target,
		               c->pending - k->leisure, NULL);
		if (v > base) {
			base = v;
			best = i;
		}
	}
	return best;
}

/* Abilities that only help, whenever they are played. */
static int free_value(const menu *m)
{
	static const bt_kind kinds[] = {
		BT_EXTRA_DUTY, BT_HOLODECK, BT_BRAINSTORM
	};

	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (m->kind[kinds[i]] >= 0)
			return m->kind[kinds[i]];
	return -1;
}

/* 1 if side a is a better buy than side b: more leisure per target,
 * then more leisure. */
static int side_better(bt_card a, bt_card b)
{
	const bt_card_info *x = bt_card_get(a), *y = bt_card_get(b);
	int l = x->leisure * y->target, r = y->leisure * x->target;

	return l > r || (l == r && x->leisure > y->leisure);
}

/* All side projects, best buys first; filled once per thread. */
static _Thread_local bt_card side_order[BT_SIDE_COUNT];
static _Thread_local int side_order_ready;

static void side_order_fill(void)
{
	for (int n = 0; n < BT_SIDE_COUNT; n++) {
		bt_card x = (bt_card)(BT_SIDE_FIRST + n);
		int i;
		for (i = n; i > 0 && side_better(x, side_order[i - 1]); i--)
			side_order[i] = side_order[i - 1];
		side_order[i] = x;
	}
	side_order_ready = 1;
}

/*
 * The crew's plan for the round: its side projects, best buys first, in
 * order[], and how many of them to add (the best prefix; each is added by
 * whoever holds it, on their turn).  *value is the plan's worth.
 */
static int plan_sides(crew *c, bt_card *order, double *value)
{
	uint64_t held = 0;
	int best = 0, t = c->target, l = c->pending;

	for (int s = 0; s < c->g->players; s++)
		held |= c->g->hand[s];
	if (!side_order_ready)
		side_order_fill();
	*value = plan_value(c, t, l, NULL);
	for (int i = 0, n = 0; i < BT_SIDE_COUNT; i++) {
		const bt_card_info *k;
		double q, v;
		if (!(held >> side_order[i] & 1))
			continue;
		order[n++] = side_order[i];
		k = bt_card_get(side_order[i]);
		v = plan_value(c, t += k->target, l += k->leisure, &q);
		if (v > *value) {
			*value = v;
			best = n;
		}
		/* Plans are worth most at one size (or a plateau): stop once
		 * a bigger one is worth less (faster, and no worse). */
		if (q < 1e-4 || v < *value)
			break;
	}
	return best;
}

/* The legal action that starts a planned side the seat to move holds;
 * -1 if it holds none. */
static int planned_side(const crew *c, const bt_card *order, int planned,
                        const bt_action *legal, int n)
{
	uint64_t mine = c->g->hand[c->seat - 1];

	for (int p = 0; p < planned; p++) {
		if (!(mine >> order[p] & 1))
			continue;
		for (int i = 0; i < n; i++)
			if (legal[i].verb == BT_SIDE && legal[i].card == order[p])
				return i;
	}
	return -1;
}

/* An ability that does no harm and hands the turn on, so that the seat
 * holding a planned side gets to add it; -1 if there is none. */
static int pass_turn(const menu *m)
{
	static const bt_kind kinds[] = {
		BT_OVERTIME, BT_DEFLECT, BT_HAND_OFF
	};

	if (m->sweep >= 0)
		return m->sweep;
	if (m->cover >= 0)
		return m->cover;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (m->kind[kinds[i]] >= 0)
			return m->kind[kinds[i]];
	return -1;
}

/* Effort >= Target: play on with a planned side project, or log. */
static int choose_done(crew *c, const menu *m, const bt_action *legal,
                       int n)
{
	bt_card order[BT_SIDE_COUNT];
	double value;
	int pass = pass_turn(m), planned, i;

	/* Without a side or a way to pass, there is nothing to plan. */
	if (m->sides || pass >= 0) {
		planned = plan_sides(c, order, &value);
		if (planned) {
			i = planned_side(c, order, planned, legal, n);
			if (i >= 0)
				return i;
			if (pass >= 0)
				return pass;
		}
	}
	return m->log >= 0 ? m->log : 0;
}

/* The known top card of the Shift Deck, or NULL. */
static const bt_card_info *top_card(const crew *c)
{
	return c->nknown > 0 ? bt_card_get(c->known[0]) : NULL;
}

/* The chance that the next card drawn reprimands. */
static double next_risk(crew *c)
{
	int bad = 0, budget = BT_REPRIMAND_OFFICERS - c->officers;

	if (c->nknown)
		return top_card(c)->officers >= budget;
	if (!c->tallied)
		crew_deck(c);
	for (int i = 0; i < c->nofficer; i++)
		bad += c->icons[i] >= budget;
	return c->ne + c->nofficer ? (double)bad / (c->ne + c->nofficer) : 0;
}

/*
 * Effort < Target: lower the risk, commit the planned sides, then draw.
 * Overtime and Deflect are kept for draws that are dangerous, and so are
 * Sensor Sweep and Cover Story for when officers are up: each game brings
 * only a few of them.
 */
static int choose_working(crew *c, const menu *m,
                          const bt_action *legal, int n)
{
	bt_card order[BT_SIDE_COUNT];
	const bt_card_info *top = top_card(c);
	double value;
	int planned, i;

	if (m->cover >= 0 && c->officers >= knob.cover_officers)
		return m->cover;
	if (m->sweep >= 0 && !top && c->officers >= knob.sweep_officers)
		return m->sweep;
	if (m->sides || m->kind[BT_SCALE_BACK] >= 0) {
		planned = plan_sides(c, order, &value);
		if (m->kind[BT_SCALE_BACK] >= 0 &&
		    (i = best_scale_back(c, legal, n, value)) >= 0)
			return i;
		if (planned &&
		    (i = planned_side(c, order, planned, legal, n)) >= 0)
			return i;
	}
	if (m->work < 0)
		return m->kind[BT_OVERTIME] >= 0 ? m->kind[BT_OVERTIME] : 0;
	if (top && !top->officers)
		return m->work;
	if (top && m->kind[BT_DEFLECT] >= 0)
		return m->kind[BT_DEFLECT];
	if (next_risk(c) < knob.hold_risk)
		return m->work;
	if (m->kind[BT_OVERTIME] >= 0)
		return m->kind[BT_OVERTIME];
	if (m->kind[BT_DEFLECT] >= 0)
		return m->kind[BT_DEFLECT];
	return m->work;
}

int policy_greedy(const bt_game *g, const bt_action *legal, int n,
                  uint64_t *rng)
{
	crew c;
	menu m;
	int i;

	(void)rng;
	if (n <= 1)
		return 0;
	menu_build(&m, legal, n);
	if (m.log >= 0 && g->leisure + pending_leisure(g) >= bt_goal(g))
		return m.log;
	if ((i = free_value(&m)) >= 0)
		return i;
	crew_init(&c, g);
	if (g->effort >= g->target)
		return choose_done(&c, &m, legal, n);
	return choose_working(&c, &m, legal, n);
}

int policy_sweep_best(const bt_action *legal, int n, bt_card card)
{
	int best = -1;
	long rank = 0;

	for (int i = 0; i < n; i++) {
		long r;
		if (legal[i].verb != BT_SPECIAL || legal[i].card != card ||
		    bt_card_get(card)->kind != BT_SENSOR_SWEEP)
			continue;
		r = sweep_rank(&legal[i]);
		if (best < 0 || r > rank) {
			best = i;
			rank = r;
		}
	}
	return best;
}

/* ---- by name --------------------------------------------------------------- */

static const struct {
	const char *name;
	policy_fn fn;
} policies[] = {
	{ "random", policy_random },
	{ "greedy", policy_greedy },
};

policy_fn policy_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
		if (!strcmp(name, policies[i].name))
			return policies[i].fn;
	return NULL;
}
