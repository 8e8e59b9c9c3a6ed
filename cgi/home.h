/*
 * home.h - the new-game form, shared by GET PREFIX (empty) and a refused
 * POST PREFIX new (filled in again, with the reason).
 */
#ifndef BT_HOME_H
#define BT_HOME_H

#include "web.h"

/* Renders the form with status, its fields from filled (NULL: empty)
 * and message (NULL: none) above it. */
web_err home_render(web *w, int status, const form *filled,
                    const char *message);

/* Renders, with status, the home page of a server where only the
 * administrator makes games (create = admin): no form. */
web_err closed_render(web *w, int status);

#endif
