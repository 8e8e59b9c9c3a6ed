/*
 * crew_chart.h - a crew's games (store_crew) as a small inline SVG chart:
 * one bar per game, oldest first, its Leisure against the goal (a line
 * across the bar's place), won bars filled and lost ones hollow with
 * "won" or "lost" under them, so no result is told by colour alone; the
 * game on the page is marked.  role="img", a <title> and a <desc> that
 * says it all in words.  No JavaScript; it scales to a 390 px phone.
 *
 * Writes into an out buffer (cgi/out.h): failure is sticky, check
 * o->failed at the end.  Every number goes out as an integer; the chart
 * draws no player-given text.
 */
#ifndef BT_CREW_CHART_H
#define BT_CREW_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "out.h"
#include "store.h"

enum {
	CREW_DATE_MAX = 32     /* bytes that hold "30 September 2026" */
};

/* The chart of games g[0..n-1] (n clamped to 0..STORE_CREW_MAX); the
 * game on the page is g[current] (-1: none). */
void crew_chart_svg(out *o, const store_crew_game *g, int n, int current);

/* The chart's words, as its <desc> has them: "3 games: 2 won, 1 lost.
 * Leisure against the goal: 22 of 20, 17 of 20, 25 of 24."  A game in
 * play is counted "in play" and its Leisure "so far". */
void crew_chart_words(out *o, const store_crew_game *g, int n);

/* The unix time t as a date in words, UTC: "3 December 2026" (any
 * locale); "" if t cannot be converted.  Returns buf. */
const char *crew_date_words(int64_t t, char *buf, size_t cap);

#endif
