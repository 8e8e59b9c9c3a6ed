/*
 * rig.c - building games for tests from record text.
 */
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "rig.h"
#include "view.h"

/* Replays text into a fresh replay; the caller frees it.  NULL only if
 * memory ran out (a bt_replay is too big for a test's stack). */
static bt_replay *replay(const char *text, int *rc, bt_error *err)
{
	bt_replay *r = malloc(sizeof *r);

	if (r == NULL)
		return NULL;
	bt_replay_init(r);
	*rc = bt_replay_text(r, text, strlen(text), err);
	return r;
}

int rig_replay(const char *text, bt_game *g, bt_error *err, int *line)
{
	bt_error e;
	int rc;
	bt_replay *r = replay(text, &rc, err != NULL ? err : &e);

	if (r == NULL)
		return -1;
	if (g != NULL)
		*g = r->game;
	if (line != NULL)
		*line = rc ? r->err_line : 0;
	free(r);
	return rc;
}

size_t rig_write(const char *text, char *buf, size_t cap)
{
	bt_error e;
	int rc;
	size_t n = (size_t)-1;
	bt_replay *r = replay(text, &rc, &e);

	if (r != NULL && rc == 0)
		n = bt_record_write_buf(&r->rec, buf, cap);
	else if (cap > 0)
		buf[0] = '\0';
	free(r);
	return n;
}

size_t rig_view(const char *text, int seat, char *buf, size_t cap)
{
	bt_error e;
	int rc;
	size_t n = 0;
	bt_replay *r = replay(text, &rc, &e);

	if (r != NULL && rc == 0)
		n = bt_view_json(&r->game, seat, buf, cap);
	else if (cap > 0)
		buf[0] = '\0';
	free(r);
	return n;
}
