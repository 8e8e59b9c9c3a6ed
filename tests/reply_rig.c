/*
 * reply_rig.c - the rig of the tests of replies (reply_rig.h).
 */
#include <stdio.h>

#include <check.h>
#include <sodium.h>

#include "reply_rig.h"

reply_rig rig;

void rig_open(const char *name)
{
	static const unsigned char master[TOKEN_KEY_BYTES] = { 7, 7, 7 };
	store_new_game ng = { .players = REPLY_RIG_SEATS, .first = 1,
	                      .seed = "42",
	                      .names = { "Ann", "Ben", "Cy" } };
	store_error err;

	ck_assert_int_ge(sodium_init(), 0);
	rig = (reply_rig){ .emails = { "ann@example.org", "ben@example.org",
	                               "cy@example.org" } };
	fixture_scratch(name, rig.dir, rig.path);
	rig.st = fixture_open(rig.path);
	fixture_clock(REPLY_RIG_T0);
	token_keys_derive(master, &rig.keys);
	rig.compose = (compose_ctx){ .st = rig.st, .keys = &rig.keys,
	                             .base_url = "http://bt.example/" };
	ck_assert_int_eq(compose_reply_address(&rig.compose,
	                                       "play@bt.example"), 0);
	rig.cfg = (inbound_cfg){ .st = rig.st, .compose = &rig.compose,
	                         .keys = &rig.keys, .reply_local = "play",
	                         .trust_authserv = "", .now = REPLY_RIG_T0 };
	for (int s = 0; s < REPLY_RIG_SEATS; s++)
		ng.emails[s] = rig.emails[s];
	ck_assert_msg(store_create(rig.st, &ng, rig.game, &err) == STORE_OK,
	              "%s", err.why);
}

void rig_close(void)
{
	store_close(rig.st);
	fixture_remove(rig.dir);
	fixture_clock(0);
}

store_game *rig_load(void)
{
	static store_game g;
	store_error err;

	ck_assert_msg(store_load(rig.st, rig.game, &g, &err) == STORE_OK,
	              "%s", err.why);
	return &g;
}

void rig_token(int seat, int seq, char out[REPLY_TOKEN_SIZE])
{
	store_game *g = rig_load();
	reply_token t = { .seat = seat, .seq16 = (unsigned)seq & 0xffff,
	                  .gen16 = (unsigned)g->seats[seat - 1].token_gen &
	                           0xffff,
	                  .expires_day = REPLY_RIG_T0 / 86400 + 30 };

	snprintf(t.game_id, sizeof t.game_id, "%s", rig.game);
	ck_assert_int_eq(reply_token_make(&rig.keys, &t, out), TOKEN_OK);
}

long long rig_sql_value(const char *sql)
{
	return fixture_sql_value(rig.path, sql);
}
