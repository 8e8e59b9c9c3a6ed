/*
 * inbound_answer.c - the answers to replies: short, plain, and always
 * with the way on (the menu again, or the table's link).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compose_menu.h"
#include "describe.h"
#include "inbound_answer.h"
#include "store_talk.h"
#include "utf8.h"

static void put(inbound_job *j, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Appends to the answer's body; a body that would overflow is cut at a
 * character boundary (the link comes early, so it survives). */
static void put(inbound_job *j, const char *fmt, ...)
{
	char *body = j->answer.body;
	size_t len = strlen(body), cap = sizeof j->answer.body;
	va_list ap;

	if (len + 1 >= cap)
		return;
	va_start(ap, fmt);
	vsnprintf(body + len, cap - len, fmt, ap);
	va_end(ap);
	utf8_cut_valid(body);
}

/* The answer's Subject: "Re: " and one of ours.  The reply's own is
 * taken up (keeping the thread) only if, without its "Re:"s, it is one
 * we sent that seat: anyone who has a seat's token could otherwise have
 * us mail its address words of their choosing. */
static void answer_subject(inbound_job *j, store_mail *m)
{
	const char *s = j->msg.subject;

	for (int i = 0; i < 8 && strncasecmp(s, "re:", 3) == 0; i++) {
		s += 3;
		while (*s == ' ' || *s == '\t')
			s++;
	}
	if (store_mailed_subject(j->c->st, j->g.id, j->tok.seat, m->to, s))
		snprintf(m->subject, sizeof m->subject, "Re: %.190s", s);
	else
		snprintf(m->subject, sizeof m->subject, "Re: Buffer Time");
	utf8_cut_valid(m->subject);
}

/* Starts the answer: to the seat's address, "Re: " one of our
 * Subjects. */
static void begin(inbound_job *j)
{
	store_mail *m = &j->answer;

	memset(m, 0, sizeof *m);
	m->seat = j->tok.seat;
	snprintf(m->kind, sizeof m->kind, "answer");
	snprintf(m->to, sizeof m->to, "%s", j->g.seats[j->tok.seat - 1].email);
	answer_subject(j, m);
}

static void put_link(inbound_job *j)
{
	char url[512];

	if (compose_seat_url(j->c->compose, &j->g, j->tok.seat, url,
	                     sizeof url) == 0)
		put(j, "\nThe table: %s\n", url);
}

static const char *name_of(inbound_job *j, int seat, char *buf, size_t cap)
{
	return describe_seat(&j->g, seat, buf, cap);
}

/* The seat's menu in state s at sequence number seq, as the turn email
 * has it, and the Reply-To for that turn, so the answer can be answered
 * (only the address while a Sensor Sweep waits for its order). */
static void put_menu_at(inbound_job *j, const bt_game *s, int seq,
                        int waiting)
{
	store_mail *m = &j->answer;

	put(j, "\n");
	if (compose_menu(j->c->compose, &j->g, s, j->tok.seat, seq, waiting, m,
	                 strlen(m->body)))
		m->reply_to[0] = '\0';
}

static void put_menu(inbound_job *j)
{
	put_menu_at(j, &j->g.state, j->g.seq, j->g.sweep_card != BT_NO_CARD);
}

/* An answer that leaves the seat nothing to move keeps the thread all
 * the same: its Reply-To (at seq) takes say: lines for the table. */
static void put_say_address(inbound_job *j, int seq)
{
	store_mail *m = &j->answer;

	if (compose_reply_only(j->c->compose, &j->g, j->tok.seat, seq, m) == 0
	    && m->reply_to[0])
		put(j, "\nYou can reply to this email with lines starting say: "
		    "for the table.\n");
}

/* 1 if the seat hears of its move after in the email the move itself
 * brings it (the result, to every seat with an address) or in its next
 * turn email, which opens with its last move (compose.c): an answer too
 * would make two emails a turn.  Who gets turn emails is compose.h's. */
static int told_later(const inbound_job *j, const bt_game *after)
{
	const store_seat *p = &j->g.seats[j->tok.seat - 1];

	if (!p->email[0] || p->blocked || p->notify == STORE_NOTIFY_NONE)
		return 0;
	if (after->status != BT_PLAYING)
		return 1;
	return after->turn != j->tok.seat && (p->notify == STORE_NOTIFY_EVERY
	       || p->notify == STORE_NOTIFY_TURN);
}

int answer_done(inbound_job *j, const bt_action *a)
{
	bt_game after = j->g.state;
	bt_error gerr;
	char what[DESCRIBE_MAX], name[64];

	if (bt_apply(&after, a, &gerr)) {
		snprintf(j->why, sizeof j->why, "%s", gerr.why);
		return -1;
	}
	if (told_later(j, &after))
		return 0;       /* j->answer stays empty: no answer */
	/* told to the mover: "you got to work", "into your hand" */
	describe_own_action(&j->g.state, &after, a, &j->g, what, sizeof what);
	begin(j);
	put(j, "Done: %s.\n", what);
	if (after.status == BT_PLAYING && after.turn == j->tok.seat) {
		put(j, "Next: you again.\n");
		put_link(j);
		put_menu_at(j, &after, j->g.seq + 1, 0);
		return 0;
	}
	if (after.status == BT_PLAYING)
		put(j, "Next: %s.\n", name_of(j, after.turn, name, sizeof name));
	put_link(j);
	put_say_address(j, j->g.seq + 1);
	return 0;
}

void answer_illegal(inbound_job *j)
{
	begin(j);
	put(j, "That move cannot be made now: %s. Nothing was done.\n",
	    j->why[0] ? j->why : "the rules do not allow it");
	put_link(j);
	put_menu(j);
}

void answer_look(inbound_job *j, bt_card card)
{
	const bt_pile *deck = &j->g.state.shift_deck;
	int k = deck->n < BT_SWEEP_CARDS ? deck->n : BT_SWEEP_CARDS;
	char c[DESCRIBE_MAX];

	begin(j);
	put(j, "You played %s. Only you see these cards, the top of the "
	       "Shift Deck, top first:\n", bt_card_get(card)->name);
	for (int i = 0; i < k; i++) {
		describe_card(deck->c[deck->n - 1 - i], c, sizeof c);
		put(j, "%d. %s\n", i + 1, c);
	}
	put(j, "\nReply with the order to put them back in, top first: for "
	       "example \"order %s\".\n", k == 3 ? "3 1 2" : k == 2 ? "2 1"
	                                                          : "1");
	put_link(j);
	/* the look is recorded with this answer: only the address */
	put_menu_at(j, &j->g.state, j->g.seq, 1);
}

void answer_order_again(inbound_job *j)
{
	const bt_pile *deck = &j->g.state.shift_deck;
	int k = deck->n < BT_SWEEP_CARDS ? deck->n : BT_SWEEP_CARDS;

	answer_look(j, j->g.sweep_card);
	put(j, "\n(Your reply did not give an order of the %d cards: write "
	       "each number once, like the example.)\n", k);
}

void answer_not_understood(inbound_job *j, int why)
{
	begin(j);
	if (why == -2)
		put(j, "Your words \"%s\" fit more than one move: reply with "
		       "its number instead. Nothing was done.\n",
		    j->reply.words);
	else if (j->reply.move)
		put(j, "There is no move %d. Nothing was done.\n",
		    j->reply.move);
	else
		put(j, "We could not read a move in \"%s\". Nothing was "
		       "done.\n", j->reply.words);
	put_menu(j);
	put_link(j);
}

/* What becomes of the reply's say: lines: said (in the words given), or
 * not, or not all, once the game has had all its talk (the store's cap,
 * read before the reply is done: the store holds to it). */
static void put_said(inbound_job *j, const char *said)
{
	store_error err;
	int left = STORE_REPLY_SAYS;

	if (store_chat_left(j->c->st, j->g.id, &left, &err) != STORE_OK ||
	    left >= j->reply.n_says)
		put(j, "%s", said);
	else if (left == 0)
		put(j, "This game has had all the table talk one game may "
		       "have, so your say: lines were not added.\n");
	else
		put(j, "Only your first %d say: line%s went on the table: "
		       "then this game had all the table talk one game may "
		       "have.\n", left, left == 1 ? "" : "s");
}

void answer_talk(inbound_job *j)
{
	char said[96];

	begin(j);
	if (j->reply.several[0])
		put(j, "Your reply \"%s\" names more than one move, so nothing "
		       "was done: reply with the number of just one.\n",
		    j->reply.several);
	snprintf(said, sizeof said, "Your words are on the table (at most %d "
	         "messages a minute).\n", STORE_CHAT_BURST);
	if (j->reply.n_says)
		put_said(j, said);
	else if (!j->reply.several[0])
		put(j, "Your reply had no move in it. Nothing was done.\n");
	put_menu(j);
	put_link(j);
}

void answer_stale(inbound_job *j)
{
	char name[64];

	begin(j);
	if (j->g.state.status != BT_PLAYING)
		put(j, "That game is over: nothing was done.\n");
	else if (j->g.state.turn != j->tok.seat)
		put(j, "The game has moved on since that email, and it is "
		       "%s's turn now: nothing was done.\n",
		    name_of(j, j->g.state.turn, name, sizeof name));
	else
		put(j, "That email was about an earlier turn: nothing was "
		       "done. It is your turn now.\n");
	if (j->reply.n_says)
		put_said(j, "Your say: lines are on the table.\n");
	put_link(j);
	if (j->g.state.status == BT_PLAYING && j->g.state.turn == j->tok.seat &&
	    j->g.sweep_card == BT_NO_CARD)
		put_menu(j);
	else
		put_say_address(j, j->g.seq);
}

void answer_confirm(inbound_job *j)
{
	begin(j);
	put(j, "A reply to your Buffer Time email came from %s, which is "
	       "not your address, so nothing was done. If it was you, take "
	       "your turn on the table:\n", j->msg.from[0] ? j->msg.from
	                                                  : "an unknown sender");
	put_link(j);
}

void answer_forged(inbound_job *j)
{
	begin(j);
	put(j, "A reply to your Buffer Time email gave your address as its "
	       "sender, but the mail server here found it was not sent from "
	       "your mailbox, so nothing was done. If it was you, take your "
	       "turn on the table:\n");
	put_link(j);
}
