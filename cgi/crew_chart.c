/*
 * crew_chart.c - a crew's games as an SVG bar chart (crew_chart.h).
 *
 * Coordinates are worked out in tenths of the viewBox's units and
 * written as integers, so a locale with a decimal comma cannot break
 * the markup.  Every word is a constant of this file.
 */
#include <stdio.h>
#include <time.h>

#include "crew_chart.h"

/* The viewBox is W x H; 13 units of text are 12 px or more on a 390 px
 * phone (as the review's chart, review_chart.h). */
enum {
	W = 360, H = 214,
	LEGEND_Y = 16,
	PLOT_LEFT = 34, PLOT_RIGHT = 352,
	PLOT_TOP = 44, PLOT_BOTTOM = 160,
	FONT = 13,
	BAR_MAX = 48,                /* a bar's width at most */
	VALUES_MAX = 14,             /* bars that get their figure above */
	WORDS_MAX = 10,              /* bars that get "won"/"lost" below */
	NUMBERS_MAX = 25             /* bars numbered one by one */
};

static const char chart_title[] = "This crew's games: Leisure against the "
                                  "goal";

static int count(int n)
{
	return n < 0 ? 0 : n > STORE_CREW_MAX ? STORE_CREW_MAX : n;
}

/* Writes tenths as "12.5". */
static void out_tenths(out *o, long t)
{
	if (t < 0) {
		out_raws(o, "-");
		t = -t;
	}
	out_rawf(o, "%ld.%ld", t / 10, t % 10);
}

/* The highest value the axis shows: every Leisure and goal, rounded up
 * to a multiple of 10 (at least 10), so its half is a whole 5. */
static int axis_top(const store_crew_game *g, int n)
{
	int top = 10;

	for (int i = 0; i < n; i++) {
		if (g[i].leisure > top)
			top = g[i].leisure;
		if (g[i].goal > top)
			top = g[i].goal;
	}
	return (top + 9) / 10 * 10;
}

/* y, in tenths, of value v (clamped to 0..top). */
static long y_of(int v, int top)
{
	if (v < 0)
		v = 0;
	if (v > top)
		v = top;
	return PLOT_BOTTOM * 10L - (long)(PLOT_BOTTOM - PLOT_TOP) * 10L * v / top;
}

/* The centre, in tenths, of game i's place of n, and a bar's width. */
static long x_mid(int i, int n)
{
	return PLOT_LEFT * 10L + (long)(PLOT_RIGHT - PLOT_LEFT) * 10L *
	       (2 * i + 1) / (2 * n);
}

static long bar_width(int n)
{
	long w = (long)(PLOT_RIGHT - PLOT_LEFT) * 10L * 6 / (10 * n);

	return w > BAR_MAX * 10L ? BAR_MAX * 10L : w < 20 ? 20 : w;
}

/* <text class="cls" x y [anchor]>, left open; x and y in tenths. */
static void text_at(out *o, const char *cls, long x, long y,
                    const char *anchor)
{
	out_rawf(o, "<text class=\"%s\" x=\"", cls);
	out_tenths(o, x);
	out_raws(o, "\" y=\"");
	out_tenths(o, y);
	out_rawf(o, "\"%s%s%s>", anchor ? " text-anchor=\"" : "",
	         anchor ? anchor : "", anchor ? "\"" : "");
}

static void rect(out *o, const char *cls, const char *paint, long x,
                 long y, long w, long h)
{
	out_rawf(o, "<rect class=\"%s\" %s x=\"", cls, paint);
	out_tenths(o, x);
	out_raws(o, "\" y=\"");
	out_tenths(o, y);
	out_raws(o, "\" width=\"");
	out_tenths(o, w);
	out_raws(o, "\" height=\"");
	out_tenths(o, h);
	out_raws(o, "\"/>");
}

static void line(out *o, const char *cls, const char *paint, long x1,
                 long y1, long x2, long y2)
{
	out_rawf(o, "<line class=\"%s\" %s x1=\"", cls, paint);
	out_tenths(o, x1);
	out_raws(o, "\" y1=\"");
	out_tenths(o, y1);
	out_raws(o, "\" x2=\"");
	out_tenths(o, x2);
	out_raws(o, "\" y2=\"");
	out_tenths(o, y2);
	out_raws(o, "\"/>");
}

/* The paint of a bar: filled if won, hollow if lost, light if in play
 * (presentation attributes, so it reads without the style sheet too). */
static const char *bar_class(bt_status st)
{
	return st == BT_WON ? "crew-won" : st == BT_LOST ? "crew-lost"
	                                               : "crew-playing";
}

static const char *bar_paint(bt_status st)
{
	return st == BT_WON ? "fill=\"#1e7a52\""
	       : st == BT_LOST ? "fill=\"#ffffff\" stroke=\"#c0392b\" "
	                         "stroke-width=\"2\""
	       : "fill=\"#d9d5cc\" stroke=\"#5a6274\" stroke-width=\"1\" "
	         "stroke-dasharray=\"3 2\"";
}

static const char *result_word(bt_status st)
{
	return st == BT_WON ? "won" : st == BT_LOST ? "lost" : "in play";
}

/* The mark of the game on the page: a triangle pointing up, its base
 * centred at (x, y) in tenths. */
static void here_mark(out *o, long x, long y)
{
	out_raws(o, "<polygon class=\"crew-here\" fill=\"#1f5fa8\" points=\"");
	out_tenths(o, x);
	out_raws(o, ",");
	out_tenths(o, y - 90);
	out_raws(o, " ");
	out_tenths(o, x - 60);
	out_raws(o, ",");
	out_tenths(o, y);
	out_raws(o, " ");
	out_tenths(o, x + 60);
	out_raws(o, ",");
	out_tenths(o, y);
	out_raws(o, "\"/>");
}

/* The key along the top: a filled box "won", a hollow one "lost", the
 * goal's line, this game's mark. */
static void legend(out *o)
{
	rect(o, "crew-won", bar_paint(BT_WON), 20, (LEGEND_Y - 10) * 10L,
	     100, 100);
	text_at(o, "crew-label", 160, LEGEND_Y * 10L, NULL);
	out_raws(o, "won</text>");
	rect(o, "crew-lost", bar_paint(BT_LOST), 800, (LEGEND_Y - 10) * 10L,
	     100, 100);
	text_at(o, "crew-label", 940, LEGEND_Y * 10L, NULL);
	out_raws(o, "lost</text>");
	line(o, "crew-goal", "stroke=\"#1c2333\" stroke-width=\"3\"", 1560,
	     (LEGEND_Y - 5) * 10L, 1760, (LEGEND_Y - 5) * 10L);
	text_at(o, "crew-label", 1800, LEGEND_Y * 10L, NULL);
	out_raws(o, "the goal</text>");
	here_mark(o, 2640, LEGEND_Y * 10L);
	text_at(o, "crew-label", 2740, LEGEND_Y * 10L, NULL);
	out_raws(o, "this game</text>");
}

/* The Leisure axis: 0, half way and the top, with grid lines. */
static void axis(out *o, int top)
{
	int marks[3] = { 0, top / 2, top };

	for (int k = 0; k < 3; k++) {
		long y = y_of(marks[k], top);
		line(o, k == 0 ? "crew-axis" : "crew-grid", k == 0
		     ? "stroke=\"#5a6274\"" : "stroke=\"#d9d5cc\"",
		     PLOT_LEFT * 10L, y, PLOT_RIGHT * 10L, y);
		text_at(o, "crew-label", (PLOT_LEFT - 4) * 10L, y + FONT * 10L / 3,
		        "end");
		out_rawf(o, "%d</text>", marks[k]);
	}
}

/* Game i's bar, its goal, its figure, its number and result word. */
static void bar(out *o, const store_crew_game *e, int i, int n, int top,
                int current)
{
	long x = x_mid(i, n), w = bar_width(n), y = y_of(e->leisure, top);
	long goal_y = y_of(e->goal, top), h = PLOT_BOTTOM * 10L - y;
	long below = PLOT_BOTTOM * 10L + (FONT + 3) * 10L;
	bt_status st = e->status;

	rect(o, bar_class(st), bar_paint(st), x - w / 2, y, w, h < 10 ? 10 : h);
	line(o, "crew-goal", "stroke=\"#1c2333\" stroke-width=\"3\"",
	     x - w / 2 - 40, goal_y, x + w / 2 + 40, goal_y);
	if (n <= VALUES_MAX) {
		/* just above the bar, or above the goal's line if that is
		 * where the figure would be */
		long vy = y - 50;
		if (vy > goal_y - 30 && vy < goal_y + FONT * 10L)
			vy = goal_y - 50;
		text_at(o, "crew-value", x, vy, "middle");
		out_rawf(o, "%d</text>", e->leisure);
	}
	if (n <= NUMBERS_MAX || i % 5 == 4 || i == 0) {
		text_at(o, "crew-label", x, below, "middle");
		out_rawf(o, "%d</text>", i + 1);
	}
	if (n <= WORDS_MAX) {
		text_at(o, "crew-label", x, below + FONT * 10L + 20, "middle");
		out_rawf(o, "%s</text>", result_word(st));
	}
	if (i == current)
		here_mark(o, x, H * 10L - 40);
}

void crew_chart_words(out *o, const store_crew_game *g, int n)
{
	int won = 0, lost = 0;

	n = count(n);
	for (int i = 0; i < n; i++) {
		won += g[i].status == BT_WON;
		lost += g[i].status == BT_LOST;
	}
	out_rawf(o, "%d game%s: %d won, %d lost", n, n == 1 ? "" : "s", won,
	         lost);
	if (n - won - lost > 0)
		out_rawf(o, ", %d in play", n - won - lost);
	out_raws(o, ". Leisure against the goal:");
	for (int i = 0; i < n; i++)
		out_rawf(o, "%s %d of %d%s", i ? "," : "", g[i].leisure,
		         g[i].goal, g[i].status == BT_PLAYING ? " so far" : "");
	out_raws(o, ".");
}

void crew_chart_svg(out *o, const store_crew_game *g, int n, int current)
{
	int top;

	n = count(n);
	top = axis_top(g, n);
	/* As review_chart.c: the <title> names it, the <desc> says it in
	 * words; no ids, no font-size attribute (Debian 12's HTML checker
	 * knows neither on SVG: the text's size is style.css's). */
	out_rawf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	         "class=\"crew-chart\" viewBox=\"0 0 %d %d\" width=\"100%%\" "
	         "role=\"img\">", W, H);
	out_rawf(o, "<title>%s</title><desc>", chart_title);
	crew_chart_words(o, g, n);
	if (current >= 0 && current < n)
		out_rawf(o, " The game on this page is game %d.", current + 1);
	out_raws(o, "</desc>");
	out_rawf(o, "<rect class=\"crew-bg\" fill=\"#ffffff\" x=\"0\" y=\"0\" "
	         "width=\"%d\" height=\"%d\"/>", W, H);
	legend(o);
	axis(o, top);
	for (int i = 0; i < n; i++)
		bar(o, &g[i], i, n, top, current);
	out_raws(o, "</svg>");
}

const char *crew_date_words(int64_t t, char *buf, size_t cap)
{
	static const char *const months[12] = {
		"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"
	};
	time_t tt = (time_t)t;
	struct tm tm;

	if (cap == 0)
		return buf;
	buf[0] = '\0';
	if (t < 0 || !gmtime_r(&tt, &tm) || tm.tm_mon < 0 || tm.tm_mon > 11 ||
	    tm.tm_year > 9999 - 1900)
		return buf;
	snprintf(buf, cap, "%d %s %d", tm.tm_mday, months[tm.tm_mon],
	         tm.tm_year + 1900);
	return buf;
}
