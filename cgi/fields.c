/*
 * fields.c - the table of fields (fields.h).  Each line says who writes
 * the field; a handler's further checks (a move number within the game,
 * a card of the right type) stay with the handler.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "game.h"
#include "query.h"
#include "store.h"
#include "store_bots.h"
#include "token.h"

#define TEXT(n) { (n), FIELD_KIND_TEXT, 0, 0, 0 }
#define INT(n, lo, hi) { (n), FIELD_KIND_INT, (lo), (hi), 0 }

static const field_spec specs[FIELD__COUNT] = {
	/* every form that changes a game (templates/form.html, table.html,
	 * talk.html, settings.html; action_forms.c fills them) */
	[FIELD_CSRF] = TEXT("csrf"),
	[FIELD_SEQ] = INT("seq", 0, INT_MAX),
	/* action_forms.c: work, log, side, special, look, order */
	[FIELD_ACTION] = TEXT("action"),
	[FIELD_CARD] = TEXT("card"),            /* a card id: P07, X04 */
	/* templates/select.html, named by action_forms.c: a card id (read
	 * as text), or Hand Off's seat */
	[FIELD_ARG1] = INT("arg1", 1, BT_MAX_PLAYERS),
	[FIELD_ARG2] = INT("arg2", 1, BT_MAX_PLAYERS),
	[FIELD_ORDER] = TEXT("order"),          /* templates/order.html */
	[FIELD_TEXT] = TEXT("text"),            /* templates/talk.html */
	[FIELD_NOTIFY] = TEXT("notify"),        /* templates/settings.html */
	[FIELD_SHOW] = TEXT("show"),
	[FIELD_SIGNOUT] = TEXT("signout"),
	/* templates/signin.html (with k, the link's key) */
	[FIELD_SIGNIN_ADDRESS] = TEXT("address"),
	/* settings.html's push form, filled in by static/push.js */
	[FIELD_PUSH] = TEXT("push"),
	[FIELD_ENDPOINT] = TEXT("endpoint"),
	[FIELD_P256DH] = TEXT("p256dh"),
	[FIELD_AUTH] = TEXT("auth"),
	[FIELD_HOOK] = TEXT("hook"),
	[FIELD_HOOK_ADDRESS] = TEXT("hook_address"),
	[FIELD_HOOK_KIND] = TEXT("hook_kind"),
	/* templates/home.html: the new-game form */
	[FIELD_ONCE] = TEXT("once"),
	[FIELD_INVITE] = TEXT("invite"),
	/* no template: a script may say how many rows it means */
	[FIELD_PLAYERS] = INT("players", BT_MIN_PLAYERS, BT_MAX_PLAYERS),
	/* a row, or "random" or "complaint" (read as text first) */
	[FIELD_FIRST] = INT("first", 1, BT_MAX_PLAYERS),
	[FIELD_REMIND] = INT("remind", 1, 720), /* hours: STORE_REMIND_MAX */
	[FIELD_STANDIN] = TEXT("standin"),
	[FIELD_STANDIN_DAYS] = INT("standin_days", 1, STORE_STANDIN_DAYS_MAX),
	[FIELD_PRACTICE] = TEXT("practice"),
	[FIELD_NAME] = { "name", FIELD_KIND_TEXT, 0, 0, BT_MAX_PLAYERS },
	[FIELD_EMAIL] = { "email", FIELD_KIND_TEXT, 0, 0, BT_MAX_PLAYERS },
	[FIELD_BOT] = { "bot", FIELD_KIND_TEXT, 0, 0, BT_MAX_PLAYERS },
	/* minutes since one complained about work: some 190 years */
	[FIELD_MINUTES] = { "minutes", FIELD_KIND_INT, 0, 100000000,
	                    BT_MAX_PLAYERS },
	[FIELD_LIST_UNSUBSCRIBE] = TEXT("List-Unsubscribe"),
	/* the query strings of links: page_history.c, page_feed.c (at),
	 * the redirects of the handlers (m, t, c, again), the emails'
	 * links (mail/compose_links.c: k, s, a) */
	[FIELD_AT] = INT(QUERY_AT, 0, INT_MAX),
	[FIELD_NOTICE] = TEXT(QUERY_NOTICE),
	[FIELD_TOKEN] = TEXT(QUERY_TOKEN),
	[FIELD_CONFIRMED] = TEXT(QUERY_CONFIRMED),
	[FIELD_AGAIN] = TEXT(QUERY_AGAIN),
	[FIELD_KEY] = TEXT(QUERY_KEY),
	[FIELD_SEAT] = INT(QUERY_SEAT, 1, TOKEN_SEAT_MAX),
	[FIELD_ADDRESS] = TEXT(QUERY_ADDRESS),
};

_Static_assert(720 * 3600 == STORE_REMIND_MAX, "remind hours");

const field_spec *field_get(field_id id)
{
	return id >= 0 && id < FIELD__COUNT ? &specs[id] : NULL;
}

/* "name3" is row 3 of "name"; 0 if key is not a row of spec. */
static int row_of(const field_spec *spec, const char *key)
{
	size_t n = strlen(spec->name);

	if (!spec->rows || strncmp(key, spec->name, n) != 0 ||
	    key[n] < '1' || key[n] > '9' || key[n + 1] != '\0')
		return 0;
	return key[n] - '0' <= spec->rows ? key[n] - '0' : 0;
}

field_id field_find(const char *name)
{
	for (int i = 0; name && i < FIELD__COUNT; i++)
		if (specs[i].rows ? row_of(&specs[i], name) > 0
		                  : strcmp(specs[i].name, name) == 0)
			return (field_id)i;
	return FIELD__COUNT;
}

const char *field_text(const form *f, field_id id)
{
	const field_spec *spec = field_get(id);

	return spec && !spec->rows ? form_get(f, spec->name) : NULL;
}

form_rc field_int(const form *f, field_id id, int64_t *v)
{
	const field_spec *spec = field_get(id);

	if (!spec || spec->rows || spec->kind != FIELD_KIND_INT)
		return FORM_MISSING;
	return form_get_int(f, spec->name, spec->min, spec->max, v);
}

/* Row row of spec's name in key (cap bytes); 0, or -1 if there is no
 * such row. */
static int row_key(const field_spec *spec, int row, char *key, size_t cap)
{
	if (!spec || !spec->rows || row < 1 || row > spec->rows)
		return -1;
	snprintf(key, cap, "%s%d", spec->name, row);
	return 0;
}

const char *field_row_text(const form *f, field_id id, int row)
{
	char key[FIELD_NAME_MAX];

	return row_key(field_get(id), row, key, sizeof key) ? NULL
	                                                    : form_get(f, key);
}

form_rc field_row_int(const form *f, field_id id, int row, int64_t *v)
{
	const field_spec *spec = field_get(id);
	char key[FIELD_NAME_MAX];

	if (row_key(spec, row, key, sizeof key) ||
	    spec->kind != FIELD_KIND_INT)
		return FORM_MISSING;
	return form_get_int(f, key, spec->min, spec->max, v);
}
