/*
 * hint.c - a practice table's hint in words (hint.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "append.h"
#include "hint.h"
#include "offer.h"


static double variance(const store_hint *h)
{
	return h->games > 0 ? h->chance * (1.0 - h->chance) / h->games : 0.0;
}

int hint_differs(const store_hint *a, const store_hint *b)
{
	return fabs(a->chance - b->chance) >
	       2.0 * sqrt(variance(a) + variance(b));
}

static int percent(double chance)
{
	return (int)(chance * 100.0 + 0.5);
}

/* The form's best option (and how many it has), and the turn's best. */
typedef struct standing {
	const store_hint *mine, *top;
	int options;       /* the form's */
	int rivals;        /* other forms' options as good as top, as far
	                    * as the estimate can tell */
} standing;

static standing stand(const store_hint *h, int n, int verb, int card)
{
	standing s = { NULL, NULL, 0, 0 };

	for (int i = 0; i < n; i++) {
		if (!s.top || h[i].chance > s.top->chance)
			s.top = &h[i];
		if (h[i].verb != verb || h[i].card != card)
			continue;
		s.options++;
		if (!s.mine || h[i].chance > s.mine->chance)
			s.mine = &h[i];
	}
	for (int i = 0; s.top && i < n; i++)
		s.rivals += (h[i].verb != s.top->verb ||
		             h[i].card != s.top->card) &&
		            !hint_differs(&h[i], s.top);
	return s;
}

/* Why the best is best, from the table: the risk of the next draw, the
 * Leisure a log would bank now, and the chance after the move. */
static void why(const bt_game *g, int seat, const store_hint *top,
                char *buf, size_t cap)
{
	int num, den;
	char risk[96];

	words_append(buf, cap, " Why: ");
	bt_risk(g, seat, &num, &den);
	if (den > 0) {
		offer_risk(num, den, risk, sizeof risk);
		words_append(buf, cap, "the risk of a reprimand on the next "
		             "draw is %s; ", risk);
	}
	if (g->duty != BT_NO_CARD && g->effort >= g->target) {
		bt_gain gain;
		bt_log_gain(g, &gain);
		words_append(buf, cap, "logging now would bank %d Leisure (%d "
		             "of %d); ", gain.leisure, gain.total, bt_goal(g));
	}
	words_append(buf, cap, "after this move the crew wins about %d games "
	             "in 100.", percent(top->chance));
}

void hint_line(const bt_game *g, int seat, const store_hint *hints, int n,
               int verb, int card, char *buf, size_t cap)
{
	standing s = stand(hints, n, verb, card);

	buf[0] = '\0';
	if (!s.mine)
		return;
	words_append(buf, cap, "Chance of winning: %s%d%%%s",
	             s.options > 1 ? "up to " : "", percent(s.mine->chance),
	             s.options > 1 ? " with the best choice" : "");
	if (s.mine == s.top && s.rivals == 0)
		words_append(buf, cap, ", the best option.");
	else if (s.mine == s.top || !hint_differs(s.mine, s.top))
		words_append(buf, cap, ", about equal to the best options here "
		             "(the estimate cannot tell them apart).");
	else
		words_append(buf, cap, ".");
	if (s.mine == s.top)
		why(g, seat, s.top, buf, cap);
}
