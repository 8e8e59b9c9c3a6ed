/*
 * conf_args.c - a program's settings from its command line (conf_args.h).
 */
#include <stdio.h>
#include <string.h>

#include "conf_args.h"

static int mistake(const conf_args *a, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s\n%s", a->prog, what, arg, a->usage);
	return 2;
}

/* The flags over c, after the file: 0, -1 after --help, or 2. */
static int read_flags(conf *c, int argc, char **argv, conf_args *a)
{
	char why[CONF_WHY_MAX];

	for (int i = 1; i < argc; i++) {
		size_t f = 0;
		if (strcmp(argv[i], "--help") == 0) {
			fputs(a->usage, stdout);
			return -1;
		}
		if (strcmp(argv[i], "--once") == 0) {
			a->once = 1;
			continue;
		}
		while (f < a->nflags && strcmp(argv[i], a->flags[f].flag) != 0)
			f++;
		if (f == a->nflags && strcmp(argv[i], "--config") != 0)
			return mistake(a, "unknown argument ", argv[i]);
		if (i + 1 >= argc)
			return mistake(a, argv[i], " needs a value");
		i++;
		if (f < a->nflags &&
		    conf_set(c, a->flags[f].key, argv[i], why, sizeof why)) {
			fprintf(stderr, "%s: %s\n", a->prog, why);
			return 2;
		}
	}
	return 0;
}

int conf_from_args(conf *c, int argc, char **argv, conf_args *a)
{
	char why[CONF_WHY_MAX];
	int rc;

	conf_defaults(c);
	a->once = 0;
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--config") == 0 &&
		    conf_load(c, argv[++i], why, sizeof why))
			goto fail;
	if ((rc = read_flags(c, argc, argv, a)) != 0)
		return rc;
	if (conf_finish(c, why, sizeof why) == 0)
		return 0;
fail:
	fprintf(stderr, "%s: %s\n", a->prog, why);
	return 2;
}
