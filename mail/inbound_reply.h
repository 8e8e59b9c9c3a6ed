/*
 * inbound_reply.h - what a reply's written text asks for, without
 * knowing the game: table talk, a Sensor Sweep order, and the move.
 *
 *   say: TEXT        (any case, spaces around ':' optional) table talk;
 *                    every such line, up to REPLY_SAYS_MAX
 *   order N N N      1 to 3 numbers 1..3, spaces or commas between:
 *                    a Sensor Sweep order (the first such line)
 *   anything else    the first other non-empty line is the move (a
 *                    line ending in ':', "Here is my move:", only if no
 *                    other follows): a number or words, lowercased,
 *                    punctuation trimmed, spaces collapsed
 * A later step matches the words against the legal actions' names.
 *
 * The move is a number 1..99 when the line begins with one: "2", "2.",
 * "#2", "(2)", "2nd", "option 2", "number 2", "no. 2", whatever follows
 * it ("2 — let's go", "3 please", "2, then I'll log", "(2) ok").  Except:
 *   - "2 cards", "3 Officers": a number followed by a word that counts
 *     the game's things (card, officer, effort, leisure, side, ...) is
 *     words, as the menu's names have such numbers in them;
 *   - "1 or 2", "2-3", "2/3", "2, 3", "2 (not 3)": any other number in
 *     the line (a time "10:30" or a decimal aside) makes it no move;
 *     the line is kept in several, for the answer to ask for one;
 *   - "0", "100", "2x", "2.5", "10:30", "1234": not a move number:
 *     words, matched against the names like any words (if none fits,
 *     the answer says it could not read a move).
 * Other numbers of the line ("2, see you at 5") count too: a reply
 * naming two numbers is asked again rather than guessed.
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
	char several[REPLY_WORDS_LEN + 1];   /* the move line if it names more
	                                      * than one number ("1 or 2"):
	                                      * then no move and no words */
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
