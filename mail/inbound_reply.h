/*
 * inbound_reply.h - what a reply's written text asks for, without
 * knowing the game: table talk, a Sensor Sweep order, and the move.
 *
 *   say: TEXT        (any case, spaces around ':' optional) table talk;
 *                    every such line, up to REPLY_SAYS_MAX
 *   order N N N      1 to 3 numbers 1..3, spaces or commas between:
 *                    a Sensor Sweep order (the first such line)
 *   anything else    the first other non-empty line is the move: a
 *                    number 1..99 ("2", "2.", "#2", "(2)") or words,
 *                    lowercased, punctuation trimmed, spaces collapsed
 * A later step matches the words against the legal actions' names.
 */
#ifndef BT_INBOUND_REPLY_H
#define BT_INBOUND_REPLY_H

enum {
	REPLY_SAYS_MAX = 8,        /* say: lines kept */
	REPLY_SAY_LEN = 500,       /* bytes of each (without its NUL) */
	REPLY_WORDS_LEN = 120,     /* bytes of the move words (without NUL) */
	REPLY_ORDER_MAX = 3,       /* numbers of an order */
	REPLY_NUMBER_MAX = 99      /* the highest move number */
};

typedef struct {
	int move;                            /* 1..99, or 0: none */
	char words[REPLY_WORDS_LEN + 1];     /* "" if none (or a number) */
	int order[REPLY_ORDER_MAX];          /* each 1..3 */
	int n_order;                         /* 0: no order line */
	int order_bad;                       /* an "order" line not 1-3 of 1..3 */
	char says[REPLY_SAYS_MAX][REPLY_SAY_LEN + 1];
	int n_says;
	int says_dropped;                    /* say: lines past the bound */
} inbound_reply;

/* Reads the written text (inbound_written's output) into *r. */
void inbound_read_reply(const char *written, inbound_reply *r);

#endif
