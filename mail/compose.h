/*
 * compose.h - the words of every email the game sends: plain UTF-8 text
 * into a store_mail (recipient, subject, body, kind), ready to queue.
 * Headers (Date, Message-ID, List-Unsubscribe) are the mailer's, added
 * when a message is sent (message.h); Reply-To is the row's reply_to.
 *
 * Who gets what (one email per seat per move at most; nobody about
 * their own move, but everyone gets the result; a seat with no address
 * or with notify "none" nothing):
 *   turn      the seat the move hands the turn to (notify every or turn):
 *             its own last move (a move by reply gets no answer of its
 *             own then: inbound_answer.c), the moves since in words, the
 *             table talk since then, the table (compose_table.h), and
 *             the seat's link
 *   move      every other seat with notify every: the move and who is next
 *   over      every seat, the last mover too, when the game ends: the
 *             result, the record link, the review (its biggest turning
 *             point once it is in) and the table's "Play again"
 *   reminder  the seat to move, after the game's interval, twice at most
 *   nudge     the seat to move, when another player presses "nudge"
 *   digest    once a day, for notify digest: what happened since the last
 *   seat      a new game's or a rematch's seat link
 *
 * Every function returns the number of mails written (0 or more), or -1
 * if one could not be composed (its text did not fit, a token failed).
 */
#ifndef BT_COMPOSE_H
#define BT_COMPOSE_H

#include "reply.h"
#include "store.h"
#include "token.h"

enum {
	COMPOSE_REPLY_DAYS = 30    /* a reply address works this long */
};

/* The line before a seat's link in every email: the menu of an email
 * that asks the seat to move goes just before it (compose_menu.h). */
#define COMPOSE_SEAT_LINK "\nYour seat's link (keep it to yourself"

typedef struct compose_ctx {
	store *st;                 /* history and table talk come from here */
	const token_keys *keys;    /* seat links, feed and unsubscribe keys */
	const char *base_url;      /* "https://example.org/bt/": ends in '/' */
	/* Moves by reply (the reply_address setting, compose_reply_address):
	 * "" if off.  When on, the emails that ask a seat to move (turn,
	 * reminder, nudge) list its actions as a menu with mailto: links,
	 * and their Reply-To is LOCAL+TOKEN@DOMAIN (reply.h) for the seat
	 * and the game's seq, expiring COMPOSE_REPLY_DAYS after now_day. */
	char reply_local[REPLY_BASE_LOCAL_MAX + 1];
	char reply_domain[STORE_EMAIL_MAX + 1];
	int64_t now_day;           /* UTC day number; 0: store_now()'s */
} compose_ctx;

/* Turns replies on with reply_address ("play@games.example.org"; "" or
 * NULL turns them off).  0, or -1 (replies off) if it is no plain
 * address or its local part leaves no room for "+" and the token within
 * 64 bytes (conf_finish refuses such a setting first). */
int compose_reply_address(compose_ctx *c, const char *reply_address);

/* A store_mail_fn for store_append (ctx is a compose_ctx): the emails
 * the move a causes. */
int compose_move(void *ctx, const store_game *before, const bt_game *after,
                 const bt_action *a, store_mail *out, int max);

/* The game-over email to seat of g, which seat g->ended_by ended where
 * it could no longer be won (store_end_game's store_seat_mail_fn; ctx a
 * compose_ctx): 1, 0 (none for that seat) or -1. */
int compose_ended(void *ctx, const store_game *g, int seat, store_mail *out);

/* The "your seat" email of seat in new game g; rematch_of is the game
 * it is a rematch of, or NULL. */
int compose_seat(const compose_ctx *c, const store_game *g, int seat,
                 const char *rematch_of, store_mail *out);

/* A store_remind_fn (ctx is a compose_ctx). */
int compose_reminder(void *ctx, const store_game *g, int nth,
                     store_mail *out);

/* A store_digest_fn (ctx is a compose_ctx). */
int compose_digest(void *ctx, const store_game *g, int seat, int64_t since,
                   store_mail *out);

/* The nudge from_seat sends to g's seat to move. */
/* A store_seat_mail_fn (ctx is a compose_ctx): to seat's player, that a
 * bot now stands in for them, and how to take the seat back. */
int compose_standin(void *ctx, const store_game *g, int seat,
                    store_mail *out);

int compose_nudge(const compose_ctx *c, const store_game *g, int from_seat,
                  store_mail *out);

/* seat's personal link (BASE g/ID?t=TOKEN) into url; 0 or -1. */
int compose_seat_url(const compose_ctx *c, const store_game *g, int seat,
                     char *url, size_t cap);

/* seat's one-click unsubscribe URL (BASE g/ID/unsubscribe?s=N&k=KEY). */
int compose_unsub_url(const compose_ctx *c, const char *game_id, int seat,
                      int64_t gen, char *url, size_t cap);

/* The "never email me again" URL for address, which every email carries
 * (BASE mail/block?a=ADDRESS&k=KEY, ADDRESS %-escaped, KEY the
 * block_key_make of its store_address_key); 0, or -1. */
int compose_block_url(const compose_ctx *c, const char *address, char *url,
                      size_t cap);

#endif
