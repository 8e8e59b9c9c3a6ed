/*
 * fields.h - every field a page reads from a form body or a query
 * string, declared once (cgi/fields.c): its name, as the template or the
 * code that writes it into the page or the link spells it, its kind and
 * its bounds, as kcgi's key table does.  Handlers read fields only
 * through field_text and field_int, never by a name of their own, so a
 * renamed field cannot leave a reader behind, and tests/check_web.c
 * holds every name="..." of the templates to this table.
 */
#ifndef BT_FIELDS_H
#define BT_FIELDS_H

#include <stdint.h>

#include "input.h"

typedef enum field_id {
	/* the action forms (templates/form.html, select.html, order.html,
	 * written by action_forms.c) and every form that changes a game */
	FIELD_CSRF,
	FIELD_SEQ,
	FIELD_ACTION,
	FIELD_CARD,
	FIELD_ARG1,
	FIELD_ARG2,
	FIELD_ORDER,
	FIELD_TEXT,          /* table talk (templates/talk.html) */
	FIELD_NOTIFY,        /* settings (templates/settings.html) */
	FIELD_SHOW,
	FIELD_SIGNOUT,       /* settings.html: a browser's sign-in id, "all" */
	FIELD_SIGNIN_ADDRESS, /* templates/signin.html: whose games */
	FIELD_PUSH,          /* settings.html's push form: on | off */
	FIELD_ENDPOINT,      /* ... a browser's push subscription */
	FIELD_P256DH,
	FIELD_AUTH,
	FIELD_HOOK,          /* settings.html's chat form: on | off */
	FIELD_HOOK_ADDRESS,  /* ... the webhook's URL */
	FIELD_HOOK_KIND,     /* ... discord, slack, ..., or "" to guess */
	/* the new-game form (templates/home.html) */
	FIELD_ONCE,
	FIELD_INVITE,
	FIELD_PLAYERS,
	FIELD_FIRST,
	FIELD_REMIND,
	FIELD_STANDIN,
	FIELD_STANDIN_DAYS,
	FIELD_PRACTICE,
	FIELD_NAME,          /* rows: name1..name6 (field_row) */
	FIELD_EMAIL,
	FIELD_BOT,
	FIELD_MINUTES,
	/* the unsubscribe page's button (templates/unsub.html) posts what
	 * a mail program's one-click unsubscribe posts (RFC 8058); any
	 * POST there unsubscribes, so it is written, never read */
	FIELD_LIST_UNSUBSCRIBE,
	/* query strings of the links the pages and the emails write */
	FIELD_AT,            /* ?at=N: the table after move N */
	FIELD_NOTICE,        /* ?m=stale|saved|full|slow: after a redirect */
	FIELD_TOKEN,         /* ?t=: a seat link's token */
	FIELD_CONFIRMED,     /* &c=1: "yes, this seat" on a shared browser */
	FIELD_AGAIN,         /* ?again=1: a game made by "play again" */
	FIELD_KEY,           /* ?k=: the key of a feed, watch or mail link */
	FIELD_SEAT,          /* ?s=N: the seat of a feed or unsubscribe link */
	FIELD_ADDRESS,       /* ?a=: the address of a block link */
	FIELD__COUNT
} field_id;

typedef enum field_kind {
	FIELD_KIND_TEXT,     /* any text input.h accepts */
	FIELD_KIND_INT       /* a decimal in [min, max] */
} field_kind;

typedef struct field_spec {
	const char *name;
	field_kind kind;
	int64_t min, max;    /* FIELD_KIND_INT */
	int rows;            /* 0, or the rows of a row field: NAME1..NAMEn */
} field_spec;

enum { FIELD_NAME_MAX = 24 };   /* bytes of a name, a row's with it */

/* The declaration of id. */
const field_spec *field_get(field_id id);

/* The field named name (a row field's as "name3"), or FIELD__COUNT. */
field_id field_find(const char *name);

/* The value of id in f, or NULL if absent. */
const char *field_text(const form *f, field_id id);

/* id's value in f as its declared integer: FORM_OK, FORM_MISSING, or
 * FORM_BAD_NUMBER (not a decimal within the bounds). */
form_rc field_int(const form *f, field_id id, int64_t *v);

/* Row row (1-based) of row field id: its value, or NULL. */
const char *field_row_text(const form *f, field_id id, int row);

/* Row row of row field id as its declared integer, as field_int. */
form_rc field_row_int(const form *f, field_id id, int row, int64_t *v);

#endif
