/*
 * inbound_act.c - a received reply, from its token to what it does (the
 * answers' words are in inbound_answer.c).
 *
 * Nothing here trusts the message: the token is the capability (a MAC
 * under the server key, as a seat link); the sender must also be the
 * seat's address (or pass DMARC at our own MTA, if the settings say to
 * trust it, and not fail it there), else the seat is asked to confirm
 * on the table.  Automatic mail (autoresponders, bounces, our own) is
 * never answered.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "authres.h"
#include "describe.h"
#include "inbound_act.h"
#include "inbound_answer.h"
#include "inbound_mime.h"
#include "inbound_reply.h"
#include "inbound_text.h"
#include "menu.h"
#include "reply.h"

/* Writes the log line; returns code. */
static int logf_(inbound_job *j, int code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static int logf_(inbound_job *j, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->log, j->cap, fmt, ap);
	va_end(ap);
	return code;
}

/* ---- whose reply -------------------------------------------------------- */

/* The token the reply was sent to: the address's +TOKEN, else a
 * Message-ID of ours it answers (clients that drop the plus part). */
static int find_token(const inbound_job *j, char out[REPLY_TOKEN_SIZE])
{
	const inbound_msg *m = &j->msg;

	for (int i = 0; i < m->n_rcpt; i++)
		if (reply_token_in_address(m->rcpt[i], j->c->reply_local,
		                           out) == 0)
			return 0;
	if (reply_token_in_msgid(m->in_reply_to, out) == 0)
		return 0;
	for (int i = m->n_refs - 1; i >= 0; i--)
		if (reply_token_in_msgid(m->refs[i], out) == 0)
			return 0;
	return -1;
}

/* The key the reply is remembered by: its Message-ID, or a hash of its
 * bytes (the same email delivered again has the same bytes). */
static void message_key(inbound_job *j, const char *raw, size_t len)
{
	unsigned char h[16];
	static const char hex[] = "0123456789abcdef";

	if (j->msg.message_id[0] &&
	    strlen(j->msg.message_id) <= STORE_MESSAGE_ID_MAX) {
		snprintf(j->key, sizeof j->key, "%s", j->msg.message_id);
		return;
	}
	crypto_generichash(h, sizeof h, (const unsigned char *)raw, len,
	                   NULL, 0);
	memcpy(j->key, "hash:", 5);
	for (size_t i = 0; i < sizeof h; i++) {
		j->key[5 + 2 * i] = hex[h[i] >> 4];
		j->key[6 + 2 * i] = hex[h[i] & 15];
	}
	j->key[5 + 2 * sizeof h] = '\0';
}

/* What our own MTA said of the From's DMARC. */
enum dmarc { DMARC_NONE, DMARC_PASS, DMARC_FAIL };

/* Our MTA's DMARC verdict on domain: read from the topmost
 * Authentication-Results whose authserv-id is the trusted one (our MTA
 * adds its own above the others; any below may be the sender's), and
 * from a dmarc result about domain there (or about no domain named).
 * A fail anywhere in it wins; a header cut at its bound may have lost
 * one, so it counts as a fail. */
static enum dmarc dmarc_verdict(const inbound_job *j, const char *domain)
{
	const char *trust = j->c->trust_authserv;
	authres a;

	if (!trust || !trust[0])
		return DMARC_NONE;
	for (int i = 0; i < j->msg.n_auth; i++) {
		const char *v = j->msg.auth[i];
		size_t n = strlen(v);
		enum dmarc verdict = DMARC_NONE;

		if (authres_parse(v, n, &a) != 0 ||
		    strcasecmp(a.authserv_id, trust) != 0)
			continue;
		if (j->msg.auth_cut[i])
			return DMARC_FAIL;
		for (int k = 0; k < a.n_results; k++) {
			const authres_result *r = &a.results[k];
			const char *from = authres_prop_value(r, "header", "from");

			if (strcmp(r->method, "dmarc") != 0 ||
			    (from && strcasecmp(from, domain) != 0))
				continue;
			if (strcmp(r->result, "fail") == 0)
				return DMARC_FAIL;
			if (strcmp(r->result, "pass") == 0)
				verdict = DMARC_PASS;
		}
		return verdict;
	}
	return DMARC_NONE;
}

/* 1 if the From is the seat's address. */
static int from_is_seat(const inbound_job *j)
{
	char from[STORE_EMAIL_MAX + 1], seat[STORE_EMAIL_MAX + 1];
	const char *addr = j->g.seats[j->tok.seat - 1].email;

	return addr[0] &&
	       store_address_key(j->msg.from, from, sizeof from) == 0 &&
	       store_address_key(addr, seat, sizeof seat) == 0 &&
	       strcmp(from, seat) == 0;
}

/* 1 if the reply may act for the seat: its From is the seat's, or our
 * MTA vouches for the From by DMARC; never if our MTA says the From's
 * domain failed DMARC (a forged From, even the seat's own). */
static int sender_ok(const inbound_job *j)
{
	const char *at = strrchr(j->msg.from, '@');
	enum dmarc d = dmarc_verdict(j, at ? at + 1 : "");

	if (d == DMARC_FAIL)
		return 0;
	return from_is_seat(j) || d == DMARC_PASS;
}

/* ---- doing it ----------------------------------------------------------- */

static int exit_for(store_rc rc)
{
	switch (rc) {
	case STORE_OK:
	case STORE_DUPLICATE:
		return INBOUND_EX_OK;
	case STORE_BUSY:
	case STORE_FULL:
		return INBOUND_EX_TEMPFAIL;
	default:
		return INBOUND_EX_SOFTWARE;
	}
}

/* Records the reply with its say lines and queues the answer (if any). */
static store_rc record(inbound_job *j, const char *outcome,
                       const bt_action *move, bt_card look, int *said,
                       int *held)
{
	store_reply r;

	memset(&r, 0, sizeof r);
	r.message_id = j->key;
	r.game = j->g.id;
	r.seat = j->tok.seat;
	r.outcome = outcome;
	for (int i = 0; i < j->reply.n_says && i < STORE_REPLY_SAYS; i++)
		r.says[r.n_says++] = j->reply.says[i];
	r.expected_seq = j->g.seq;
	r.move = move;
	r.look = look;
	r.mail_fn = compose_move;
	r.mail_ctx = (void *)j->c->compose;
	r.answer = j->answer.to[0] ? &j->answer : NULL;
	r.answer_held = held;
	return store_take_reply(j->c->st, &r, said, &j->err);
}

/* Does it and logs it; the answer is already written. */
static int finish(inbound_job *j, const char *outcome, const bt_action *move,
                  bt_card look)
{
	int said = 0, held = 0;
	store_rc rc = record(j, outcome, move, look, &said, &held);

	if (rc == STORE_DUPLICATE)
		return logf_(j, INBOUND_EX_OK, "game %s seat %d: %s again: "
		             "handled before", j->g.id, j->tok.seat, j->key);
	if (rc != STORE_OK)
		return logf_(j, exit_for(rc), "game %s seat %d: %s: %s",
		             j->g.id, j->tok.seat, store_rc_name(rc),
		             j->err.why);
	return logf_(j, INBOUND_EX_OK, "game %s seat %d: %s (%d said)%s",
	             j->g.id, j->tok.seat, outcome, said,
	             held ? "; no answer: the address had its answers for "
	                    "the day" : "");
}

/* The sweep's new order from "order 2 1 3", or -1. */
static int order_action(const inbound_job *j, bt_action *a)
{
	const bt_pile *deck = &j->g.state.shift_deck;
	int k = deck->n < BT_SWEEP_CARDS ? deck->n : BT_SWEEP_CARDS;
	int used = 0;

	if (j->reply.n_order != k)
		return -1;
	memset(a, 0, sizeof *a);
	a->seat = (uint8_t)j->tok.seat;
	a->verb = BT_SPECIAL;
	a->card = j->g.sweep_card;
	a->nargs = (uint8_t)k;
	for (int i = 0; i < k; i++) {
		int pick = j->reply.order[i];
		if (pick < 1 || pick > k || (used >> pick & 1))
			return -1;
		used |= 1 << pick;
		a->arg[i] = deck->c[deck->n - pick];
	}
	return 0;
}

/* The move the reply asks for, as a menu item index, or -1 (then the
 * answer says why). */
static int chosen(inbound_job *j)
{
	const char *names[BT_MAX_PLAYERS] = { 0 };

	for (int s = 1; s <= j->g.players; s++)
		names[s - 1] = j->g.seats[s - 1].name[0]
		               ? j->g.seats[s - 1].name : NULL;
	if (menu_build(&j->g.state, j->tok.seat, names, &j->menu) < 0)
		return -1;
	return menu_pick(&j->menu, j->reply.move, j->reply.words);
}

static int is_look(const bt_action *a)
{
	return a->verb == BT_SPECIAL &&
	       bt_card_get(a->card)->kind == BT_SENSOR_SWEEP;
}

/* The seat's own turn: a move, a look, an order, or an answer why not. */
static int play(inbound_job *j)
{
	bt_action a;
	int pick;

	if (j->g.sweep_card != BT_NO_CARD && j->g.sweep_seat == j->tok.seat) {
		if (order_action(j, &a) == 0 &&
		    answer_done(j, &a) == 0)
			return finish(j, "moved", &a, BT_NO_CARD);
		answer_order_again(j);
		return finish(j, "asked again", NULL, BT_NO_CARD);
	}
	if (!j->reply.move && !j->reply.words[0]) {
		answer_talk(j);
		return finish(j, j->reply.n_says ? "talk" : "answered", NULL,
		              BT_NO_CARD);
	}
	pick = chosen(j);
	if (pick < 0) {
		answer_not_understood(j, pick);
		return finish(j, "not understood", NULL, BT_NO_CARD);
	}
	a = j->menu.item[pick].a;
	if (is_look(&a)) {
		answer_look(j, a.card);
		return finish(j, "look", NULL, a.card);
	}
	if (answer_done(j, &a)) {
		answer_illegal(j);
		return finish(j, "illegal", NULL, BT_NO_CARD);
	}
	return finish(j, "moved", &a, BT_NO_CARD);
}

/* The token's game and seat, loaded; or an exit code. */
static int load_seat(inbound_job *j)
{
	char text[REPLY_TOKEN_SIZE];
	store_rc rc;

	if (find_token(j, text))
		return logf_(j, INBOUND_EX_NOUSER, "no token of ours in the "
		             "addresses or ids (from %.80s)", j->msg.from);
	if (reply_token_read(j->c->keys, text, strlen(text), &j->tok) !=
	    TOKEN_OK)
		return logf_(j, INBOUND_EX_NOUSER, "a token that is not ours "
		             "(from %.80s)", j->msg.from);
	rc = store_load(j->c->st, j->tok.game_id, &j->g, &j->err);
	if (rc == STORE_NOT_FOUND)
		return logf_(j, INBOUND_EX_NOUSER, "token for game %s, which "
		             "is not here", j->tok.game_id);
	if (rc != STORE_OK)
		return logf_(j, exit_for(rc), "loading game %s: %s",
		             j->tok.game_id, j->err.why);
	if (j->tok.seat < 1 || j->tok.seat > j->g.players ||
	    ((unsigned)j->g.seats[j->tok.seat - 1].token_gen & 0xffffu) !=
	    j->tok.gen16)
		return logf_(j, INBOUND_EX_NOUSER, "game %s seat %d: the link "
		             "was revoked", j->g.id, j->tok.seat);
	return -1;
}

/* What the reply gets: the seat's turn acted on, or an answer. */
static int act(inbound_job *j)
{
	int code = load_seat(j);

	if (code >= 0)
		return code;
	inbound_read_reply(j->written, &j->reply);
	if (!sender_ok(j)) {
		j->reply.n_says = 0;   /* not the seat's words either */
		if (from_is_seat(j))
			answer_forged(j);
		else
			answer_confirm(j);
		return finish(j, "unconfirmed sender", NULL, BT_NO_CARD);
	}
	if (j->g.state.status != BT_PLAYING ||
	    j->tok.seq16 != ((unsigned)j->g.seq & 0xffffu) ||
	    (int64_t)j->tok.expires_day < j->c->now / 86400 ||
	    j->g.state.turn != j->tok.seat) {
		answer_stale(j);
		return finish(j, "stale", NULL, BT_NO_CARD);
	}
	code = play(j);
	if (j->err.rc == STORE_CONFLICT || j->err.rc == STORE_ILLEGAL) {
		/* moved on between the load and the write: tell them */
		memset(&j->answer, 0, sizeof j->answer);
		answer_stale(j);
		code = finish(j, "stale", NULL, BT_NO_CARD);
	}
	return code;
}

int inbound_act(const inbound_cfg *c, const char *raw, size_t len,
                char *log, size_t cap)
{
	inbound_job *j = calloc(1, sizeof *j);
	char why[160];
	int code;

	if (!j) {
		snprintf(log, cap, "out of memory");
		return INBOUND_EX_TEMPFAIL;
	}
	j->c = c;
	j->log = log;
	j->cap = cap;
	if (inbound_parse(raw, len, &j->msg, why, sizeof why)) {
		code = logf_(j, INBOUND_EX_DATAERR, "unreadable: %s", why);
	} else if (j->msg.is_auto || j->msg.is_bounce) {
		code = logf_(j, INBOUND_EX_OK, "ignored: %s from %.80s",
		             j->msg.is_bounce ? "a bounce" : "automatic mail",
		             j->msg.from);
	} else {
		message_key(j, raw, len);
		inbound_written(j->msg.text, j->written, sizeof j->written);
		code = act(j);
	}
	sodium_memzero(j, sizeof *j);
	free(j);
	return code;
}
