/*
 * play.c - `buffertime play`: a hot-seat game in the terminal.
 *
 * Each turn shows the public table, the hand of the seat to move and the
 * top cards it saw (R10), and numbers its legal actions; the player types
 * a number.  Sensor Sweep is one entry: its orders are listed only once it
 * is chosen, since they show the cards.  At the end (or on 'q' or end of
 * input) the game record is printed, so the game can be replayed.
 *
 * Seats given with --bot are played by a bot (the search by default):
 * it sees only what its seat may see, and what it does is told as other
 * players would see it (not the order of its Sensor Sweep, nor the card
 * it hands off).  Its seed follows from the game's, so the same game
 * and budget in rollouts play the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "cli.h"
#include "game.h"
#include "policy.h"
#include "record.h"
#include "search.h"

enum {
	PLAY_LINE_MAX = 64,     /* longest input line we read */
	PLAY_TEXT_MAX = 160     /* one card or action description */
};

static const char play_usage[] =
	"usage: buffertime play [--players N] [--first K] [--seed HEX]\n"
	"                       [--bot SEAT[=search|greedy|random]]...\n"
	"                       [--think MS | --rollouts N]\n"
	"  --players N  2..6 (default 3)\n"
	"  --first K    the First Player's seat, 1..N (default 1)\n"
	"  --seed HEX   1..64 hex digits (default: random)\n"
	"  --bot SEAT   a bot plays that seat (the search by default);\n"
	"               repeat it for more bots\n"
	"  --rollouts N games the search plays out per move (default 4000)\n"
	"  --think MS   or milliseconds it thinks per move\n";

_Static_assert(BOT_DEFAULT_ROLLOUTS == 4000, "play_usage names the default");

/* Who plays a seat. */
enum { SEAT_HUMAN, SEAT_SEARCH, SEAT_GREEDY, SEAT_RANDOM };

static const char play_help[] =
	"Each turn the seat to move takes exactly one action (R6):\n"
	"  work     draw a Shift card (only while Effort < Target); four or\n"
	"           more Officer icons in the stack reprimand the crew\n"
	"  side     start a Side Project: more Target, more Leisure\n"
	"  special  play an Ability card\n"
	"  log      bank the Duty Assignment and the Side Projects (only\n"
	"           while Effort >= Target); reach the Leisure goal to win\n"
	"Type the number of an action, '?' for this help, 'q' to quit.\n";

typedef struct play_opts {
	int players, first;
	char seed[BT_SEED_TEXT_MAX + 1];
	int who[BT_MAX_PLAYERS];          /* SEAT_* */
	int bot_seat_max;                 /* highest seat given to --bot */
	bot_budget budget;
} play_opts;

typedef struct play {
	bt_game g;
	bt_record rec;
	bt_action legal[BT_MAX_LEGAL];
	int n;
	const play_opts *o;
	bot *bot;
	uint64_t bot_seed;
} play;

/* ---- describing cards and actions ------------------------------------------ */

/* "P07 Trivia Night (Target 2, Leisure 2)": id, name and the values the
 * card shows, from the card table. */
static void card_text(bt_card c, char *buf, size_t cap)
{
	const bt_card_info *k = bt_card_get(c);
	const struct {
		const char *label;
		int value;
	} icons[] = {
		{ "Target", k->target }, { "Leisure", k->leisure },
		{ "Effort", k->effort }, { "Officers", k->officers },
	};
	size_t len;
	int shown = 0;

	snprintf(buf, cap, "%s %s", k->id, k->name);
	for (size_t i = 0; i < sizeof icons / sizeof icons[0]; i++) {
		if (!icons[i].value)
			continue;
		len = strlen(buf);
		snprintf(buf + len, cap - len, "%s%s %d", shown ? ", " : " (",
		         icons[i].label, icons[i].value);
		shown = 1;
	}
	len = strlen(buf);
	if (shown)
		snprintf(buf + len, cap - len, ")");
}

/* What each ability kind does, for the action list. */
static const char *const kind_text[BT_KIND__MAX] = {
	[BT_OVERTIME] = "place it in the Shift Stack",
	[BT_COVER_STORY] = "put this Officer on the bottom of the Shift Deck:",
	[BT_DEFLECT] = "reveal the top Shift card; an Officer goes to the"
	               " bottom, any other card onto the stack",
	[BT_EXTRA_DUTY] = "one more Assignment at the bottom of the deck",
	[BT_HOLODECK] = "place it in the Scoring Row",
	[BT_SENSOR_SWEEP] = "look at the top Shift cards and reorder them",
	[BT_BRAINSTORM] = "draw two Side Projects",
	[BT_SCALE_BACK] = "take this Side Project back into your hand:",
	[BT_HAND_OFF] = "give",
};

/* The kind's text, "" for a kind out of the table. */
static const char *kind_says(bt_kind k)
{
	return (unsigned)k < BT_KIND__MAX && kind_text[k] ? kind_text[k] : "";
}

/* Describes a (for Sensor Sweep, without its order) into buf. */
static void action_text(const bt_action *a, char *buf, size_t cap)
{
	char c1[PLAY_TEXT_MAX], c2[PLAY_TEXT_MAX];
	bt_kind k;

	switch (a->verb) {
	case BT_WORK:
		snprintf(buf, cap, "Get to work: draw the top Shift card");
		return;
	case BT_LOG:
		snprintf(buf, cap, "Log the completed assignment");
		return;
	case BT_SIDE:
		card_text(a->card, c1, sizeof c1);
		snprintf(buf, cap, "Start a side project: %s", c1);
		return;
	default:
		break;
	}
	/* The ability card with its values, then what it does. */
	card_text(a->card, c1, sizeof c1);
	k = bt_card_get(a->card)->kind;
	if (k == BT_HAND_OFF) {
		card_text(a->arg[0], c2, sizeof c2);
		snprintf(buf, cap, "%s: give %s to seat %d", c1, c2,
		         a->arg[1]);
	} else if (k == BT_COVER_STORY || k == BT_SCALE_BACK) {
		card_text(a->arg[0], c2, sizeof c2);
		snprintf(buf, cap, "%s: %s %s", c1, kind_says(k), c2);
	} else {
		snprintf(buf, cap, "%s: %s", c1, kind_says(k));
	}
}

/* 1 if a is a Sensor Sweep: its orders are one entry of the menu. */
static int is_sweep(const bt_action *a)
{
	return a->verb == BT_SPECIAL &&
	       bt_card_get(a->card)->kind == BT_SENSOR_SWEEP;
}

/* ---- the table ------------------------------------------------------------- */

/* Prints label and the cards c[0..n-1], one per line, or "none". */
static void show_cards(const char *label, const bt_card *c, int n)
{
	char t[PLAY_TEXT_MAX];

	printf("%s:", label);
	if (n <= 0)
		fputs(" none", stdout);
	for (int i = 0; i < n; i++) {
		card_text(c[i], t, sizeof t);
		printf("\n    %s", t);
	}
	putchar('\n');
}

static void show_hand(const bt_game *g, int seat)
{
	bt_card c[BT_HANDABLE_COUNT];
	int n = 0;
	char label[40];

	for (bt_card x = 0; x < BT_HANDABLE_COUNT; x++)
		if (g->hand[seat - 1] >> x & 1)
			c[n++] = x;
	snprintf(label, sizeof label, "Your hand (seat %d)", seat);
	show_cards(label, c, n);
}

/* The top cards of the Shift Deck seat saw, and the bottom ones all saw. */
static void show_known(const bt_game *g, int seat)
{
	const bt_pile *d = &g->shift_deck;
	bt_card c[BT_SWEEP_CARDS];
	int k = g->known_top[seat - 1];

	if (k > d->n)
		k = d->n;
	if (k > BT_SWEEP_CARDS)
		k = BT_SWEEP_CARDS;
	for (int i = 0; i < k; i++)
		c[i] = d->c[d->n - 1 - i];
	if (k)
		show_cards("Top of the Shift Deck (you saw them), top first",
		           c, k);
	if (g->known_bottom && g->known_bottom <= d->n)
		show_cards("Bottom of the Shift Deck (everyone saw), bottom"
		           " first", d->c, g->known_bottom);
}

static void show_totals(const bt_game *g, int seat)
{
	int num, den;

	printf("Effort %d / Target %d   Officers %d (reprimand at %d)   "
	       "Leisure %d / goal %d\n", g->effort, g->target, g->officers,
	       BT_REPRIMAND_OFFICERS, g->leisure, bt_goal(g));
	bt_risk(g, seat, &num, &den);
	if (den > 0)
		printf("Chance the next Shift card brings a reprimand: %d/%d "
		       "(%.0f%%)\n", num, den, 100.0 * num / den);
	else
		puts("The Shift Deck is empty.");
}

static void show_decks(const bt_game *g)
{
	printf("Decks: assignment %d, set aside %d, shift %d, side %d, "
	       "ability %d\nHands:", g->assignment_deck.n, g->set_aside.n,
	       g->shift_deck.n, g->side_deck.n, g->ability_deck.n);
	for (int s = 1; s <= g->players; s++)
		printf(" seat %d: %d%s", s, bt_hand_size(g, s),
		       s < g->players ? "," : "\n");
	show_cards("Ability discard", g->ability_discard.c,
	           g->ability_discard.n);
}

/* The public table and what the seat to move may see (R10). */
static void show_table(const bt_game *g)
{
	char t[PLAY_TEXT_MAX];
	int seat = g->turn;

	printf("\n==== Round %d, seat %d to move (First Player: seat %d) "
	       "====\n", g->round, seat, g->first);
	if (g->duty != BT_NO_CARD) {
		card_text(g->duty, t, sizeof t);
		printf("Duty Assignment: %s\n", t);
	}
	show_cards("Side Projects in play", g->side_play, g->side_play_n);
	show_cards("Shift Stack, bottom first", g->stack, g->stack_n);
	show_cards("Scoring Row", g->row, g->row_n);
	show_decks(g);
	show_totals(g, seat);
	show_known(g, seat);
	show_hand(g, seat);
}

/* ---- the menu ------------------------------------------------------------- */

/*
 * Numbers the entries: every legal action but Sensor Sweep orders, which
 * share one entry per card.  entry[i] is the first action of entry i.
 * Returns the count.
 */
static int menu_entries(const play *p, int *entry)
{
	int n = 0;

	for (int i = 0; i < p->n; i++) {
		if (i > 0 && is_sweep(&p->legal[i]) &&
		    is_sweep(&p->legal[i - 1]) &&
		    p->legal[i].card == p->legal[i - 1].card)
			continue;
		entry[n++] = i;
	}
	return n;
}

static void show_menu(const play *p, const int *entry, int n)
{
	char t[PLAY_TEXT_MAX * 3];

	for (int i = 0; i < n; i++) {
		action_text(&p->legal[entry[i]], t, sizeof t);
		printf("  %2d. %s\n", i + 1, t);
	}
}

/*
 * Reads one line into buf (at most PLAY_LINE_MAX bytes are kept; a longer
 * line is drained and refused).  Returns 1 for a line, 0 at end of input,
 * -1 for a line too long.
 */
static int read_line(char *buf, size_t cap)
{
	size_t len;
	int c;

	if (!fgets(buf, (int)cap, stdin))
		return 0;
	len = strlen(buf);
	if (len > 0 && buf[len - 1] == '\n') {
		buf[--len] = '\0';
		if (len > 0 && buf[len - 1] == '\r')
			buf[--len] = '\0';
		return 1;
	}
	if (feof(stdin))
		return 1;
	while ((c = getchar()) != EOF && c != '\n')
		;
	return -1;
}

/* The answer to a prompt: a number 1..n, or one of these. */
enum { ANS_QUIT = -1, ANS_EOF = -2, ANS_HELP = -3, ANS_BAD = -4 };

static int parse_answer(const char *s, int n)
{
	char *end;
	long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!strcmp(s, "q") || !strcmp(s, "quit"))
		return ANS_QUIT;
	if (!strcmp(s, "?") || !strcmp(s, "help") || !strcmp(s, "h"))
		return ANS_HELP;
	if (*s < '0' || *s > '9')
		return ANS_BAD;
	v = strtol(s, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end || v < 1 || v > n)
		return ANS_BAD;
	return (int)v;
}

/* Asks until the answer is 1..n, quit or end of input. */
static int ask(const char *who, int n)
{
	char line[PLAY_LINE_MAX + 2];

	for (;;) {
		int r, a;
		printf("%s, choose 1-%d ('?' help, 'q' quit): ", who, n);
		fflush(stdout);
		r = read_line(line, sizeof line);
		if (r == 0)
			return ANS_EOF;
		if (r < 0) {
			puts("That line is too long.");
			continue;
		}
		a = parse_answer(line, n);
		if (a == ANS_HELP)
			fputs(play_help, stdout);
		else if (a == ANS_BAD)
			printf("Please type a number from 1 to %d.\n", n);
		else
			return a;
	}
}

/* Lets the sweeper order the cards of the Sensor Sweep at legal[first]. */
static int ask_sweep(const play *p, int first, const char *who)
{
	char t[PLAY_TEXT_MAX];
	int n = 0, a;

	puts("You look at the top of the Shift Deck. Choose the new order,"
	     " top first:");
	while (first + n < p->n && is_sweep(&p->legal[first + n]) &&
	       p->legal[first + n].card == p->legal[first].card) {
		const bt_action *s = &p->legal[first + n];
		printf("  %2d.", ++n);
		for (int i = 0; i < s->nargs && i < BT_SWEEP_CARDS; i++) {
			card_text(s->arg[i], t, sizeof t);
			printf(" %s%s", i ? "then " : "", t);
		}
		putchar('\n');
	}
	a = ask(who, n);
	return a > 0 ? first + a - 1 : a;
}

/* ---- the game ---------------------------------------------------------------- */

/* Says what an action did that the table does not show by itself. */
static void show_outcome(const bt_game *before, const bt_game *g)
{
	char t[PLAY_TEXT_MAX];

	if (g->reprimands > before->reprimands)
		puts(">>> The crew is reprimanded! The Duty Assignment is lost,"
		     " the Side Projects go back, the best card leaves the"
		     " Scoring Row.");
	else if (g->stack_n > before->stack_n && g->round == before->round) {
		card_text(g->stack[g->stack_n - 1], t, sizeof t);
		printf(">>> Onto the Shift Stack: %s\n", t);
	}
	if (g->status == BT_PLAYING && g->round != before->round)
		printf(">>> Round %d begins.\n", g->round);
}

/* ---- bots ------------------------------------------------------------------ */

/* The seats the bots play: they tell one another their hands (R10). */
static unsigned bot_seats(const play *p)
{
	unsigned told = 0;

	for (int s = 1; s <= p->g.players; s++)
		if (p->o->who[s - 1] != SEAT_HUMAN)
			told |= 1u << (s - 1);
	return told;
}

/* The index of the action the bot of the seat to move chooses, or -1. */
static int bot_pick(play *p)
{
	uint64_t s = p->bot_seed ^ p->g.actions;
	bt_action a;

	switch (p->o->who[p->g.turn - 1]) {
	case SEAT_GREEDY:
		return policy_greedy(&p->g, p->legal, p->n, &s);
	case SEAT_RANDOM:
		return policy_random(&p->g, p->legal, p->n, &s);
	default:
		if (bot_search(p->bot, &p->g, p->g.turn, bot_seats(p),
		               &p->o->budget, policy_rng_next(&s), &a, NULL))
			return -1;
		return bot_action_index(p->legal, p->n, &a);
	}
}

/* What the others see a bot do: not its sweep's order, nor the card it
 * hands off. */
static void show_bot_move(const bt_game *g, const bt_action *a)
{
	char t[PLAY_TEXT_MAX * 3], c[PLAY_TEXT_MAX];
	bt_kind k = a->verb == BT_SPECIAL ? bt_card_get(a->card)->kind
	                                  : BT_KIND_NONE;

	card_text(a->card < BT_CARD_COUNT ? a->card : 0, c, sizeof c);
	if (k == BT_SENSOR_SWEEP)
		snprintf(t, sizeof t, "%s: looks at the top Shift cards and "
		         "puts them back in the order it chose", c);
	else if (k == BT_HAND_OFF)
		snprintf(t, sizeof t, "%s: gives a card to seat %d", c,
		         a->arg[1]);
	else
		action_text(a, t, sizeof t);
	printf("\n==== Round %d, seat %d (a bot) ====\nEffort %d / Target "
	       "%d   Officers %d   Leisure %d / goal %d\n%s\n", g->round,
	       g->turn, g->effort, g->target, g->officers, g->leisure,
	       bt_goal(g), t);
}

/* Records and applies legal[pick].  Returns 0, or ANS_QUIT on a bug. */
static int take(play *p, int pick)
{
	bt_error err;
	bt_game before;

	if (bt_record_add_action(&p->rec, &p->legal[pick], &err)) {
		fprintf(stderr, "buffertime play: record: %s\n", err.why);
		return ANS_QUIT;
	}
	before = p->g;
	if (bt_apply(&p->g, &p->legal[pick], &err)) {
		/* The engine listed it as legal: this is a bug, not input. */
		fprintf(stderr, "buffertime play: %s\n", err.why);
		return ANS_QUIT;
	}
	show_outcome(&before, &p->g);
	return 0;
}

/* Plays one turn.  Returns 0 to go on, or an ANS_ code to stop. */
static int turn(play *p)
{
	int entry[BT_MAX_LEGAL], n, a, pick;
	char who[16];

	p->n = bt_legal(&p->g, p->legal, BT_MAX_LEGAL);
	if (p->o->who[p->g.turn - 1] != SEAT_HUMAN) {
		if (p->n <= 0 || (pick = bot_pick(p)) < 0 || pick >= p->n) {
			fputs("buffertime play: the bot found no move\n", stderr);
			return ANS_QUIT;
		}
		show_bot_move(&p->g, &p->legal[pick]);
		return take(p, pick);
	}
	show_table(&p->g);
	n = menu_entries(p, entry);
	if (n <= 0) {
		/* STUCK is the engine's to resolve: none should reach here. */
		fputs("buffertime play: no legal action\n", stderr);
		return ANS_QUIT;
	}
	show_menu(p, entry, n);
	snprintf(who, sizeof who, "Seat %d", p->g.turn);
	if ((a = ask(who, n)) < 0)
		return a;
	pick = entry[a - 1];
	if (is_sweep(&p->legal[pick]) && (pick = ask_sweep(p, pick, who)) < 0)
		return pick;
	return take(p, pick);
}

static int emit_stdout(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	return fwrite(s, 1, n, stdout) == n ? 0 : -1;
}

static void show_end(const play *p, int stop)
{
	const bt_game *g = &p->g;

	if (g->status == BT_WON)
		printf("\nThe crew wins! Leisure %d of %d in round %d.\n",
		       g->leisure, bt_goal(g), g->round);
	else if (g->status == BT_LOST)
		printf("\nThe crew loses: no Assignments left. Leisure %d of "
		       "%d.\n", g->leisure, bt_goal(g));
	else
		printf("\nGame %s after %d actions.\n",
		       stop == ANS_EOF ? "left at end of input" : "stopped",
		       g->actions);
	puts("--- game record ---");
	if (bt_record_write(&p->rec, emit_stdout, NULL))
		fputs("buffertime play: cannot write the record\n", stderr);
}

/* ---- arguments ------------------------------------------------------------- */

static int usage_error(const char *why, const char *arg)
{
	fprintf(stderr, "buffertime play: %s%s\n%s", why, arg, play_usage);
	return 2;
}

/* A decimal lo..hi, else -1. */
static int parse_int(const char *s, int lo, int hi)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end || v < lo || v > hi ? -1 : (int)v;
}

/* --bot SEAT[=POLICY]: 0, or 2 after a usage error. */
static int parse_bot(const char *v, play_opts *o)
{
	static const char *const names[] = {
		[SEAT_SEARCH] = "search", [SEAT_GREEDY] = "greedy",
		[SEAT_RANDOM] = "random"
	};
	char seat[4];
	const char *eq = strchr(v, '=');
	size_t len = eq ? (size_t)(eq - v) : strlen(v);
	int s, kind = SEAT_SEARCH;

	if (len >= sizeof seat)
		return usage_error("--bot must be a seat, not ", v);
	memcpy(seat, v, len);
	seat[len] = '\0';
	if ((s = parse_int(seat, 1, BT_MAX_PLAYERS)) < 0)
		return usage_error("--bot must be a seat, not ", v);
	if (eq) {
		for (kind = SEAT_SEARCH; kind <= SEAT_RANDOM; kind++)
			if (!strcmp(eq + 1, names[kind]))
				break;
		if (kind > SEAT_RANDOM)
			return usage_error("--bot: the bots are search, greedy "
			                   "and random, not ", eq + 1);
	}
	o->who[s - 1] = kind;
	if (s > o->bot_seat_max)
		o->bot_seat_max = s;
	return 0;
}

/* --think and --rollouts: 0, or 2 after a usage error. */
static int parse_budget(const char *a, const char *v, play_opts *o)
{
	int n = parse_int(v, 1, !strcmp(a, "--think") ? BOT_MAX_THINK_MS
	                                              : BOT_MAX_ROLLOUTS);

	if (n < 0)
		return usage_error(a, " must be a positive number in range");
	o->budget.rollouts = !strcmp(a, "--think") ? 0 : n;
	o->budget.think_ms = !strcmp(a, "--think") ? n : 0;
	return 0;
}

static int parse_args(int argc, char **argv, play_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int rc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if (strcmp(a, "--players") && strcmp(a, "--first") &&
		    strcmp(a, "--seed") && strcmp(a, "--bot") &&
		    strcmp(a, "--think") && strcmp(a, "--rollouts"))
			return usage_error("unknown option ", a);
		if (i + 1 >= argc)
			return usage_error(a, " needs a value");
		v = argv[++i];
		if (!strcmp(a, "--bot")) {
			if ((rc = parse_bot(v, o)))
				return rc;
		} else if (!strcmp(a, "--think") || !strcmp(a, "--rollouts")) {
			if ((rc = parse_budget(a, v, o)))
				return rc;
		} else if (!strcmp(a, "--players")) {
			if ((o->players = parse_int(v, BT_MIN_PLAYERS,
			                            BT_MAX_PLAYERS)) < 0)
				return usage_error("--players must be 2 to 6, "
				                   "not ", v);
		} else if (!strcmp(a, "--first")) {
			if ((o->first = parse_int(v, 1, BT_MAX_PLAYERS)) < 0)
				return usage_error("--first must be a seat, "
				                   "not ", v);
		} else {
			uint8_t key[BT_KEY_BYTES];
			if (strlen(v) > BT_SEED_TEXT_MAX ||
			    bt_seed_parse(v, strlen(v), key))
				return usage_error("--seed must be 1 to 64 hex "
				                   "digits, not ", v);
			memcpy(o->seed, v, strlen(v) + 1);
		}
	}
	if (o->first > o->players)
		return usage_error("--first is beyond the last seat", "");
	if (o->bot_seat_max > o->players)
		return usage_error("--bot is beyond the last seat", "");
	if (!o->seed[0]) {
		uint8_t key[BT_KEY_BYTES];
		randombytes_buf(key, sizeof key);
		bt_seed_hex(key, o->seed);
	}
	return 0;
}

int cmd_play(int argc, char **argv)
{
	play_opts o = { .players = 3, .first = 1,
	                .budget = { BOT_DEFAULT_ROLLOUTS, 0, 0 } };
	uint8_t key[BT_KEY_BYTES];
	bt_error err;
	play *p;
	int rc = parse_args(argc, argv, &o), stop = 0;

	if (rc == 1) {
		fputs(play_usage, stdout);
		return 0;
	}
	if (rc)
		return rc;
	if (!(p = calloc(1, sizeof *p)) || !(p->bot = bot_new())) {
		fputs("buffertime play: out of memory\n", stderr);
		free(p);
		return 1;
	}
	p->o = &o;
	bt_seed_parse(o.seed, strlen(o.seed), key);
	/* The bots' seed follows from the game's: the same game plays the
	 * same.  The key's last bytes hold the short seeds' digits. */
	for (int i = 0; i < 8; i++)
		p->bot_seed = p->bot_seed << 8 | key[BT_KEY_BYTES - 8 + i];
	p->bot_seed = policy_rng_next(&p->bot_seed);
	if (bt_record_init(&p->rec, o.players, o.first, o.seed,
	                   strlen(o.seed), &err) ||
	    bt_game_new(&p->g, o.players, o.first, key, &err)) {
		fprintf(stderr, "buffertime play: %s\n", err.why);
		bot_free(p->bot);
		free(p);
		return 1;
	}
	printf("Buffer Time: %d players, seat %d starts. Leisure goal %d.\n",
	       o.players, o.first, bt_goal(&p->g));
	while (p->g.status == BT_PLAYING && !stop)
		stop = turn(p);
	show_end(p, stop);
	rc = fflush(stdout) ? 1 : 0;
	bot_free(p->bot);
	free(p);
	return rc;
}
