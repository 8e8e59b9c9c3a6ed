/*
 * args.c - the numbers subcommands take (--players, --first, --seat;
 * --games, --seed, --rollouts), parsed one way everywhere (args.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "args.h"

int cli_small_number(const char *s)
{
	if (s[0] < '1' || s[0] > '9')
		return 0;
	if (s[1] == '\0')
		return s[0] - '0';
	if (s[1] < '0' || s[1] > '9' || s[2] != '\0')
		return 0;
	return (s[0] - '0') * 10 + (s[1] - '0');
}

int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}
