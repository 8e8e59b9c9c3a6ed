/*
 * review_chart.c - the post-game review as an SVG chart and a table.
 *
 * The chart's point k is the crew's chance before move k + 1: point 0 is
 * move[0].before, point k (k >= 1) is move[k - 1].after.  Numbers go out
 * through out_rawf as integers only (coordinates in tenths), so a locale
 * with a decimal comma can never break the markup; every word is a
 * constant, and the seat names (player-given) only ever go through
 * out_html.
 */
#include <stddef.h>

#include "review_chart.h"

/* The chart's user units: the viewBox is W x H.  A 390 px phone shows it
 * about 340 px wide inside the page's padding, so 13 units of text are
 * still 12 px there. */
enum {
	W = 360, H = 222,
	PLOT_LEFT = 46, PLOT_RIGHT = 352,   /* room for "100%", "Round" */
	PLOT_TOP = 24, PLOT_BOTTOM = 180,   /* round labels above, moves below */
	FONT = REVIEW_CHART_TEXT_UNITS,
	MOVE_LABELS_MAX = 6,                /* labels along the moves axis */
	TURN_RADIUS = 6
};

/* A rough width of a label of n characters in the chart's digits and
 * words, for keeping labels from overlapping. */
#define LABEL_WIDTH(n) ((double)(n) * 7.5)

static const char chart_title[] = "The crew's chance of winning, move by move";

/* p in 0..1; NaN and values outside become the nearest end. */
static double clamp01(double p)
{
	if (!(p >= 0.0))
		return 0.0;
	return p > 1.0 ? 1.0 : p;
}

/* p as a whole percent, 0..100. */
static int percent(double p)
{
	return (int)(clamp01(p) * 100.0 + 0.5);
}

/* The moves the review holds, bounded by the array. */
static int move_count(const review *r)
{
	if (r->nmoves < 0)
		return 0;
	return r->nmoves > REVIEW_MAX_MOVES ? REVIEW_MAX_MOVES : r->nmoves;
}

/* The chance at point k (0..n): before the first move, then after each. */
static double point_chance(const review *r, int k)
{
	return clamp01(k == 0 ? r->move[0].before : r->move[k - 1].after);
}

/* x of point k of n (n = 0 draws the lone point at the left). */
static double x_of(int k, int n)
{
	if (n <= 0)
		return PLOT_LEFT;
	return PLOT_LEFT + (double)(PLOT_RIGHT - PLOT_LEFT) * k / n;
}

/* y of chance p (clamped): 100% at the top. */
static double y_of(double p)
{
	return PLOT_BOTTOM - (double)(PLOT_BOTTOM - PLOT_TOP) * clamp01(p);
}

/* Writes v (0 <= v < 10^6) with one decimal, whatever the locale. */
static void out_num(out *o, double v)
{
	long tenths = (long)(v * 10.0 + (v < 0 ? -0.5 : 0.5));

	if (tenths < 0) {
		out_raws(o, "-");
		tenths = -tenths;
	}
	out_rawf(o, "%ld.%ld", tenths / 10, tenths % 10);
}

/* <text class="cls" x=".." y=".." [text-anchor]>, content left open. */
static void text_open(out *o, const char *cls, double x, double y,
                      const char *anchor)
{
	out_rawf(o, "<text class=\"%s\" x=\"", cls);
	out_num(o, x);
	out_raws(o, "\" y=\"");
	out_num(o, y);
	out_raws(o, "\"");
	if (anchor)
		out_rawf(o, " text-anchor=\"%s\"", anchor);
	out_raws(o, ">");
}

/* <line class="cls" .../> from (x1, y1) to (x2, y2). */
static void line(out *o, const char *cls, double x1, double y1, double x2,
                 double y2)
{
	out_rawf(o, "<line class=\"%s\" x1=\"", cls);
	out_num(o, x1);
	out_raws(o, "\" y1=\"");
	out_num(o, y1);
	out_raws(o, "\" x2=\"");
	out_num(o, x2);
	out_raws(o, "\" y2=\"");
	out_num(o, y2);
	out_raws(o, "\"/>");
}

/* "before the first move" or "after move k". */
static void out_where(out *o, int k)
{
	if (k == 0)
		out_raws(o, "before the first move");
	else
		out_rawf(o, "after move %d", k);
}

/* The first points (0..n) of the highest and of the lowest chance. */
static void extremes(const review *r, int n, int *hi, int *lo)
{
	int k;

	*hi = *lo = 0;
	for (k = 1; k <= n; k++) {
		if (percent(point_chance(r, k)) > percent(point_chance(r, *hi)))
			*hi = k;
		if (percent(point_chance(r, k)) < percent(point_chance(r, *lo)))
			*lo = k;
	}
}

/* The turning points that name a move of the review, at most three. */
static int turning_count(const review *r)
{
	if (r->nturning < 0)
		return 0;
	return r->nturning > REVIEW_TURNING_POINTS ? REVIEW_TURNING_POINTS
	                                           : r->nturning;
}

static int turning_valid(const review *r, int i, int n)
{
	return r->turning[i] >= 0 && r->turning[i] < n;
}

/* "Marked on the chart ...: 1, move 5 (60% to 30%); 2, ..." */
static void desc_turning(out *o, const review *r, int n)
{
	int i, nt = turning_count(r), shown = 0, k;

	for (i = 0; i < nt; i++)
		shown += turning_valid(r, i, n);
	if (shown == 0)
		return;
	out_raws(o, shown == 1
	         ? " Marked on the chart is the move that changed it most:"
	         : " Marked on the chart are the moves that changed it most:");
	for (i = 0, shown = 0; i < nt; i++) {
		if (!turning_valid(r, i, n))
			continue;
		k = r->turning[i];
		out_rawf(o, "%s %d, move %d (%d%% to %d%%)", shown ? ";" : "",
		         i + 1, k + 1, percent(r->move[k].before),
		         percent(r->move[k].after));
		shown++;
	}
	out_raws(o, ".");
}

/* The <desc>: what the chart shows, in words. */
static void chart_desc(out *o, const review *r, int n)
{
	int hi, lo;

	out_raws(o, "<desc>");
	if (n == 0) {
		out_raws(o, "No moves were made, so there is nothing to chart.</desc>");
		return;
	}
	out_rawf(o, "The crew's chance of winning went from %d%% before the "
	         "first move to %d%% ", percent(point_chance(r, 0)),
	         percent(point_chance(r, n)));
	if (r->won == 1)
		out_raws(o, "at the end (won).");
	else if (r->won == 0)
		out_raws(o, "at the end (lost).");
	else
		out_rawf(o, "after move %d (the game is not over).", n);
	extremes(r, n, &hi, &lo);
	out_rawf(o, " It was highest, %d%%, ", percent(point_chance(r, hi)));
	out_where(o, hi);
	out_rawf(o, ", and lowest, %d%%, ", percent(point_chance(r, lo)));
	out_where(o, lo);
	out_raws(o, ".");
	desc_turning(o, r, n);
	out_raws(o, "</desc>");
}

/* The chance axis: grid lines and labels at 0, 25, 50, 75, 100%. */
static void chart_grid(out *o)
{
	int p;
	double y;

	for (p = 0; p <= 100; p += 25) {
		y = y_of(p / 100.0);
		line(o, p == 0 ? "chart-axis" : "chart-grid", PLOT_LEFT, y,
		     PLOT_RIGHT, y);
		text_open(o, "chart-label", PLOT_LEFT - 4, y + FONT / 3.0, "end");
		out_rawf(o, "%d%%</text>", p);
	}
}

/* A step of 1, 2, 5, 10, 20, 50 ... moves that needs at most
 * MOVE_LABELS_MAX + 1 labels (0 included) for n moves. */
static int move_step(int n)
{
	static const int steps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500,
	                             1000, 2000, 5000 };
	size_t i;

	for (i = 0; i + 1 < sizeof steps / sizeof steps[0]; i++)
		if (n / steps[i] <= MOVE_LABELS_MAX)
			break;
	return steps[i];
}

/* The moves axis: a tick and a label every few moves, and its name. */
static void chart_moves_axis(out *o, int n)
{
	int k, step = move_step(n);
	double x;

	for (k = 0; k <= n; k += step) {
		x = x_of(k, n);
		line(o, "chart-axis", x, PLOT_BOTTOM, x, PLOT_BOTTOM + 4);
		text_open(o, "chart-label", x, PLOT_BOTTOM + 4 + FONT, "middle");
		out_rawf(o, "%d</text>", k);
	}
	text_open(o, "chart-label", (PLOT_LEFT + PLOT_RIGHT) / 2.0, H - 4,
	          "middle");
	out_raws(o, "Move</text>");
}

/* The number of the round that starts at x, dropped if it would overlap
 * the one before (whose right end is *free_x), so a long game stays
 * readable. */
static void round_label(out *o, int round, double x, double *free_x)
{
	double w = LABEL_WIDTH(round >= 100 ? 3 : round >= 10 ? 2 : 1);

	x += 3;
	if (x + w > W - 2)
		x = W - 2 - w;
	if (x < *free_x)
		return;
	text_open(o, "chart-round-label", x, PLOT_TOP - 8, NULL);
	out_rawf(o, "%d</text>", round);
	*free_x = x + w + 4;
}

/* The rounds: every other round a light band, a tick where a new one
 * starts, and its number above the plot after the word "Round". */
static void chart_rounds(out *o, const review *r, int n)
{
	int start = 0, end, band = 0;
	double free_x = 0, x0, x1;

	if (n > 0) {   /* the row's name, in the margin beside the numbers */
		text_open(o, "chart-round-label", 2, PLOT_TOP - 8, NULL);
		out_raws(o, "Round</text>");
	}
	while (start < n) {
		for (end = start + 1; end < n; end++)
			if (r->move[end].round != r->move[start].round)
				break;
		x0 = x_of(start, n);
		x1 = x_of(end, n);
		if (band % 2 == 1) {
			out_raws(o, "<rect class=\"chart-band\" x=\"");
			out_num(o, x0);
			out_rawf(o, "\" y=\"%d\" width=\"", PLOT_TOP);
			out_num(o, x1 - x0);
			out_rawf(o, "\" height=\"%d\"/>", PLOT_BOTTOM - PLOT_TOP);
		}
		if (start > 0)
			line(o, "chart-round", x0, PLOT_TOP - 4, x0, PLOT_BOTTOM);
		round_label(o, r->move[start].round, x0, &free_x);
		band++;
		start = end;
	}
}

/* The line through the n + 1 points. */
static void chart_line(out *o, const review *r, int n)
{
	int k;

	out_raws(o, "<polyline class=\"chart-line\" fill=\"none\" "
	         "stroke=\"#1f5fa8\" stroke-width=\"2.5\" points=\"");
	for (k = 0; k <= n; k++) {
		if (k > 0)
			out_raws(o, " ");
		out_num(o, x_of(k, n));
		out_raws(o, ",");
		out_num(o, y_of(point_chance(r, k)));
	}
	out_raws(o, "\"/>");
}

/* The turning points: a circle where the move left the chance, and its
 * number (1, 2, 3 in r->turning's order) above it, or below near the top. */
static void chart_turning(out *o, const review *r, int n)
{
	int i, k, nt = turning_count(r);
	double x, y, label_y;

	for (i = 0; i < nt; i++) {
		if (!turning_valid(r, i, n))
			continue;
		k = r->turning[i];
		x = x_of(k + 1, n);
		y = y_of(point_chance(r, k + 1));
		out_raws(o, "<circle class=\"chart-turn\" cx=\"");
		out_num(o, x);
		out_raws(o, "\" cy=\"");
		out_num(o, y);
		out_rawf(o, "\" r=\"%d\"/>", TURN_RADIUS);
		label_y = y - TURN_RADIUS - 4 < PLOT_TOP + FONT
		          ? y + TURN_RADIUS + FONT : y - TURN_RADIUS - 4;
		text_open(o, "chart-turn-label", x, label_y, "middle");
		out_rawf(o, "%d</text>", i + 1);
	}
}

void review_chart_svg(out *o, const review *r, const char *const names[],
                      int nnames)
{
	int n = move_count(r);

	(void)names;   /* the chart draws no names: the table has them */
	(void)nnames;
	/* The <title> child names it and the <desc> describes it (as SVG
	 * does for role img); no ids, no font-size attribute: Debian 12's
	 * HTML checker knows neither on SVG, and the text's size is
	 * style.css's (REVIEW_CHART_TEXT_UNITS). */
	out_rawf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	         "class=\"review-chart\" viewBox=\"0 0 %d %d\" width=\"100%%\" "
	         "role=\"img\">", W, H);
	out_rawf(o, "<title>%s</title>", chart_title);
	chart_desc(o, r, n);
	out_rawf(o, "<rect class=\"chart-bg\" fill=\"#ffffff\" x=\"0\" y=\"0\" "
	         "width=\"%d\" height=\"%d\"/>", W, H);
	chart_rounds(o, r, n);
	chart_grid(o);
	chart_moves_axis(o, n);
	if (n == 0) {
		text_open(o, "chart-empty", (PLOT_LEFT + PLOT_RIGHT) / 2.0,
		          (PLOT_TOP + PLOT_BOTTOM) / 2.0, "middle");
		out_raws(o, "No moves were made.</text>");
	} else {
		chart_line(o, r, n);
		chart_turning(o, r, n);
	}
	out_raws(o, "</svg>");
}

/* The Player cell: the seat's name if known, else "Seat N". */
static void player_cell(out *o, int seat, const char *const names[],
                        int nnames)
{
	const char *name = NULL;

	if (names && seat >= 1 && seat <= nnames)
		name = names[seat - 1];
	out_raws(o, "<td>");
	if (name && name[0])
		out_html(o, name);
	else
		out_rawf(o, "Seat %d", seat);
	out_raws(o, "</td>");
}

void review_chart_table(out *o, const review *r, const char *const names[],
                        int nnames)
{
	int k, n = move_count(r);
	const review_move *m;

	out_rawf(o, "<table class=\"review-table\"><caption>%s</caption>"
	         "<thead><tr><th scope=\"col\">Move</th>"
	         "<th scope=\"col\">Round</th><th scope=\"col\">Player</th>"
	         "<th scope=\"col\">Chance before</th>"
	         "<th scope=\"col\">Chance after</th></tr></thead><tbody>",
	         chart_title);
	if (n == 0)
		out_raws(o, "<tr><td colspan=\"5\">No moves were made.</td></tr>");
	for (k = 0; k < n && !o->failed; k++) {
		m = &r->move[k];
		out_rawf(o, "<tr><th scope=\"row\">%d</th><td>%d</td>", k + 1,
		         m->round);
		player_cell(o, m->action.seat, names, nnames);
		out_rawf(o, "<td>%d%%</td><td>%d%%</td></tr>", percent(m->before),
		         percent(m->after));
	}
	out_raws(o, "</tbody></table>");
}
