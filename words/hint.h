/*
 * hint.h - a practice table's hint under one of the table's forms, in
 * words: the chance of winning of the form's best option, whether the
 * estimate can tell it from the turn's best ("about equal" when the two
 * are within twice the standard error of their difference), and, under
 * the best, one line of why, from figures the engine and the search
 * have: the risk of the next draw, the Leisure that logging would bank,
 * the chance after the move.  Plain text: escape it when writing HTML.
 */
#ifndef BT_HINT_H
#define BT_HINT_H

#include <stddef.h>

#include "game.h"
#include "store_bots.h"

enum { HINT_LINE_MAX = 400 };

/* The hint for the form of verb and card (BT_NO_CARD for work and log)
 * among the hints of seat's turn in g (hints[0..n-1]) into buf; "" if
 * none of them is that form's. */
void hint_line(const bt_game *g, int seat, const store_hint *hints, int n,
               int verb, int card, char *buf, size_t cap);

/* 1 if the estimates a and b can be told apart: they differ by more
 * than twice the standard error of their difference (each counted over
 * its games; 0 games: known exactly). */
int hint_differs(const store_hint *a, const store_hint *b);

#endif
