/*
 * inbound_act.h - a reply to one of our emails, acted on: the token in
 * the address it was sent to names the game, the seat and the turn; the
 * sender is checked; the written text is read as a move, a Sensor Sweep
 * order and table talk; what it asks is done through the store with the
 * answer queued in the same transaction (store_take_reply), so every
 * reply a person writes gets one answer (a move's is the seat's next
 * email when it gets one each turn: inbound_answer.c) and does its work
 * once.
 *
 * What `buffertime inbound` (cli/inbound.c) runs for the message an MTA
 * pipes to it.  The result is a sysexits(3) code the MTA understands.
 */
#ifndef BT_INBOUND_ACT_H
#define BT_INBOUND_ACT_H

#include <stddef.h>
#include <stdint.h>

#include "compose.h"
#include "store.h"
#include "token.h"

/* The exit codes of sysexits.h that an MTA acts on. */
enum {
	INBOUND_EX_OK = 0,          /* handled: done, answered or ignored */
	INBOUND_EX_DATAERR = 65,    /* not a message we can read */
	INBOUND_EX_NOUSER = 67,     /* not for us: no token of ours */
	INBOUND_EX_SOFTWARE = 70,   /* a bug or a broken database */
	INBOUND_EX_TEMPFAIL = 75    /* busy or disk full: deliver it again */
};

typedef struct inbound_cfg {
	store *st;
	const compose_ctx *compose;    /* links, and the move's emails */
	const token_keys *keys;
	const char *reply_local;       /* "play" of play+TOKEN@DOMAIN */
	const char *trust_authserv;    /* an authserv-id whose DMARC pass
	                                * is trusted, or "" */
	int64_t now;                   /* unix seconds */
} inbound_cfg;

/* Handles the len bytes of one received message; writes one line for
 * the log into log (cap bytes) and returns an INBOUND_EX_* code. */
int inbound_act(const inbound_cfg *c, const char *raw, size_t len,
                char *log, size_t cap);

#endif
