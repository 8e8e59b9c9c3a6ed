/*
 * inbound_answer.h - the reply being handled (inbound_act.c) and the
 * answers it gets, in plain words: what was done, or why nothing was.
 * Each answer goes to the seat's own address, never to the sender's
 * (a stranger holding a token cannot make us write to anyone else).
 */
#ifndef BT_INBOUND_ANSWER_H
#define BT_INBOUND_ANSWER_H

#include "inbound_act.h"
#include "inbound_mime.h"
#include "inbound_reply.h"
#include "menu.h"
#include "reply.h"

typedef struct inbound_job {
	const inbound_cfg *c;
	inbound_msg msg;
	char written[INBOUND_TEXT_MAX];
	inbound_reply reply;
	reply_token tok;
	char key[STORE_MESSAGE_ID_MAX + 1];  /* the Message-ID, or a hash */
	store_game g;
	menu menu;
	store_mail answer;                   /* to[0] == 0: none */
	store_error err;
	char why[256];                       /* the engine's, for answers */
	char *log;
	size_t cap;
} inbound_job;

/* Each writes j->answer.  answer_done returns 0 if a is legal now (the
 * answer says what it did; none when the seat's next email tells it,
 * so that a turn is one email), else -1 and writes nothing. */
int answer_done(inbound_job *j, const bt_action *a);
void answer_illegal(inbound_job *j);
void answer_look(inbound_job *j, bt_card card);
void answer_order_again(inbound_job *j);
void answer_not_understood(inbound_job *j, int why);
void answer_talk(inbound_job *j);
void answer_stale(inbound_job *j);
void answer_confirm(inbound_job *j);
/* The seat's own address, but our MTA says its domain's DMARC failed. */
void answer_forged(inbound_job *j);

#endif
