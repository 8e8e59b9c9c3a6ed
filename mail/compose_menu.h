/*
 * compose_menu.h - the part of the emails that ask a seat to move when
 * replies are on (compose_ctx.reply_local): the seat's actions as a
 * numbered menu (words/menu.h), how to reply, and a mailto: link per
 * action; and the signed Reply-To address.  For compose.c, the answers
 * to replies, and the mailer (compose_menu_late).
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

/*
 * seat's reply address for g at seq into m->reply_to, whether or not
 * seat may move: for an answer that leaves it nothing to move, so that
 * a reply to the newest email of the thread still takes say: lines.  0
 * (also when replies are off: nothing changes), or -1 if the token
 * could not be made (m->reply_to then "").
 */
int compose_reply_only(const compose_ctx *c, const store_game *g, int seat,
                       int seq, store_mail *m);

/*
 * For the mailer, which sends every email: o, queued by a path that
 * composed it with replies off, asks its seat to move (kind seat, turn,
 * reminder or nudge) and that seat is to move in g (o's game, as it is
 * now): with replies on (c) and no Reply-To in o yet, gives o the menu
 * of g's state and seq before the seat's link, and the Reply-To, as
 * compose_menu does.  Set c->now_day to o's creation day, so that a
 * retry writes the same token.  1 if it did, 0 if o needs nothing
 * (or has no room: compose_menu's rules), -1 if out of memory or a
 * token could not be made (o unchanged).
 */
int compose_menu_late(const compose_ctx *c, const store_game *g,
                      store_outmail *o);

#endif
