/*
 * marks.c - a result's marks: hints on, bot moves (marks.h).
 */
#include <stdio.h>
#include <string.h>

#include "marks.h"

/* 1 if a bot made any of g's lines, or plays a seat. */
static int bot_moved(web *w, const store_game *g)
{
	static char by[BT_RECORD_MAX_ITEMS];
	store_error err;
	int cap = g->seq < BT_RECORD_MAX_ITEMS ? g->seq : BT_RECORD_MAX_ITEMS;

	for (int s = 0; s < g->players && s < BT_MAX_PLAYERS; s++)
		if (g->seats[s].bot[0])
			return 1;
	if (cap <= 0 || store_made_by(w->st, g->id, by, cap, &err) != STORE_OK)
		return 0;
	for (int i = 0; i < cap; i++)
		if (by[i])
			return 1;
	return 0;
}

const char *marks_words(int practice, int bots, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%s%s", practice ? "practice table (hints on)"
	         : "", practice && bots ? ", " : "",
	         bots ? "with bot moves" : "");
	return buf;
}

const char *game_marks(web *w, const store_game *g, char *buf, size_t cap)
{
	return marks_words(g->practice, bot_moved(w, g), buf, cap);
}

const char *game_marks_sentence(web *w, const store_game *g, char *buf,
                                size_t cap)
{
	int bots = bot_moved(w, g);

	if (!g->practice && !bots)
		snprintf(buf, cap, "%s", "");
	else
		snprintf(buf, cap, "This result was played %s%s%s.",
		         g->practice ? "on a practice table (hints on)" : "",
		         g->practice && bots ? ", " : "",
		         bots ? "with moves made by a bot" : "");
	return buf;
}
