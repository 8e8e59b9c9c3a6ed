/*
 * notice_text.c - the words of a notice (notice_text.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "notice_text.h"
#include "utf8.h"

enum { CREW_SHOWN = 3, CREW_MAX = 4 * (NOTICE_NAME_MAX + 4) + 32 };

static void put(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Writes into buf (cap bytes), cut at a character if it must be. */
static void put(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	if (n < 0)
		buf[0] = '\0';
	else if ((size_t)n >= cap)
		utf8_cut_valid(buf);
}

/* The name of seat in g, one line, at most NOTICE_NAME_MAX bytes (then
 * an ellipsis). */
static const char *name_of(const store_game *g, int seat,
                           char out[NOTICE_NAME_MAX + 4])
{
	char seat_n[16];
	const char *name = describe_seat(g, seat, seat_n, sizeof seat_n);
	size_t n = strlen(name);

	snprintf(out, NOTICE_NAME_MAX + 1, "%s", name);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = ' ';
	utf8_cut_valid(out);
	if (n > NOTICE_NAME_MAX)
		strcat(out, "\xe2\x80\xa6");    /* U+2026 */
	return out;
}

/* The seats of g but reader: "Ann, Ben and Cy", "and 2 more" past
 * CREW_SHOWN. */
static void crew_of(const store_game *g, int reader, char *buf, size_t cap)
{
	char name[NOTICE_NAME_MAX + 4];
	int others = g->players - (reader >= 1 && reader <= g->players);
	int shown = 0;
	size_t len = 0;

	buf[0] = '\0';
	for (int s = 1; s <= g->players && shown < CREW_SHOWN; s++) {
		if (s == reader)
			continue;
		shown++;
		const char *sep = shown == 1 ? ""
		                  : shown == others ? " and " : ", ";
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", sep,
		                        name_of(g, s, name));
		if (len >= cap)
			return;
	}
	if (shown < others)
		snprintf(buf + len, cap - len, " and %d more", others - shown);
}

/* "Round 3, risk 12%" (the risk if told). */
static void round_words(const store_notice *n, char *buf, size_t cap)
{
	if (n->risk >= 0)
		snprintf(buf, cap, "Round %d, risk %d%%", n->round, n->risk);
	else
		snprintf(buf, cap, "Round %d", n->round);
}

static void turn_words(const store_notice *n, const store_game *g,
                       notice_words *w, const char *crew)
{
	char round[48];

	round_words(n, round, sizeof round);
	put(w->title, sizeof w->title, "%s", strcmp(n->kind, "reminder") == 0
	    ? "Still your turn" : "Your turn");
	put(w->body, sizeof w->body, "%s, in the game with %s.", round, crew);
	name_of(g, n->seat, w->name);
	put(w->line, sizeof w->line, "%s's turn \xe2\x80\x94 %s", w->name,
	    round);
}

static void nudge_words(const store_notice *n, const store_game *g,
                        notice_words *w, const char *crew)
{
	char by[NOTICE_NAME_MAX + 4];

	put(w->title, sizeof w->title, "%s asks you to take your turn",
	    name_of(g, n->by_seat, by));
	put(w->body, sizeof w->body, "In the game with %s.", crew);
	put(w->line, sizeof w->line, "%s", w->title);
}

static void over_words(const store_notice *n, const store_game *g,
                       notice_words *w, const char *crew)
{
	char by[NOTICE_NAME_MAX + 4];
	int won = strcmp(n->result, "won") == 0;

	put(w->title, sizeof w->title, "%s", won ? "The crew won!"
	    : "The crew lost");
	if (n->by_seat > 0) {
		name_of(g, n->by_seat, by);
		put(w->body, sizeof w->body, "%s ended the game with %s, as it "
		    "could no longer be won.", by, crew);
		put(w->line, sizeof w->line, "The crew lost \xe2\x80\x94 %s "
		    "ended the game", by);
		return;
	}
	put(w->body, sizeof w->body, "The game with %s is over.", crew);
	put(w->line, sizeof w->line, "The crew %s \xe2\x80\x94 the game is "
	    "over", won ? "won" : "lost");
}

static void hello_words(const store_game *g, notice_words *w,
                        const char *crew)
{
	put(w->title, sizeof w->title, "Buffer Time");
	put(w->line, sizeof w->line, "This chat will hear of each turn and "
	    "of the end of the game with %s.", crew);
	put(w->body, sizeof w->body, "%s", w->line);
	(void)g;
}

int notice_words_make(const store_notice *n, const store_game *g,
                      const char *base_url, notice_words *w)
{
	char crew[CREW_MAX];
	int reader = strcmp(n->channel, "push") == 0 ? n->seat : 0;

	memset(w, 0, sizeof *w);
	put(w->url, sizeof w->url, "%sg/%s", base_url, g->id);
	crew_of(g, reader, crew, sizeof crew);
	if (strcmp(n->kind, "turn") == 0 || strcmp(n->kind, "reminder") == 0)
		turn_words(n, g, w, crew);
	else if (strcmp(n->kind, "nudge") == 0)
		nudge_words(n, g, w, crew);
	else if (strcmp(n->kind, "over") == 0)
		over_words(n, g, w, crew);
	else if (strcmp(n->kind, "hello") == 0)
		hello_words(g, w, crew);
	else
		return -1;
	return 0;
}
