/*
 * compose_talk.c - the table talk of an email (compose_talk.h): a window
 * of the newest lines, cut to a byte budget, the rest counted.
 */
#include <stdio.h>
#include <string.h>

#include "compose_talk.h"
#include "describe.h"
#include "utf8.h"

static int keep(void *ctx, const store_chat *c)
{
	compose_talk *t = ctx;

	if (t->n < COMPOSE_TALK_KEPT) {
		t->line[t->n] = *c;
		utf8_cut_valid(t->line[t->n].text);
		t->n++;
	}
	return 0;
}

int compose_talk_read(store *st, const char *game, int from_seq,
                      int64_t from_time, compose_talk *t)
{
	store_error err;

	t->n = t->matching = 0;
	return store_chat_since(st, game, from_time ? STORE_CHAT_FROM_TIME
	                        : STORE_CHAT_FROM_LINE, from_time ? from_time
	                        : from_seq, COMPOSE_TALK_KEPT, keep, t,
	                        &t->matching, &err) ? -1 : 0;
}

/* The bytes line i takes in the email ("Name: text\n" and a margin). */
static size_t line_size(const store_game *g, const compose_talk *t, int i)
{
	char n[48];

	return strlen(t->line[i].text) + 4 +
	       strlen(describe_seat(g, t->line[i].seat, n, sizeof n));
}

const char *compose_talk_text(const store_game *g, const compose_talk *t,
                              const char *when, char *out, size_t cap)
{
	int shown = 0, left_out;
	size_t used = 0, len;
	char n[48];

	out[0] = '\0';
	if (t->n == 0 || cap < COMPOSE_TALK_MAX)
		return out;
	/* the newest that fit the budget */
	while (shown < t->n) {
		size_t size = line_size(g, t, t->n - 1 - shown);
		if (used + size > COMPOSE_TALK_BUDGET)
			break;
		used += size;
		shown++;
	}
	left_out = (t->matching > t->n ? t->matching : t->n) - shown;
	len = (size_t)snprintf(out, cap, "\nTable talk %s:\n", when);
	if (left_out > 0 && len < cap)
		len += (size_t)snprintf(out + len, cap - len, "(%s%d earlier "
		       "message%s left out: the table shows them)\n",
		       t->matching >= STORE_CHAT_COUNT_MAX ? "at least " : "",
		       left_out, left_out == 1 ? "" : "s");
	for (int i = t->n - shown; i < t->n && len < cap; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s: %s\n",
		       describe_seat(g, t->line[i].seat, n, sizeof n),
		       t->line[i].text);
	return out;
}
