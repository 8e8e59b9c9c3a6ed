/*
 * compose_menu.h - the part of the emails that ask a seat to move when
 * replies are on (compose_ctx.reply_local): the seat's actions as a
 * numbered menu (words/menu.h), how to reply, and a mailto: link per
 * action; and the signed Reply-To address.  For compose.c only.
 */
#ifndef BT_COMPOSE_MENU_H
#define BT_COMPOSE_MENU_H

#include <stddef.h>

#include "compose.h"

/*
 * If replies are on and seat of g may move now in state s, writes seat's reply address for game
 * sequence number seq into m->reply_to and inserts the menu into
 * m->body at byte at, in what room the body has left: the mailto:
 * links go first if not all fit, then the offers' lines, then the last
 * items (the table lists them all).  While a Sensor Sweep waits for
 * its order (sweep_waiting) there is no menu, only the address.  0
 * (also when off: nothing changes), or -1 if a token could not be made.
 */
int compose_menu(const compose_ctx *c, const store_game *g,
                 const bt_game *s, int seat, int seq, int sweep_waiting,
                 store_mail *m, size_t at);

#endif
