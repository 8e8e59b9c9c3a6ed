/*
 * store_crew.c - a rematch chain is a crew: "play again" makes a new game
 * with the same seats and sets the old game's rematch to it, so a crew's
 * games are the chain back through the games whose rematch is this one
 * and on through rematch (store.h).  The walk keeps every id it met, so
 * a damaged chain (a cycle made by hand) ends instead of looping.
 */
#include <stdio.h>
#include <string.h>

#include "sql.h"

/* The ids met so far, back and forth: a walk never takes more steps
 * than this, whatever the data holds. */
typedef struct walk {
	char id[2 * STORE_CREW_MAX][STORE_ID_LEN + 1];
	int n;
} walk;

static int met(const walk *k, const char *id)
{
	for (int i = 0; i < k->n; i++)
		if (strcmp(k->id[i], id) == 0)
			return 1;
	return 0;
}

static int meet(walk *k, const char *id)
{
	if (k->n >= 2 * STORE_CREW_MAX)
		return -1;
	snprintf(k->id[k->n++], sizeof k->id[0], "%s", id);
	return 0;
}

/* The game whose rematch is id into prev ("" if none). */
static store_rc before(store *s, const char *id, char prev[STORE_ID_LEN + 1],
                       store_error *err)
{
	db_stmt *st = sql_get(s, SQL_CREW_BEFORE);

	prev[0] = '\0';
	db_bind_text(st, 1, id, -1);
	int rc = db_step(st);
	if (rc == DB_ROW &&
	    sql_column_text(st, 0, prev, STORE_ID_LEN + 1))
		prev[0] = '\0';         /* not an id of ours: the chain ends */
	db_reset(st);
	return rc == DB_ROW || rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading the crew", err);
}

/* 1 if a bot or a stand-in made one of game id's lines. */
static store_rc bot_lines(store *s, const char *id, int *any,
                          store_error *err)
{
	db_stmt *st = sql_get(s, SQL_CREW_BOT_LINES);

	db_bind_text(st, 1, id, -1);
	int rc = db_step(st);
	*any = rc == DB_ROW && db_column_int(st, 0) != 0;
	db_reset(st);
	return rc == DB_ROW ? STORE_OK
	       : store_db_fail(s, rc, "reading who made the moves", err);
}

/* One crew entry from loaded game g. */
static store_rc entry(store *s, const store_game *g, store_crew_game *e,
                      store_error *err)
{
	memset(e, 0, sizeof *e);
	snprintf(e->id, sizeof e->id, "%s", g->id);
	e->created = g->created;
	e->updated = g->updated;
	e->status = (bt_status)g->state.status;
	e->leisure = g->state.leisure;
	e->goal = bt_goal(&g->state);
	e->players = g->players;
	e->practice = g->practice;
	for (int i = 0; i < g->players && i < BT_MAX_PLAYERS; i++)
		if (g->seats[i].bot[0])
			e->bot_moved = 1;
	return e->bot_moved ? STORE_OK : bot_lines(s, g->id, &e->bot_moved, err);
}

/* Walks back from id at most steps games: the oldest reached into
 * first.  Every id met goes into k. */
static store_rc walk_back(store *s, const char *id, int steps, walk *k,
                          char first[STORE_ID_LEN + 1], store_error *err)
{
	char prev[STORE_ID_LEN + 1];
	store_rc rc;

	snprintf(first, STORE_ID_LEN + 1, "%s", id);
	if (meet(k, id))
		return STORE_OK;
	for (int i = 0; i < steps; i++) {
		if ((rc = before(s, first, prev, err)))
			return rc;
		if (!prev[0] || met(k, prev) || meet(k, prev))
			break;
		memcpy(first, prev, STORE_ID_LEN + 1);
	}
	return STORE_OK;
}

/* 1 if id is "" (no rematch) or one of the n games of out. */
static int listed(const store_crew_game *out, int n, const char *id)
{
	if (!id[0])
		return 1;
	for (int i = 0; i < n; i++)
		if (strcmp(out[i].id, id) == 0)
			return 1;
	return 0;
}

store_rc store_crew(store *s, const char *id, store_crew_game *out, int cap,
                    int *n, store_error *err)
{
	walk k;
	char at[STORE_ID_LEN + 1];
	store_game *g = s->scratch;
	store_rc rc;

	*n = 0;
	if (cap > STORE_CREW_MAX)
		cap = STORE_CREW_MAX;
	if (cap < 1)
		return store_fail(err, STORE_INVALID, "no room for a crew");
	if ((rc = store_load(s, id, g, err)))
		return rc;              /* STORE_NOT_FOUND: no such game */
	k.n = 0;
	if ((rc = walk_back(s, g->id, cap - 1, &k, at, err)))
		return rc;
	/* forwards from the oldest: each id once, so a cycle ends */
	while (at[0] && *n < cap) {
		if ((rc = store_load(s, at, g, err)) == STORE_NOT_FOUND)
			break;              /* a link to nothing: the chain ends */
		if (rc || (rc = entry(s, g, &out[*n], err)))
			return rc;
		(*n)++;
		if (listed(out, *n, g->rematch))
			break;
		memcpy(at, g->rematch, STORE_ID_LEN + 1);
	}
	return STORE_OK;
}

store_rc store_crew_place(store *s, const char *id, int *before_n,
                          store_error *err)
{
	walk k;
	char first[STORE_ID_LEN + 1];
	store_rc rc;

	*before_n = 0;
	if (!id || strlen(id) != STORE_ID_LEN)
		return store_fail(err, STORE_INVALID, "no game id");
	k.n = 0;
	if ((rc = walk_back(s, id, 2 * STORE_CREW_MAX - 1, &k, first, err)))
		return rc;
	*before_n = k.n - 1;        /* every game met but id itself */
	return STORE_OK;
}
