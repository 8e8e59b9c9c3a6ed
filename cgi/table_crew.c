/*
 * table_crew.c - on a finished game's table: this crew's games.  A
 * rematch chain is a crew (store_crew): once it has two games or more,
 * the table shows their results as a chart (crew_chart.c) and one line
 * per game, oldest first, with how each was played (marks.h) and a
 * link to its table.  Results only: no player is ranked.
 */
#include <stdio.h>
#include <string.h>

#include "crew_chart.h"
#include "marks.h"
#include "table.h"

static store_crew_game crew[STORE_CREW_MAX];
static out chart, list, summary;

/* The buffers, bounded by the page's bound, made once. */
static void buffers(void)
{
	static int made;

	if (!made) {
		out_init(&chart, WEB_PAGE_MAX);
		out_init(&list, WEB_PAGE_MAX);
		out_init(&summary, 1024);
		made = 1;
	}
	out_reset(&chart);
	out_reset(&list);
	out_reset(&summary);
}

/* "Game 2, won: Leisure 22 of the goal of 20, on 3 December 2026 ·
 * practice table (hints on) (this game)", linking to its table. */
static void list_item(web *w, const store_crew_game *e, int i, int here)
{
	char date[CREW_DATE_MAX], marks[MARKS_MAX];
	int playing = e->status == BT_PLAYING;

	out_raws(&list, "<li><a href=\"");
	out_html(&list, w->cf->prefix);
	out_raws(&list, "g/");
	out_url(&list, e->id);
	/* no aria-current: Debian 12's HTML checker does not know it; the
	 * words "(this game)" say it */
	out_rawf(&list, "\">Game %d</a>, %s: Leisure %d of the goal of %d",
	         i + 1, playing
	         ? "in play" : e->status == BT_WON ? "won" : "lost",
	         e->leisure, e->goal);
	crew_date_words(playing ? e->created : e->updated, date, sizeof date);
	if (playing)
		out_raws(&list, " so far");
	if (date[0]) {
		out_raws(&list, playing ? ", started on " : ", on ");
		out_html(&list, date);
	}
	marks_words(e->practice, e->bot_moved, marks, sizeof marks);
	if (marks[0]) {
		out_raws(&list, " · ");
		out_html(&list, marks);
	}
	if (here)
		out_raws(&list, " <strong>(this game)</strong>");
	out_raws(&list, "</li>\n");
}

web_err table_crew(web *w, const table_view *tv, vals *v)
{
	store_error err;
	int n = 0, here = -1;

	if (w->game.state.status == BT_PLAYING || tv->at >= 0)
		return WEB_OK;
	if (store_crew(w->st, w->game.id, crew, STORE_CREW_MAX, &n, &err)
	    != STORE_OK) {
		web_log(w, __func__, "store_crew: %s", err.why);
		return WEB_INTERNAL;
	}
	if (n < 2)
		return WEB_OK;
	buffers();
	for (int i = 0; i < n; i++)
		if (strcmp(crew[i].id, w->game.id) == 0)
			here = i;
	crew_chart_svg(&chart, crew, n, here);
	crew_chart_words(&summary, crew, n);
	for (int i = 0; i < n; i++)
		list_item(w, &crew[i], i, i == here);
	if (chart.failed || list.failed || summary.failed)
		return WEB_INTERNAL;
	vals_show(v, K_has_crew, 1);
	vals_set(v, K_crew_summary, out_str(&summary));
	vals_set(v, K_crew_chart, out_str(&chart));
	vals_set(v, K_crew_list, out_str(&list));
	return WEB_OK;
}
