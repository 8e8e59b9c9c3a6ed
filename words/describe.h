/*
 * describe.h - an action in words, from the states before and after it:
 * "Beckett got to work: Eager Ensign, Effort 2".  All card facts come
 * from the engine's card table; nothing is said that the reading seat
 * may not know (R10): Sensor Sweep's order and a Hand Off's card only to
 * the seats that saw them, the Ability card a log draws never.
 */
#ifndef BT_DESCRIBE_H
#define BT_DESCRIBE_H

#include <stddef.h>

#include "game.h"
#include "store.h"

enum { DESCRIBE_MAX = 512 };   /* bytes of one description */

/* The viewer of a finished game: the whole deal is no secret then, so
 * every Sensor Sweep's order and every card handed off are told. */
enum { DESCRIBE_EVERYONE = -1 };

/*
 * Writes what action a did into buf (cap bytes, NUL-terminated, plain
 * text: escape it when writing HTML), with what followed from it (a
 * reprimand, the new round, the end of the game).  before and after are
 * the states around a; names come from g's seats ("Seat N" if none);
 * viewer is the seat reading (0: someone with no seat; DESCRIBE_EVERYONE
 * once the game is over).
 */
void describe_action(const bt_game *before, const bt_game *after,
                     const bt_action *a, const store_game *g, int viewer,
                     char *buf, size_t cap);

/* describe_action told to the seat that made a (the viewer), in the
 * second person: "you played Scale Back: took Plant Care on Deck 9 back
 * into your hand", "an order of your choosing", "you are First Player",
 * where the others read "Ann", "their" and "is".  The email answering a
 * player's reply uses it. */
void describe_own_action(const bt_game *before, const bt_game *after,
                         const bt_action *a, const store_game *g,
                         char *buf, size_t cap);

/* A card in words: "Eager Ensign, Effort 2", "Trivia Night (Target 2,
 * Leisure 2)", "Captain, 3 Officers". */
void describe_card(bt_card c, char *buf, size_t cap);

/* The name of seat in g, or "Seat N" written into buf (cap bytes) when
 * it has none.  The string returned lives in g or in buf. */
const char *describe_seat(const store_game *g, int seat, char *buf,
                          size_t cap);

#endif
