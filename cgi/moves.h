/*
 * moves.h - the last moves of a game in words, for the table page.
 */
#ifndef BT_MOVES_H
#define BT_MOVES_H

#include "describe.h"
#include "web.h"

enum { MOVES_MAX = 10 };      /* moves the table shows */

typedef struct moves {
	int n;
	char text[MOVES_MAX][DESCRIBE_MAX];   /* newest first */
} moves;

/*
 * Describes the last MOVES_MAX actions of w->game (loaded) as seat viewer
 * may know them.  The game is replayed from its record with the seed
 * (store_export), which never leaves this file; the states around the
 * last actions are kept per worker for the game's current length, so
 * views of an unchanged game replay nothing.  Returns WEB_OK or an error
 * (logged).
 */
web_err moves_recent(web *w, int viewer, moves *m);

#endif
