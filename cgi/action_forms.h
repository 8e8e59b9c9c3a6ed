/*
 * action_forms.h - the action forms of the seat to move: one form per legal
 * action the engine lists (bt_legal), each with the choices it needs,
 * posting to PREFIX g/ID/act with the fields page_act.c reads:
 *
 *	csrf    csrf_make(game, seat, gen)
 *	seq     the store_game.seq the page was rendered from
 *	action  work | log | side | special | look | order
 *	card    the card played (P07, X04)
 *	arg1    Cover Story's officer, Scale Back's side project,
 *	        Hand Off's card
 *	arg2    Hand Off's seat
 *	o1..o3  Sensor Sweep's order, top first (action=order)
 *
 * Forms are rendered through templates/form.html and select.html into
 * the worker's scratch buffers w->frag[1..3] (frag[0] belongs to the
 * page that calls these).
 */
#ifndef BT_ACTION_FORMS_H
#define BT_ACTION_FORMS_H

#include "web.h"

enum {
	FORMS_ARGS = 2,           /* arg1, arg2 */
	FORMS_SEQ_MAX = 16
};

typedef struct forms {
	int seat;
	char url[WEB_URL_MAX + 1];       /* PREFIX g/ID/act */
	char csrf[CSRF_TEXT_SIZE];
	char seq[FORMS_SEQ_MAX];
	int n;                           /* legal actions of seat */
	bt_action legal[BT_MAX_LEGAL];
	/* a practice table's hints for this turn (store_hints_get): each
	 * form shows its best option's chance of winning */
	int hints_wanted;                /* a practice table, seat's turn */
	int nhints;                      /* 0: not worked out yet */
	store_hint hint[STORE_HINTS_MAX];
} forms;

/* Prepares f for seat in w->game: the URL, the CSRF token and, if it is
 * seat's turn, the legal actions (and on a practice table their hints,
 * if the worker has them).  Returns WEB_OK or WEB_INTERNAL. */
web_err forms_init(web *w, int seat, forms *f);

/* Appends the forms of the actions without a card (get to work, with the
 * reprimand risk; log) to o.  *count gets how many. */
web_err forms_turn(web *w, const forms *f, out *o, int *count);

/* Writes the form that plays card c (a Side Project or an Ability in
 * seat's hand) into o, or nothing if c has no legal play now; *any is
 * set to whether it wrote one. */
web_err forms_card(web *w, const forms *f, bt_card c, out *o, int *any);

/* Appends the form that sets the order of the top Shift cards seat is
 * looking at (after action=look) to o. */
web_err forms_order(web *w, const forms *f, out *o);

/* num/den as a percentage for people: "25%", "8.3%" (den > 0). */
void forms_percent(int num, int den, char *buf, size_t cap);

#endif
