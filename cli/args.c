/*
 * args.c - the small numbers subcommands take (--players, --first,
 * --seat), parsed one way everywhere.
 */
#include "cli.h"

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
