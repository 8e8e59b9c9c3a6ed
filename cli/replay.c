/*
 * replay.c - "buffertime replay [--seat N] FILE|-": replays a game record
 * (RECORD.md) and prints the state view as JSON.
 *
 * The input is untrusted: it is read in fixed chunks and only the first
 * BT_RECORD_LINE_MAX + 2 bytes of a line are kept, which is enough for the
 * replay to refuse a longer one; NUL bytes reach the parser, which refuses
 * them too.  Memory use does not depend on the input.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "record.h"
#include "view.h"

enum {
	CHUNK = 64 * 1024,
	LINE_KEEP = BT_RECORD_LINE_MAX + 2  /* a line and its '\r', plus one */
};

static const char usage_text[] = "usage: buffertime replay [--seat N] FILE|-";

/* A line assembled across chunks: its first LINE_KEEP bytes. */
typedef struct linebuf {
	char s[LINE_KEEP];
	size_t n;
	int open;               /* bytes of an unfinished line were seen */
} linebuf;

static void keep(linebuf *l, const char *s, size_t n)
{
	size_t room = sizeof l->s - l->n;

	if (n > room)
		n = room;
	memcpy(l->s + l->n, s, n);
	l->n += n;
	l->open = 1;
}

/* Feeds one chunk's lines to r.  Returns 0, or -1 on a replay error. */
static int feed_chunk(bt_replay *r, linebuf *l, const char *c, size_t n,
                      bt_error *err)
{
	size_t i = 0;

	while (i < n) {
		const char *nl = memchr(c + i, '\n', n - i);
		size_t end = nl != NULL ? (size_t)(nl - c) : n;
		if (nl != NULL && !l->open) {
			/* The common case: a whole line inside the chunk. */
			if (bt_replay_line(r, c + i, end - i, err))
				return -1;
		} else {
			keep(l, c + i, end - i);
			/* A line that outgrew the buffer is an error already:
			 * say so now rather than read the rest of it. */
			if (nl != NULL || l->n == sizeof l->s) {
				if (bt_replay_line(r, l->s, l->n, err))
					return -1;
				l->n = 0;
				l->open = 0;
			}
		}
		i = end + 1;
	}
	return 0;
}

/* Replays all of f.  Returns 0, -1 on a replay error, -2 on a read
 * error (errno set). */
static int replay_file(bt_replay *r, FILE *f, bt_error *err)
{
	static char chunk[CHUNK];
	static linebuf l;
	size_t got;

	l.n = 0;
	l.open = 0;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (feed_chunk(r, &l, chunk, got, err))
			return -1;
	if (ferror(f))
		return -2;
	if (l.open && bt_replay_line(r, l.s, l.n, err))
		return -1;
	return bt_replay_finish(r, err);
}

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
	const char *path, *name;
	bt_error err;
	FILE *f;
	int seat, rc;

	if ((rc = parse_args(argc, argv, &seat, &path)) != 0)
		return rc < 0 ? 0 : rc;
	if (!strcmp(path, "-")) {
		f = stdin;
		name = "<stdin>";
	} else if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "buffertime replay: %s: %s\n", path,
		        strerror(errno));
		return 2;
	} else {
		name = path;
	}
	bt_replay_init(&r);
	rc = replay_file(&r, f, &err);
	if (rc == -2)
		fprintf(stderr, "buffertime replay: %s: %s\n", name,
		        strerror(errno));
	else if (rc == -1)
		fprintf(stderr, "%s:%d: rule R%d: %s\n", name, r.err_line,
		        r.err.rule, r.err.why);
	if (f != stdin)
		fclose(f);
	return rc == 0 ? print_view(&r, seat) : 1;
}
