/*
 * mail_ctx.h - what a page needs to queue emails: one compose context
 * made the same way on every path (the store, the link keys, the base
 * URL and the reply address), so no page can forget a part of it, as
 * the new-game and rematch pages once forgot the reply address.
 */
#ifndef BT_MAIL_CTX_H
#define BT_MAIL_CTX_H

#include "compose.h"
#include "web.h"

/* Fills c for w's emails. */
void web_compose(web *w, compose_ctx *c);

#endif
