/*
 * compose_table.h - the table in plain text, for the emails that ask a
 * seat to move (compose.c): one who plays only by email reads the game
 * there as the web player reads the page.  Lines of at most
 * COMPOSE_TABLE_WIDTH characters, for a phone's mail program:
 *
 *   The table, round 3 (goal: 20 Leisure):
 *   Duty Assignment: Debug the Replicators (Target 7)
 *   Side Projects in play: Trivia Night (Target 2, Leisure 2)
 *   Shift Stack: Effort 5 of Target 9, Officers 2 (a reprimand at 4)
 *     Eager Ensign (Effort 2), Ship's Doctor (1 Officer), ...
 *   Next Shift card a reprimand: 12% (3 in 25)
 *   Scoring Row: Leisure 12 of the goal of 20
 *     ...
 *   Decks: 3 Assignments, 20 Shift cards, 10 Side Projects, 5 Abilities
 *   Hands: Bob 3 cards, Cyd 4 cards
 *   Your hand (3 cards; to play one, choose its move below):
 *   - Overtime: Place this card in the Shift Stack. ...
 *   - Extra Duty (not playable now): ...
 *
 * Only what the seat may see (R10): the others' hands as counts, the
 * top of the Shift Deck only as far as the seat's own Sensor Sweep
 * showed it.  Every figure is the engine's (cards.h, game.h).
 */
#ifndef BT_COMPOSE_TABLE_H
#define BT_COMPOSE_TABLE_H

#include <stddef.h>

#include "store.h"

enum {
	COMPOSE_TABLE_WIDTH = 72,   /* characters of a line */
	COMPOSE_TABLE_MAX = 6144    /* bytes that always hold a table */
};

/*
 * seat's table in state s (names from g; g->sweep_card marks a card
 * being played) into buf (cap bytes, NUL-terminated).  While it is the
 * seat's turn, hand cards with no legal play are marked "not playable
 * now".  0, or -1 if it did not fit (buf then ends at a whole line).
 */
int compose_table(const store_game *g, const bt_game *s, int seat,
                  char *buf, size_t cap);

/*
 * The post-game review's biggest turning point (the move that changed
 * the crew's chance of winning most) of finished game g, in words as
 * seat may read it, into buf: 1 if written, 0 if the review is not all
 * in yet (or the game is not over in the store), -1 on a store error.
 */
int compose_turning_point(store *st, const store_game *g, int seat,
                          char *buf, size_t cap);

/* What a game-over email says of the review when it is queued (before
 * the link to the table's #review): the review comes after the email. */
#define COMPOSE_REVIEW_SOON "Where was it won or lost? A bot goes over " \
	"the game move by move; in a\nminute or two its review is on the " \
	"table:\n"

/*
 * For the mailer, which sends every email: if o is a game-over email
 * of game g (as it is now) that still says COMPOSE_REVIEW_SOON and the
 * review is all in, puts the review's biggest turning point there, as
 * o's seat may read it.  1 if it did, 0 if o needs nothing or the
 * review is not in (or it would not fit), -1 on a store error or out of
 * memory (o unchanged).
 */
struct store_outmail;
int compose_turning_point_late(store *st, const store_game *g,
                               struct store_outmail *o);

#endif
