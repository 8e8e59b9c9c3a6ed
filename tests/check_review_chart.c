/*
 * check_review_chart.c - the post-game review's chart and table
 * (cgi/review_chart.h): the SVG is well-formed XML in the SVG namespace,
 * labelled for screen readers, with one point per move plus the start,
 * its turning points and rounds marked; the table has a row per move and
 * escapes the seat names; figures outside 0..1 are clamped; a small
 * buffer fails cleanly.  Parsed with libxml2, not matched as text.
 *
 * With REVIEW_CHART_SAMPLE=path set, also writes the 60-move review's
 * chart there, for a look in a browser (and its table to
 * REVIEW_CHART_SAMPLE_TABLE=path).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "out.h"
#include "review_chart.h"

#define SVG_NS "http://www.w3.org/2000/svg"
#define HOSTILE "<script>alert(1)</script>&\""

enum { LONG_MOVES = 60 };

/* The small game: 6 moves over 2 rounds, seats 1 and 2 taking turns. */
static const double small_points[] = { 0.62, 0.58, 0.66, 0.71, 0.40, 0.45,
                                       0.0 };

static review *new_review(void)
{
	review *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	return r;
}

/* Sets move k's chances from points p[k], p[k + 1], round and seat. */
static void set_move(review *r, int k, double before, double after,
                     int round, int seat)
{
	r->move[k].before = before;
	r->move[k].played = before;
	r->move[k].after = after;
	r->move[k].round = (uint8_t)round;
	r->move[k].action.seat = (uint8_t)seat;
}

/* The moves whose after - before is largest in size, largest first, as
 * bots/review.c picks them. */
static void pick_turning(review *r)
{
	int i, k, best;
	double size, best_size;

	r->nturning = 0;
	for (i = 0; i < REVIEW_TURNING_POINTS && i < r->nmoves; i++) {
		best = -1;
		best_size = -1;
		for (k = 0; k < r->nmoves; k++) {
			int taken = 0, j;

			for (j = 0; j < i; j++)
				taken |= r->turning[j] == k;
			size = fabs(r->move[k].after - r->move[k].before);
			if (!taken && size > best_size) {
				best = k;
				best_size = size;
			}
		}
		r->turning[i] = best;
		r->nturning++;
	}
}

static review *small_review(void)
{
	review *r = new_review();
	int k;

	r->players = 2;
	r->won = 0;
	r->nmoves = 6;
	for (k = 0; k < r->nmoves; k++)
		set_move(r, k, small_points[k], small_points[k + 1],
		         k < 3 ? 1 : 2, 1 + k % 2);
	pick_turning(r);
	return r;
}

/* 60 moves of a three-seat game, a new round every 7 moves, the chance
 * wandering from 0.5 and ending won. */
static review *long_review(void)
{
	review *r = new_review();
	double p = 0.5, next;
	int k;

	r->players = 3;
	r->won = 1;
	r->nmoves = LONG_MOVES;
	for (k = 0; k < LONG_MOVES; k++) {
		next = k == LONG_MOVES - 1 ? 1.0
		       : 0.5 + 0.4 * sin(k * 0.37) * cos(k * 0.11);
		set_move(r, k, p, next, 1 + k / 7, 1 + k % 3);
		p = next;
	}
	pick_turning(r);
	return r;
}

static char *render_svg(const review *r, const char *const names[], int n)
{
	out o;
	char *s;

	out_init(&o, 0);
	review_chart_svg(&o, r, names, n);
	ck_assert_int_eq(o.failed, 0);
	s = strdup(out_str(&o));
	ck_assert_ptr_nonnull(s);
	out_free(&o);
	return s;
}

static char *render_table(const review *r, const char *const names[], int n)
{
	out o;
	char *s;

	out_init(&o, 0);
	review_chart_table(&o, r, names, n);
	ck_assert_int_eq(o.failed, 0);
	s = strdup(out_str(&o));
	ck_assert_ptr_nonnull(s);
	out_free(&o);
	return s;
}

static xmlDocPtr parse(const char *s)
{
	xmlDocPtr doc = xmlReadMemory(s, (int)strlen(s), "chart.xml", NULL,
	                              XML_PARSE_NONET);

	ck_assert_msg(doc != NULL, "not well-formed: %s", s);
	return doc;
}

static int is_element(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	       strcmp((const char *)n->name, name) == 0;
}

/* The attribute's value, "" if absent (a static copy, one at a time). */
static const char *attr(xmlNodePtr n, const char *name)
{
	static char buf[1 << 17];
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);

	buf[0] = '\0';
	if (v) {
		snprintf(buf, sizeof buf, "%s", (const char *)v);
		xmlFree(v);
	}
	return buf;
}

/* The elements named name (and of class cls, if not NULL) under n, in
 * document order, up to max of them into found; returns how many. */
static int collect(xmlNodePtr n, const char *name, const char *cls,
                   xmlNodePtr *found, int count, int max)
{
	xmlNodePtr c;

	for (c = n->children; c; c = c->next) {
		if (is_element(c, name) && (!cls || strcmp(attr(c, "class"), cls) == 0)) {
			if (count < max)
				found[count] = c;
			count++;
		}
		if (c->type == XML_ELEMENT_NODE)
			count = collect(c, name, cls, found, count, max);
	}
	return count;
}

static int count_of(xmlNodePtr n, const char *name, const char *cls)
{
	return collect(n, name, cls, NULL, 0, 0);
}

static xmlNodePtr first_of(xmlNodePtr n, const char *name, const char *cls)
{
	xmlNodePtr found = NULL;

	collect(n, name, cls, &found, 0, 1);
	ck_assert_msg(found != NULL, "no <%s class=%s>", name, cls ? cls : "");
	return found;
}

/* The text inside n (a static copy). */
static const char *text_of(xmlNodePtr n)
{
	static char buf[4096];
	xmlChar *v = xmlNodeGetContent(n);

	buf[0] = '\0';
	if (v) {
		snprintf(buf, sizeof buf, "%s", (const char *)v);
		xmlFree(v);
	}
	return buf;
}

typedef struct point { double x, y; } point;

/* The polyline's points; returns how many (at most max kept). */
static int line_points(xmlNodePtr svg, point *pt, int max)
{
	xmlNodePtr line = first_of(svg, "polyline", "chart-line");
	const char *s = attr(line, "points");
	int n = 0, used;
	double x, y;

	while (sscanf(s, " %lf,%lf%n", &x, &y, &used) == 2) {
		if (n < max)
			pt[n] = (point){ x, y };
		n++;
		s += used;
	}
	while (*s == ' ')
		s++;
	ck_assert_msg(*s == '\0', "points end in junk: %s", s);
	return n;
}

/* The y of the 100% and of the 0% grid lines (horizontal lines). */
static void grid_range(xmlNodePtr svg, double *top, double *bottom)
{
	xmlNodePtr lines[64];
	int i, n = collect(svg, "line", NULL, lines, 0, 64);
	double y;

	*top = 1e9;
	*bottom = -1e9;
	for (i = 0; i < n && i < 64; i++) {
		y = atof(attr(lines[i], "y1"));   /* attr's copy is reused */
		if (fabs(atof(attr(lines[i], "y2")) - y) > 1e-9)
			continue;
		*top = y < *top ? y : *top;
		*bottom = y > *bottom ? y : *bottom;
	}
	ck_assert(*top < *bottom);
}

/* The chance at point k as the review holds it, clamped the same way. */
static double chance_at(const review *r, int k)
{
	double p = k == 0 ? r->move[0].before : r->move[k - 1].after;

	return p >= 0 ? (p > 1 ? 1 : p) : 0;
}

/* Every point of the line sits at its move and its chance. */
static void check_line(xmlNodePtr svg, const review *r)
{
	static point pt[REVIEW_MAX_MOVES + 2];
	double top, bottom, want;
	int k, n = line_points(svg, pt, REVIEW_MAX_MOVES + 2);

	ck_assert_int_eq(n, r->nmoves + 1);
	grid_range(svg, &top, &bottom);
	for (k = 0; k <= r->nmoves; k++) {
		want = bottom - (bottom - top) * chance_at(r, k);
		ck_assert_msg(fabs(pt[k].y - want) < 0.11, "point %d at y %g, "
		              "not %g", k, pt[k].y, want);
		if (k > 0)
			ck_assert(pt[k].x > pt[k - 1].x);
	}
}

/* www/style.css gives the chart's text the size the chart is made for. */
static int style_sets_text_size(int units)
{
	const char *src = getenv("SRCDIR");
	char path[4096], want[64], css[65536];
	size_t n;
	FILE *f;

	ck_assert_ptr_nonnull(src);
	snprintf(path, sizeof path, "%s/www/style.css", src);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	n = fread(css, 1, sizeof css - 1, f);
	fclose(f);
	css[n] = '\0';
	snprintf(want, sizeof want, ".review-chart text { font-size: %dpx;",
	         units);
	return strstr(css, want) != NULL;
}

START_TEST(test_svg_root)
{
	review *r = small_review();
	char *s = render_svg(r, NULL, 0);
	xmlDocPtr doc = parse(s);
	xmlNodePtr svg = xmlDocGetRootElement(doc), c;
	int title = 0, desc = 0;
	double vb[4], font;

	ck_assert(is_element(svg, "svg"));
	ck_assert_ptr_nonnull(svg->ns);
	ck_assert_str_eq((const char *)svg->ns->href, SVG_NS);
	ck_assert_str_eq(attr(svg, "role"), "img");
	ck_assert_str_eq(attr(svg, "width"), "100%");
	ck_assert_str_eq(attr(svg, "height"), "");
	for (c = svg->children; c; c = c->next) {
		if (is_element(c, "title"))
			title++;
		if (is_element(c, "desc"))
			desc++;
	}
	ck_assert_int_eq(title, 1);
	ck_assert_int_eq(desc, 1);
	/* 12 px text or more when the chart is 340 px wide on a 390 px
	 * phone, at the size style.css gives it */
	ck_assert_int_eq(sscanf(attr(svg, "viewBox"), "%lf %lf %lf %lf", &vb[0],
	                        &vb[1], &vb[2], &vb[3]), 4);
	font = REVIEW_CHART_TEXT_UNITS;
	ck_assert_msg(font * 340 / vb[2] >= 12.0, "text %g px at 390 px",
	              font * 340 / vb[2]);
	ck_assert(style_sets_text_size(REVIEW_CHART_TEXT_UNITS));
	ck_assert_ptr_null(strstr(s, "<script"));
	ck_assert_ptr_null(strstr(s, "R9"));
	xmlFreeDoc(doc);
	free(s);
	free(r);
}
END_TEST

START_TEST(test_svg_grid_and_line)
{
	review *r = small_review();
	char *s = render_svg(r, NULL, 0);
	xmlDocPtr doc = parse(s);
	xmlNodePtr svg = xmlDocGetRootElement(doc), labels[16];
	const char *want[] = { "0%", "25%", "50%", "75%", "100%" };
	int i, n, seen = 0;

	check_line(svg, r);
	n = collect(svg, "text", "chart-label", labels, 0, 16);
	for (i = 0; i < n && i < 16; i++)
		if (seen < 5 && strcmp(text_of(labels[i]), want[seen]) == 0)
			seen++;
	ck_assert_int_eq(seen, 5);
	xmlFreeDoc(doc);
	free(s);
	free(r);
}
END_TEST

/* The turning points: a circle at the point after each turning move and
 * its number, 1 2 3 in r->turning's order. */
static void check_turning(xmlNodePtr svg, const review *r)
{
	xmlNodePtr circles[8], labels[8];
	static point pt[REVIEW_MAX_MOVES + 2];
	int i, nc, nl, k;
	char num[4];

	line_points(svg, pt, REVIEW_MAX_MOVES + 2);
	nc = collect(svg, "circle", "chart-turn", circles, 0, 8);
	nl = collect(svg, "text", "chart-turn-label", labels, 0, 8);
	ck_assert_int_eq(nc, r->nturning);
	ck_assert_int_eq(nl, r->nturning);
	for (i = 0; i < nc && i < 8; i++) {
		k = r->turning[i];
		snprintf(num, sizeof num, "%d", i + 1);
		ck_assert_str_eq(text_of(labels[i]), num);
		ck_assert(fabs(atof(attr(circles[i], "cx")) - pt[k + 1].x) < 0.01);
		ck_assert(fabs(atof(attr(circles[i], "cy")) - pt[k + 1].y) < 0.01);
	}
}

START_TEST(test_svg_turning_points)
{
	review *r = small_review();
	char *s = render_svg(r, NULL, 0);
	xmlDocPtr doc = parse(s);

	ck_assert_int_eq(r->nturning, 3);
	ck_assert_int_eq(r->turning[0], 5);   /* the crash at the end */
	check_turning(xmlDocGetRootElement(doc), r);
	xmlFreeDoc(doc);
	free(s);
	free(r);
}
END_TEST

START_TEST(test_svg_rounds)
{
	review *r = small_review();
	char *s = render_svg(r, NULL, 0);
	xmlDocPtr doc = parse(s);
	xmlNodePtr svg = xmlDocGetRootElement(doc), labels[4];
	int n;

	ck_assert_int_eq(count_of(svg, "line", "chart-round"), 1);
	ck_assert_int_eq(count_of(svg, "rect", "chart-band"), 1);
	n = collect(svg, "text", "chart-round-label", labels, 0, 4);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(text_of(labels[0]), "Round");
	ck_assert_str_eq(text_of(labels[1]), "1");
	ck_assert_str_eq(text_of(labels[2]), "2");
	xmlFreeDoc(doc);
	free(s);
	free(r);
}
END_TEST

START_TEST(test_svg_desc)
{
	review *r = small_review();
	char *s = render_svg(r, NULL, 0);
	xmlDocPtr doc = parse(s);
	xmlNodePtr desc = first_of(xmlDocGetRootElement(doc), "desc", NULL);

	ck_assert_str_eq(text_of(desc),
	    "The crew's chance of winning went from 62% before the first move "
	    "to 0% at the end (lost). It was highest, 71%, after move 3, and "
	    "lowest, 0%, after move 6. Marked on the chart are the moves that "
	    "changed it most: 1, move 6 (45% to 0%); 2, move 4 (71% to 40%); "
	    "3, move 2 (58% to 66%).");
	xmlFreeDoc(doc);
	free(s);
	free(r);
}
END_TEST

/* With the environment variable var naming a file, writes s there. */
static void save_sample(const char *var, const char *s)
{
	const char *path = getenv(var);
	FILE *f;

	if (path == NULL || path[0] == '\0')
		return;
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(s, f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_svg_long_game)
{
	const char *const long_names[] = { "Ada", "Bo", "Cy" };
	review *r = long_review();
	char *s = render_svg(r, NULL, 0);
	xmlDocPtr doc = parse(s);
	xmlNodePtr svg = xmlDocGetRootElement(doc), desc;
	int k, changes = 0;

	check_line(svg, r);
	check_turning(svg, r);
	for (k = 1; k < r->nmoves; k++)
		changes += r->move[k].round != r->move[k - 1].round;
	ck_assert_int_eq(count_of(svg, "line", "chart-round"), changes);
	/* rounds 7 moves apart all keep their number, after "Round" */
	ck_assert_int_eq(count_of(svg, "text", "chart-round-label"),
	                 changes + 2);
	/* few enough move labels to read: 0 10 20 ... 60 */
	ck_assert_int_le(count_of(svg, "text", "chart-label"), 5 + 8 + 1);
	desc = first_of(svg, "desc", NULL);
	ck_assert_ptr_nonnull(strstr(text_of(desc), "to 100% at the end (won)."));
	save_sample("REVIEW_CHART_SAMPLE", s);
	free(s);
	s = render_table(r, long_names, 3);
	save_sample("REVIEW_CHART_SAMPLE_TABLE", s);
	xmlFreeDoc(doc);
	free(s);
	free(r);
}
END_TEST

START_TEST(test_svg_no_moves)
{
	review *r = new_review();
	char *s;
	xmlDocPtr doc;
	xmlNodePtr svg;

	r->won = 0;
	r->nturning = 2;        /* stale turning points are not drawn */
	r->turning[0] = 0;
	r->turning[1] = 4;
	s = render_svg(r, NULL, 0);
	doc = parse(s);
	svg = xmlDocGetRootElement(doc);
	ck_assert_int_eq(count_of(svg, "polyline", NULL), 0);
	ck_assert_int_eq(count_of(svg, "circle", NULL), 0);
	ck_assert_str_eq(text_of(first_of(svg, "text", "chart-empty")),
	                 "No moves were made.");
	ck_assert_ptr_nonnull(strstr(text_of(first_of(svg, "desc", NULL)),
	                             "No moves were made"));
	xmlFreeDoc(doc);
	free(s);
	free(r);
}
END_TEST

START_TEST(test_svg_nmoves_out_of_range)
{
	review *r = new_review();
	char *s;
	xmlDocPtr doc;
	static point pt[4];

	r->nmoves = REVIEW_MAX_MOVES + 5;
	r->nturning = 7;
	s = render_svg(r, NULL, 0);
	doc = parse(s);
	ck_assert_int_eq(line_points(xmlDocGetRootElement(doc), pt, 4),
	                 REVIEW_MAX_MOVES + 1);
	xmlFreeDoc(doc);
	free(s);
	r->nmoves = -3;
	s = render_svg(r, NULL, 0);
	ck_assert_ptr_null(strstr(s, "<polyline"));
	free(s);
	free(r);
}
END_TEST

/* The rows in s's <tbody>. */
static int table_rows(const char *s)
{
	xmlDocPtr doc = parse(s);
	int n = count_of(first_of(xmlDocGetRootElement(doc), "tbody", NULL),
	                 "tr", NULL);

	xmlFreeDoc(doc);
	return n;
}

START_TEST(test_table_nmoves_out_of_range)
{
	review *r = new_review();
	char *s;

	r->nmoves = REVIEW_MAX_MOVES + 5;
	s = render_table(r, NULL, 0);
	ck_assert_int_eq(table_rows(s), REVIEW_MAX_MOVES);
	free(s);
	r->nmoves = -3;
	s = render_table(r, NULL, 0);
	ck_assert_int_eq(table_rows(s), 1);
	ck_assert_ptr_nonnull(strstr(s, "No moves were made."));
	free(s);
	free(r);
}
END_TEST

START_TEST(test_clamped)
{
	review *r = small_review();
	char *s, *t;
	xmlDocPtr doc;
	xmlNodePtr svg;

	r->move[0].before = 1.7;
	r->move[0].after = -0.3;
	r->move[1].before = -0.3;
	r->move[1].after = NAN;
	r->move[2].before = NAN;
	s = render_svg(r, NULL, 0);
	doc = parse(s);
	svg = xmlDocGetRootElement(doc);
	check_line(svg, r);   /* every point between the 0% and 100% lines */
	ck_assert_ptr_nonnull(strstr(text_of(first_of(svg, "desc", NULL)),
	                             "from 100% before the first move"));
	ck_assert_ptr_null(strstr(s, "170%"));
	ck_assert_ptr_null(strstr(s, "-30%"));
	ck_assert_ptr_null(strstr(s, "nan"));
	t = render_table(r, NULL, 0);
	ck_assert_ptr_nonnull(strstr(t, "<td>100%</td><td>0%</td>"));
	ck_assert_ptr_null(strstr(t, "170%"));
	ck_assert_ptr_null(strstr(t, "-30%"));
	ck_assert_ptr_null(strstr(t, "nan"));
	xmlFreeDoc(doc);
	free(s);
	free(t);
	free(r);
}
END_TEST

START_TEST(test_table)
{
	review *r = small_review();
	const char *const names[] = { HOSTILE, "" };
	const char *heads[] = { "Move", "Round", "Player", "Chance before",
	                        "Chance after" };
	char *s = render_table(r, names, 2), *svg;
	xmlDocPtr doc = parse(s);
	xmlNodePtr table = xmlDocGetRootElement(doc), th[8], rows[16], cells[8];
	xmlNodePtr tbody = first_of(table, "tbody", NULL);
	int i, n;

	ck_assert(is_element(table, "table"));
	ck_assert_str_eq(text_of(first_of(table, "caption", NULL)),
	                 "The crew's chance of winning, move by move");
	n = collect(first_of(table, "thead", NULL), "th", NULL, th, 0, 8);
	ck_assert_int_eq(n, 5);
	for (i = 0; i < 5; i++) {
		ck_assert_str_eq(text_of(th[i]), heads[i]);
		ck_assert_str_eq(attr(th[i], "scope"), "col");
	}
	n = collect(tbody, "tr", NULL, rows, 0, 16);
	ck_assert_int_eq(n, r->nmoves);
	/* move 1, round 1, seat 1's hostile name read back as written */
	n = collect(rows[0], "td", NULL, cells, 0, 8);
	ck_assert_int_eq(n, 4);
	ck_assert_str_eq(text_of(first_of(rows[0], "th", NULL)), "1");
	ck_assert_str_eq(text_of(cells[0]), "1");
	ck_assert_str_eq(text_of(cells[1]), HOSTILE);
	ck_assert_str_eq(text_of(cells[2]), "62%");
	ck_assert_str_eq(text_of(cells[3]), "58%");
	/* move 4: round 2, seat 2 has an empty name */
	collect(rows[3], "td", NULL, cells, 0, 8);
	ck_assert_str_eq(text_of(cells[0]), "2");
	ck_assert_str_eq(text_of(cells[1]), "Seat 2");
	ck_assert_str_eq(text_of(cells[3]), "40%");
	/* the name only ever escaped */
	ck_assert_ptr_null(strstr(s, "<script"));
	ck_assert_ptr_nonnull(strstr(s, "&lt;script&gt;alert(1)&lt;/script&gt;"
	                                "&amp;&quot;"));
	svg = render_svg(r, names, 2);
	ck_assert_ptr_null(strstr(svg, "script"));
	xmlFreeDoc(doc);
	free(svg);
	free(s);
	free(r);
}
END_TEST

START_TEST(test_table_seats_without_names)
{
	review *r = small_review();
	const char *const names[] = { "Ada" };
	char *s;

	r->move[2].action.seat = 9;   /* past the names given */
	s = render_table(r, names, 1);
	ck_assert_ptr_nonnull(strstr(s, "<td>Ada</td>"));
	ck_assert_ptr_nonnull(strstr(s, "<td>Seat 2</td>"));
	ck_assert_ptr_nonnull(strstr(s, "<td>Seat 9</td>"));
	free(s);
	s = render_table(r, NULL, 4);
	ck_assert_ptr_null(strstr(s, "Ada"));
	ck_assert_ptr_nonnull(strstr(s, "<td>Seat 1</td>"));
	free(s);
	free(r);
}
END_TEST

START_TEST(test_table_no_moves)
{
	review *r = new_review();
	char *s = render_table(r, NULL, 0);
	xmlDocPtr doc = parse(s);
	xmlNodePtr rows[4];
	xmlNodePtr tbody = first_of(xmlDocGetRootElement(doc), "tbody", NULL);

	ck_assert_int_eq(collect(tbody, "tr", NULL, rows, 0, 4), 1);
	ck_assert_str_eq(text_of(rows[0]), "No moves were made.");
	xmlFreeDoc(doc);
	free(s);
	free(r);
}
END_TEST

/* Any bound smaller than the output: failed set, nothing past the bound. */
START_TEST(test_small_buffer)
{
	review *r = long_review();
	const char *const names[] = { HOSTILE, "Bo", "Cy" };
	const size_t maxes[] = { 1, 7, 64, 500, 3000 };
	size_t i;
	out o;

	for (i = 0; i < sizeof maxes / sizeof maxes[0]; i++) {
		out_init(&o, maxes[i]);
		review_chart_svg(&o, r, names, 3);
		ck_assert_int_eq(o.failed, 1);
		ck_assert_uint_le(o.len, maxes[i]);
		ck_assert_uint_le(o.cap, maxes[i] + 1);
		out_free(&o);
		out_init(&o, maxes[i]);
		review_chart_table(&o, r, names, 3);
		ck_assert_int_eq(o.failed, 1);
		ck_assert_uint_le(o.len, maxes[i]);
		ck_assert_uint_le(o.cap, maxes[i] + 1);
		out_free(&o);
	}
	free(r);
}
END_TEST

static Suite *chart_suite(void)
{
	Suite *s = suite_create("review_chart");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_svg_root);
	tcase_add_test(tc, test_svg_grid_and_line);
	tcase_add_test(tc, test_svg_turning_points);
	tcase_add_test(tc, test_svg_rounds);
	tcase_add_test(tc, test_svg_desc);
	tcase_add_test(tc, test_svg_long_game);
	tcase_add_test(tc, test_svg_no_moves);
	tcase_add_test(tc, test_svg_nmoves_out_of_range);
	tcase_add_test(tc, test_clamped);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_table_seats_without_names);
	tcase_add_test(tc, test_table_no_moves);
	tcase_add_test(tc, test_table_nmoves_out_of_range);
	tcase_add_test(tc, test_small_buffer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(chart_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	xmlCleanupParser();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
