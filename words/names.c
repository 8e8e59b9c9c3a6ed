/*
 * names.c - which of its crew's games a game is, in words (names.h).
 */
#include <stdio.h>

#include "names.h"

int names_game_noun(store *st, const store_game *g, const char *rematch_of,
                    char *buf, size_t cap)
{
	store_error err;
	int before = 0, rc = 0, n;

	if (!g || cap == 0)
		return -1;
	if (st && (rematch_of ? store_crew_place(st, rematch_of, &before, &err)
	                      : store_crew_place(st, g->id, &before, &err)))
		rc = -1;        /* named as a first game: never a wrong number */
	if (rematch_of && rc == 0)
		before++;       /* the new game, not linked to yet */
	if (rc)
		before = 0;
	if (before <= 1)
		n = snprintf(buf, cap, "%s%s", g->practice ? "practice " : "",
		             before ? "rematch" : "game");
	else
		n = snprintf(buf, cap, "%srematch %d",
		             g->practice ? "practice " : "", before);
	return n < 0 || (size_t)n >= cap ? -1 : rc;
}
