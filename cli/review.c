/*
 * review.c - "buffertime review [--json] [--rollouts N] [--seed S]
 * FILE|-": where a recorded game was won or lost.  The crew's chance of
 * winning before and after every move, as the search estimates it from
 * what the mover could know (bots/review.h), and the three moves that
 * changed it most, in the table's words; or all of it as JSON for tools.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "describe.h"
#include "menu.h"
#include "record.h"
#include "review.h"

static const char usage_text[] =
	"usage: buffertime review [--json] [--rollouts N] [--seed S] FILE|-\n"
	"  --rollouts N  games played out per move (default 2000, at which\n"
	"                the chances are calibrated; more is steadier and\n"
	"                slower)\n"
	"  --seed S      decimal 64-bit seed of the search (default 1): the\n"
	"                same record, rollouts and seed give the same review\n"
	"  --json        the figures of every move as JSON";

_Static_assert(REVIEW_DEFAULT_ROLLOUTS == 2000, "the usage names the default");

typedef struct opts {
	int json, rollouts;
	uint64_t seed;
	const char *path;
} opts;

static int usage_error(const char *why, const char *arg)
{
	fprintf(stderr, "buffertime review: %s%s\n%s\n", why, arg, usage_text);
	return 2;
}

static int parse_args(int argc, char **argv, opts *o)
{
	o->json = 0;
	o->rollouts = REVIEW_DEFAULT_ROLLOUTS;
	o->seed = 1;
	o->path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help")) {
			puts(usage_text);
			return -1;
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (!strcmp(a, "--rollouts")) {
			uint64_t v;
			if (i + 1 >= argc || cli_parse_u64(argv[++i], 1,
			                                   BOT_MAX_ROLLOUTS, &v))
				return usage_error("--rollouts needs a number from"
				                   " 1 to 10000000", "");
			o->rollouts = (int)v;
		} else if (!strcmp(a, "--seed")) {
			if (i + 1 >= argc || cli_parse_u64(argv[++i], 0, UINT64_MAX,
			                                   &o->seed))
				return usage_error("--seed needs a decimal 64-bit"
				                   " number", "");
		} else if (a[0] == '-' && a[1] != '\0') {
			return usage_error("unknown option ", a);
		} else if (o->path) {
			return usage_error("more than one file: ", a);
		} else {
			o->path = a;
		}
	}
	if (!o->path)
		return usage_error("no record file (use - for standard input)",
		                   "");
	return 0;
}

static int percent(double chance)
{
	return (int)(chance * 100.0 + 0.5);
}

/* The seat names of the record, for the words of moves. */
static void names_of(const bt_record *rec, store_game *names)
{
	memset(names, 0, sizeof *names);
	names->players = rec->players;
	for (int s = 0; s < rec->players; s++)
		memcpy(names->seats[s].name, rec->name[s],
		       sizeof names->seats[s].name);
}

/* The game before move k of r (0: as the header sets it up). */
static int state_before(const bt_record *rec, int k, bt_game *g)
{
	bt_error err;
	int moves = 0;

	if (review_set_up(rec, g, &err))
		return -1;
	for (int i = 0; i < rec->nitems && moves < k; i++) {
		const bt_item *it = &rec->items[i];
		if (it->type == BT_ITEM_STACK) {
			const bt_stack_line *s = &rec->stacks[it->stack];
			if (bt_game_stack(g, (bt_deck)s->deck, s->c, s->n, &err))
				return -1;
		} else if (bt_apply(g, &it->action, &err)) {
			return -1;
		} else {
			moves++;
		}
	}
	return 0;
}

static void print_turning_point(const bt_record *rec, const review *rv,
                                int k, const store_game *names)
{
	static bt_game before, after;
	const review_move *m = &rv->move[k];
	char what[DESCRIBE_MAX], best[128];

	if (state_before(rec, k, &before) || state_before(rec, k + 1, &after))
		return;
	describe_action(&before, &after, &m->action, names, 0, what,
	                sizeof what);
	size_t n = strlen(what);
	if (n > 0 && what[n - 1] == '.')
		what[n - 1] = '\0';
	printf("- Round %d, move %d: %s.\n  Chance of winning %d%% before,"
	       " %d%% after.", m->round, k + 1, what, percent(m->before),
	       percent(m->after));
	if (m->best_is_played)
		printf(" It was the bot's pick too.\n");
	else
		printf(" The bot would have chosen: %s (%d%%; this move %d%%).\n",
		       words_action_name((bt_verb)m->best.verb, m->best.card,
		                         best, sizeof best),
		       percent(m->before), percent(m->played));
}

static void print_text(const bt_record *rec, const review *rv,
                       const opts *o)
{
	store_game names;
	char act[BT_ACTION_TEXT_MAX], best[BT_ACTION_TEXT_MAX];

	names_of(rec, &names);
	printf("A %d-player game, %s: Leisure %d, goal %d.\n", rv->players,
	       rv->won == 1 ? "won" : rv->won == 0 ? "lost" : "not over",
	       rv->leisure, rv->goal);
	printf("The crew's chance of winning, as the search saw it from what"
	       " each mover knew\n(%d games played out a move, seed %" PRIu64
	       "):\n\n", o->rollouts, o->seed);
	printf("move round action                     before played  after"
	       "  best\n");
	for (int k = 0; k < rv->nmoves; k++) {
		const review_move *m = &rv->move[k];
		bt_action_format(&m->action, act, sizeof act);
		review_best_text(m, best, sizeof best);
		printf("%4d %5d %-26s %5d%% %5d%% %5d%%  %s\n", k + 1, m->round,
		       act, percent(m->before), percent(m->played),
		       percent(m->after), m->best_is_played ? "=" : best);
	}
	printf("\nThe moves that changed the chance most:\n");
	for (int t = 0; t < rv->nturning; t++)
		print_turning_point(rec, rv, rv->turning[t], &names);
}

static void print_json(const review *rv, const opts *o)
{
	char act[BT_ACTION_TEXT_MAX], best[BT_ACTION_TEXT_MAX];

	printf("{\"players\":%d,\"result\":\"%s\",\"leisure\":%d,\"goal\":%d,"
	       "\"rollouts\":%d,\"seed\":\"%" PRIu64 "\",\"moves\":[",
	       rv->players, rv->won == 1 ? "won" : rv->won == 0 ? "lost"
	       : "playing", rv->leisure, rv->goal, o->rollouts, o->seed);
	for (int k = 0; k < rv->nmoves; k++) {
		const review_move *m = &rv->move[k];
		bt_action_format(&m->action, act, sizeof act);
		review_best_text(m, best, sizeof best);
		printf("%s{\"move\":%d,\"round\":%d,\"action\":\"%s\","
		       "\"before\":%.4f,\"played\":%.4f,\"after\":%.4f,"
		       "\"best\":\"%s\",\"options\":%d,\"leisure_before\":%d,"
		       "\"leisure_after\":%d}", k ? "," : "", k + 1, m->round,
		       act, m->before, m->played, m->after, best, m->options,
		       m->leisure_before, m->leisure_after);
	}
	printf("],\"turning_points\":[");
	for (int t = 0; t < rv->nturning; t++)
		printf("%s%d", t ? "," : "", rv->turning[t] + 1);
	printf("]}\n");
}

int cmd_review(int argc, char **argv)
{
	static bt_replay r;
	bt_error err;
	review *rv;
	bot *b;
	opts o;
	int rc;

	if ((rc = parse_args(argc, argv, &o)) != 0)
		return rc < 0 ? 0 : rc;
	if ((rc = cli_read_record("buffertime review", o.path, &r)) != 0)
		return rc;
	rv = malloc(sizeof *rv);
	b = bot_new();
	if (!rv || !b) {
		fputs("buffertime review: out of memory\n", stderr);
		free(rv);
		bot_free(b);
		return 1;
	}
	rc = review_record(b, &r.rec, o.rollouts, o.seed, rv, &err);
	if (rc)
		fprintf(stderr, "buffertime review: %s\n", err.why);
	else if (o.json)
		print_json(rv, &o);
	else
		print_text(&r.rec, rv, &o);
	free(rv);
	bot_free(b);
	if (!rc && (fflush(stdout) != 0 || ferror(stdout))) {
		fprintf(stderr, "buffertime review: writing: %s\n",
		        strerror(errno));
		return 1;
	}
	return rc ? 1 : 0;
}
