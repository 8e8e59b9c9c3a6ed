/*
 * main.c - the buffertime tool: dispatches to one subcommand.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "cli.h"

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *usage;
} commands[] = {
	{ "replay", cmd_replay, "replay [--seat N] FILE|-" },
	{ "review", cmd_review, "review [--json] [--rollouts N] [--seed S] "
	  "FILE|-" },
	{ "new", cmd_new, "new --players N [--first K] [--seed HEX]" },
	{ "sim", cmd_sim, "sim --games N --players N|all --policy random|greedy"
	                  " [--seed S] [--jobs J]" },
	{ "play", cmd_play, "play [--players N] [--first K] [--seed HEX]" },
	{ "admin", cmd_admin, "admin [--db FILE] create|list|show|export|import"
	                      "|revoke|backup|check|mail ..." },
	{ "worker", cmd_worker, "worker [--config FILE] [--db FILE] [--once]"
	                        " ... (worker --help)" },
	{ "mailer", cmd_worker, "mailer ...: the worker by its old name" },
	{ "inbound", cmd_inbound, "inbound [--config FILE] [--db FILE] <EMAIL"
	                          ": a reply, as an MTA delivers it" },
};

static int usage(FILE *to)
{
	fputs("usage: buffertime COMMAND [ARGS]\n", to);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(to, "  buffertime %s\n", commands[i].usage);
	return to == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
	if (sodium_init() < 0) {
		fputs("buffertime: libsodium failed to initialise\n", stderr);
		return 1;
	}
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))
		return usage(stdout);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "buffertime: unknown command '%s'\n", argv[1]);
	return usage(stderr);
}
