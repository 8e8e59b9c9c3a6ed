/*
 * offer.h - the one line under each action a seat may take: what it will
 * do and what is at stake, in words, from the engine's figures (the
 * reprimand's cost, the log's gain, the risk this seat knows).  Plain
 * text: escape it when writing HTML.
 */
#ifndef BT_OFFER_H
#define BT_OFFER_H

#include <stddef.h>

#include "game.h"

enum { OFFER_MAX = 480 };   /* bytes of one line */

/* "Draw a Shift card. Chance of a reprimand: 12% (3 in 25). A reprimand
 * now would cost ..." for seat's knowledge (R10). */
void offer_work(const bt_game *g, int seat, char *buf, size_t cap);

/* "4 cards worth 7 Leisure go to the Scoring Row (total 12 of 20) ..." */
void offer_log(const bt_game *g, char *buf, size_t cap);

/* What playing a card from the hand does to the table, stated as the
 * table will be after it: acts[0..n-1] are plays of one card, one when
 * its choice is made (a menu item), all the legal ones when the choice
 * is still to make (the table's form), and then the line gives the
 * figure each choice leaves ("Officers fall from 3 to 2 (Ship's Doctor)
 * or 0 (Captain) of 4"). */
void offer_play(const bt_game *g, const bt_action *acts, int n, char *buf,
                size_t cap);

/* The chance num in den in words: "12% (3 in 25)", "none: you know the
 * next card", "certain: you know the next card". */
void offer_risk(int num, int den, char *buf, size_t cap);

/* If the crew can no longer win (bt_out_of_reach), says so with the
 * most Leisure it could still reach, and returns 1; else buf is "" and
 * it returns 0.  Public figures: any seat may be told. */
int offer_out_of_reach(const bt_game *g, char *buf, size_t cap);

/* What a reprimand now would cost, as a sentence ("" if nothing). */
void offer_reprimand_cost(const bt_game *g, char *buf, size_t cap);

#endif
