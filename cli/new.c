/*
 * new.c - "buffertime new --players N [--first K] [--seed HEX]": prints
 * the header of a new game record (RECORD.md).  Without --seed the seed
 * is 256 bits from the system's random source; without --first the First
 * Player is a seat drawn at random (R1).
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "cli.h"
#include "record.h"

static const char usage_text[] =
	"usage: buffertime new --players N [--first K] [--seed HEX]";

static int usage_error(const char *why, const char *arg)
{
	fprintf(stderr, "buffertime new: %s%s\n%s\n", why, arg, usage_text);
	return 2;
}

typedef struct opts {
	int players, first;
	const char *seed;
} opts;

/* Reads one "--name VALUE" at argv[*i].  Returns 0 or an exit status. */
static int parse_opt(int argc, char **argv, int *i, opts *o)
{
	const char *name = argv[*i], *val;

	if (*i + 1 >= argc)
		return usage_error(name, " needs a value");
	val = argv[++*i];
	if (!strcmp(name, "--players")) {
		if (o->players != 0)
			return usage_error("--players given twice", "");
		o->players = cli_small_number(val);
		if (o->players < BT_MIN_PLAYERS || o->players > BT_MAX_PLAYERS)
			return usage_error("--players must be 2 to 6, not ",
			                   val);
	} else if (!strcmp(name, "--first")) {
		if (o->first != 0)
			return usage_error("--first given twice", "");
		if ((o->first = cli_small_number(val)) == 0)
			return usage_error("--first must be a seat number, not ",
			                   val);
	} else if (!strcmp(name, "--seed")) {
		uint8_t key[BT_KEY_BYTES];
		if (o->seed != NULL)
			return usage_error("--seed given twice", "");
		if (bt_seed_parse(val, strlen(val), key))
			return usage_error("--seed must be 1 to 64 hex digits,"
			                   " not ", val);
		o->seed = val;
	} else {
		return usage_error("unknown option ", name);
	}
	return 0;
}

int cmd_new(int argc, char **argv)
{
	opts o = { 0, 0, NULL };
	char seed[BT_SEED_TEXT_MAX + 1];
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			puts(usage_text);
			return 0;
		}
		if ((rc = parse_opt(argc, argv, &i, &o)) != 0)
			return rc;
	}
	if (o.players == 0)
		return usage_error("--players is required", "");
	if (o.first > o.players) {
		fprintf(stderr, "buffertime new: --first %d: the game has %d"
		        " seats\n%s\n", o.first, o.players, usage_text);
		return 2;
	}
	if (o.first == 0)
		o.first = (int)randombytes_uniform((uint32_t)o.players) + 1;
	if (o.seed == NULL) {
		uint8_t key[BT_KEY_BYTES];
		randombytes_buf(key, sizeof key);
		bt_seed_hex(key, seed);
		o.seed = seed;
	}
	printf("buffertime %d\nplayers %d\nfirst %d\nseed %s\n",
	       BT_RECORD_VERSION, o.players, o.first, o.seed);
	if (fflush(stdout) != 0) {
		perror("buffertime new");
		return 1;
	}
	return 0;
}
