/*
 * args.h - the numbers command lines take, parsed one way everywhere:
 * the buffertime tool's subcommands and the benches.
 */
#ifndef BT_CLI_ARGS_H
#define BT_CLI_ARGS_H

#include <stdint.h>

/* A plain decimal 1..99 (no sign, no leading zero), else 0. */
int cli_small_number(const char *s);

/* A decimal number in min..max (digits only) into *out; 0, or -1 if s
 * is not one. */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

#endif
