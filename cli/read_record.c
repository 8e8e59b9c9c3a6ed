/*
 * read_record.c - a game record (RECORD.md) from a file or standard
 * input, replayed, for the commands that read one (replay, review).
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

enum {
	CHUNK = 64 * 1024,
	LINE_KEEP = BT_RECORD_LINE_MAX + 2  /* a line and its '\r', plus one */
};

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

int cli_read_record(const char *cmd, const char *path, bt_replay *r)
{
	const char *name = path;
	bt_error err;
	FILE *f = stdin;
	int rc;

	if (!strcmp(path, "-")) {
		name = "<stdin>";
	} else if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", cmd, path, strerror(errno));
		return 2;
	}
	bt_replay_init(r);
	rc = replay_file(r, f, &err);
	if (rc == -2)
		fprintf(stderr, "%s: %s: %s\n", cmd, name, strerror(errno));
	else if (rc == -1)
		fprintf(stderr, "%s:%d: rule R%d: %s\n", name, r->err_line,
		        r->err.rule, r->err.why);
	if (f != stdin)
		fclose(f);
	return rc == 0 ? 0 : 1;
}
