/*
 * page_again.c - POST PREFIX g/ID/again: play again, once the game is
 * over.  The store makes one new game with the same seats (names,
 * emails, mail settings), the First Player passing left and a new seed
 * (store_rematch); every later press, by any seat, finds that same game.
 * The press that made it queues every seat's new link by email
 * (compose_seat), in the transaction that makes the game; then each
 * presser is sent on to their own seat of the
 * new game (g/NEW?t=TOKEN, the same seat number), which sets its cookie.
 *
 * Guard: the seat's cookie and its CSRF token.  A game still in play is
 * a 409.  The new game counts against the presser's client address as
 * the new-game form's does (games_per_hour: a 429 saying when), so a
 * chain of rematches is no way around that limit.
 */
#include <stdio.h>

#include "mail_ctx.h"
#include "query.h"
#include "web.h"

/* What the rematch's seat emails are composed with. */
typedef struct again_mail {
	compose_ctx c;
	const char *old_id;
} again_mail;

/* A store_seat_mail_fn: seat's link to the rematch of old_id. */
static int seat_mail(void *ctx, const store_game *g, int seat,
                     store_mail *m)
{
	const again_mail *am = ctx;

	return compose_seat(&am->c, g, seat, am->old_id, m);
}

web_err page_again(web *w)
{
	static store_game ng;
	char id[STORE_ID_LEN + 1], tok[TOKEN_TEXT_SIZE];
	char to[STORE_ID_LEN + TOKEN_TEXT_SIZE + 16];
	store_error err;
	int seat;
	web_err e;

	/* guard */
	if ((e = seat_form_guard(w, "", &seat)))
		return e;
	if (w->game.state.status == BT_PLAYING) {
		snprintf(w->why, sizeof w->why, "The game is not over yet: "
		         "finish it first.");
		return WEB_ILLEGAL;
	}
	/* do it */
	again_mail am = { .old_id = w->game.id };
	web_compose(w, &am.c);
	if (store_rematch(w->st, w->game.id, w->rq.client, seat_mail, &am, id,
	                  NULL, &err) != STORE_OK ||
	    store_load(w->st, id, &ng, &err) != STORE_OK) {
		if (err.rc != STORE_INVALID)
			return web_store_err(w, __func__, &err);
		snprintf(w->why, sizeof w->why, "%s", err.why);
		return WEB_ILLEGAL;
	}
	if (seat > ng.players ||
	    token_make(&w->keys, ng.id, seat, ng.seats[seat - 1].token_gen,
	               tok, sizeof tok) != TOKEN_OK) {
		web_log(w, __func__, "no seat %d link in game %s", seat, ng.id);
		return WEB_INTERNAL;
	}
	snprintf(to, sizeof to, "g/%s?" QUERY_TOKEN "=%s", ng.id, tok);
	return resp_redirect(w, to);
}
