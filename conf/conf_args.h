/*
 * conf_args.h - a program's settings from its command line: the file of
 * --config first, then each flag of a table over it (the worker's and
 * buffertime-notify's flags are settings of the same file).
 */
#ifndef BT_CONF_ARGS_H
#define BT_CONF_ARGS_H

#include <stddef.h>

#include "conf.h"

/* A flag and the setting (a key of the file) it sets. */
typedef struct conf_flag {
	const char *flag;
	const char *key;
} conf_flag;

/* What the command line asks besides settings. */
typedef struct conf_args {
	const char *prog;        /* for its messages: "buffertime worker" */
	const char *usage;       /* printed by --help, and after a mistake */
	const conf_flag *flags;
	size_t nflags;
	int once;                /* out: --once was given */
} conf_args;

/* Fills c: defaults, the --config file, then the flags of argv (argc
 * words, argv[0] the program).  Returns 0; -1 after --help (the usage on
 * standard output); 2 after a mistake, said on standard error. */
int conf_from_args(conf *c, int argc, char **argv, conf_args *a);

#endif
