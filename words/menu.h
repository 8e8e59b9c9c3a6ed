/*
 * menu.h - a seat's legal actions as a numbered menu, in the words of
 * the table's buttons, each with the line the table shows under it
 * (offer.h).  The turn email lists it; a reply picks an item by its
 * number or by words, and the inbound command rebuilds the same menu
 * from the same state to read it: the menu depends on the state alone.
 *
 * One item per legal action of bt_legal(), in its order, except Sensor
 * Sweep: one item per card, whose action has no order yet (nargs 0; the
 * order is asked for once the cards are seen); and an action whose name
 * an earlier item has (a copy of a card: the same move) is left out.  Plain text: escape it
 * when writing HTML.
 */
#ifndef BT_MENU_H
#define BT_MENU_H

#include <stddef.h>

#include "game.h"
#include "offer.h"

enum { MENU_MAX = 64, MENU_NAME_MAX = 160, MENU_LINE_MAX = OFFER_MAX };

typedef struct menu_item {
	bt_action a;
	char name[MENU_NAME_MAX];    /* "Play Hand Off: give Overtime to Tendi" */
	int head;                    /* bytes of name that are the button's
	                              * words ("Play Hand Off"); 0: all */
	char offer[MENU_LINE_MAX];   /* what it does and risks; "" if nothing */
} menu_item;

typedef struct menu {
	int n;
	menu_item item[MENU_MAX];
} menu;

/* The label of the table's button for an action of verb with card (the
 * card is ignored for work and log): "Get to work", "Log the completed
 * assignment", "Start this Side Project", "Look at the top of the Shift
 * Deck" (Sensor Sweep), "Play Overtime".  Written into buf (cap bytes),
 * which is returned. */
const char *words_action_name(bt_verb verb, bt_card card, char *buf,
                              size_t cap);

/* The menu of seat (must be g->turn) in g, with player names for Hand
 * Off targets (names[s-1]; names or an entry may be NULL or "": "Seat
 * N").  Returns m->n (0 once the game is over), or -1 if seat is not to
 * move or its actions are more than MENU_MAX items (m->n is then 0). */
int menu_build(const bt_game *g, int seat, const char *const names[],
               menu *m);

/*
 * The item a reply picks, as an index 0..n-1: number 1..n if number > 0,
 * else words.  Words are matched against the names without regard to
 * case, order or punctuation: every word of the reply must be a word of
 * the item's name ("work", "get to work", "log", "side trivia night",
 * "overtime", "sweep", "hand off overtime to tendi").  Of the items that
 * match, the one with the most of the reply's words in its button's
 * words wins ("overtime" and "sweep" are Play Overtime and Play Sensor
 * Sweep, not a Hand Off of them), then the one with the fewest words
 * the reply did not say.  -1 if nothing matches (or number is out of range), -2 if the
 * words match two different names equally well (ambiguous).
 */
int menu_pick(const menu *m, int number, const char *words);

#endif
