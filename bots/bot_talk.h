/*
 * bot_talk.h - what a bot seat says at the table, in one plain sentence,
 * and only when it matters (R10 allows table talk; a good crew mate says
 * what it knows).  The words come from the search's own figures
 * (search.h: bot_figures), never from a search of their own.
 *
 * One line a move at most, the first of these that applies:
 *
 *   1. its Sensor Sweep: the cards it saw, in the order it put them
 *      back, and whether the next draw is safe ("Sensor Sweep: the next
 *      Shift cards are Eager Ensign (Effort 2), then Captain (3
 *      Officers); the next draw is safe.");
 *   2. a move other than the crew's usual one, when the search found it
 *      at least BOT_TALK_GAIN points better ("Logging the assignment: 62%
 *      to win this way, against 48% for drawing a Shift card.");
 *   3. a draw at a risk of BOT_TALK_RISKY percent or more ("Drawing: 25%
 *      risk, and we need 4 more Effort.");
 *   4. (bot_talk_hand) Ability cards in its hand that it has not yet
 *      told the crew of ("In my hand for later: Overtime, Deflect.").
 *
 * Otherwise it says nothing.  It names only cards it holds or saw
 * itself: a card it hands to another player is not named (that player
 * may not want the table to know).
 */
#ifndef BOT_TALK_H
#define BOT_TALK_H

#include <stddef.h>

#include "game.h"
#include "search.h"

enum {
	BOT_TALK_MAX = 300,     /* bytes of a line, far below the table's 500 */
	BOT_TALK_GAIN = 5,      /* points of winning chance worth explaining */
	BOT_TALK_RISKY = 20     /* percent of reprimand risk worth a word */
};

/* How a hand line begins: the worker finds the bot's last one by it. */
#define BOT_TALK_HAND "In my hand for later:"

/*
 * The line about move a (legal in g, the state before it; a sweep with
 * its chosen order) from the figures of its decision: rules 1 to 3
 * above.  names[s - 1] is seat s's name (NULL, or a NULL name: "seat
 * s").  Writes it into buf (cap bytes, NUL-terminated) and returns its
 * length; 0 (buf "") if the move says nothing the crew needs.
 */
int bot_talk_move(const bt_game *g, const bt_action *a,
                  const bot_figures *f, const char *const *names,
                  char *buf, size_t cap);

/*
 * Rule 4: the Ability cards seat holds in g, if one of their kinds is not
 * named in last (the seat's last hand line, NULL or "" if none), into
 * buf as with bot_talk_move; 0 if there is nothing new to tell.
 */
int bot_talk_hand(const bt_game *g, int seat, const char *last, char *buf,
                  size_t cap);

#endif
