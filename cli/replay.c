/*
 * replay.c - "buffertime replay [--seat N] FILE|-": replays a game record
 * (RECORD.md, read by read_record.c) and prints the state view as JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "record.h"
#include "view.h"

static const char usage_text[] = "usage: buffertime replay [--seat N] FILE|-";

/* A seat number for --seat: 1..BT_MAX_PLAYERS, else 0. */
static int parse_seat(const char *s)
{
	int seat = cli_small_number(s);

	return seat <= BT_MAX_PLAYERS ? seat : 0;
}

static int usage_error(const char *why, const char *arg)
{
	fprintf(stderr, "buffertime replay: %s%s\n%s\n", why, arg, usage_text);
	return 2;
}

/* Parses the arguments into *seat and *path.  Returns 0, or the exit
 * status to end with. */
static int parse_args(int argc, char **argv, int *seat, const char **path)
{
	*seat = 0;
	*path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			puts(usage_text);
			return -1;
		}
		if (!strcmp(argv[i], "--seat")) {
			if (i + 1 >= argc)
				return usage_error("--seat needs a seat", "");
			if (*seat != 0)
				return usage_error("--seat given twice", "");
			if ((*seat = parse_seat(argv[++i])) == 0)
				return usage_error("not a seat from 1 to 6: ",
				                   argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			return usage_error("unknown option ", argv[i]);
		} else if (*path != NULL) {
			return usage_error("more than one file: ", argv[i]);
		} else {
			*path = argv[i];
		}
	}
	if (*path == NULL)
		return usage_error("no record file (use - for standard input)",
		                   "");
	return 0;
}

/* Prints the view of r's game for seat.  Returns the exit status. */
static int print_view(const bt_replay *r, int seat)
{
	static char json[BT_VIEW_MAX];
	size_t n;

	if (seat > r->game.players) {
		fprintf(stderr, "buffertime replay: --seat %d: the game has"
		        " %d players\n", seat, r->game.players);
		return 2;
	}
	n = bt_view_json(&r->game, seat, json, sizeof json);
	if (n == 0 || n >= sizeof json) {
		fputs("buffertime replay: the state view does not fit\n",
		      stderr);
		return 1;
	}
	if (fwrite(json, 1, n, stdout) != n || fflush(stdout) != 0) {
		fprintf(stderr, "buffertime replay: writing the view: %s\n",
		        strerror(errno));
		return 1;
	}
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	static bt_replay r;
	const char *path;
	int seat, rc;

	if ((rc = parse_args(argc, argv, &seat, &path)) != 0)
		return rc < 0 ? 0 : rc;
	if ((rc = cli_read_record("buffertime replay", path, &r)) != 0)
		return rc;
	return print_view(&r, seat);
}
