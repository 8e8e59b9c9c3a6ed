/*
 * reply_rig.h - what the tests of replies by email share: a scratch
 * database (fixture.h: a SQLite file or a PostgreSQL schema) with a 3-seat game (Ann, Ben, Cy, Ann first, made at
 * REPLY_RIG_T0), the keys, the composer and the settings that
 * `buffertime inbound` acts with, and the tokens of the seats' reply
 * addresses.
 */
#ifndef BT_REPLY_RIG_H
#define BT_REPLY_RIG_H

#include "compose.h"
#include "fixture.h"
#include "inbound_act.h"
#include "reply.h"
#include "store.h"

enum { REPLY_RIG_T0 = 1700000000, REPLY_RIG_SEATS = 3 };

typedef struct reply_rig {
	char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
	store *st;
	token_keys keys;
	compose_ctx compose;
	inbound_cfg cfg;                  /* .now: REPLY_RIG_T0 */
	char game[STORE_ID_LEN + 1];
	char log_line[512];               /* inbound_act's line */
	const char *emails[REPLY_RIG_SEATS];
} reply_rig;

extern reply_rig rig;

/* Makes the rig in a scratch folder named name, the clock at T0. */
void rig_open(const char *name);

/* Closes the store, removes the folder, gives the clock back. */
void rig_close(void);

/* The game as the store has it now (the test fails if it cannot). */
store_game *rig_load(void);

/* The token of seat's reply address as its turn email at seq has it. */
void rig_token(int seat, int seq, char out[REPLY_TOKEN_SIZE]);

/* One number from the rig's file (fixture_sql_value). */
long long rig_sql_value(const char *sql);

#endif
