/*
 * check_config.c - the settings file's checks that keep a public server
 * safe (who may make games, the invitation code, the limits) and the
 * client keys the limits count by.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "client.h"
#include "conf.h"

/* conf_set then conf_finish on the defaults: 0 or -1 with why. */
static int try_set(const char *key, const char *value, conf *c, char *why,
                   size_t cap)
{
	conf_defaults(c);
	if (conf_set(c, key, value, why, cap))
		return -1;
	return conf_finish(c, why, cap);
}

START_TEST(test_config_safe_defaults)
{
	conf c;
	char why[CONF_WHY_MAX];

	conf_defaults(&c);
	ck_assert_int_eq(conf_finish(&c, why, sizeof why), 0);
	ck_assert_str_eq(c.create, "code");
	ck_assert_str_eq(c.invite_code, "");
	ck_assert_int_eq(c.games_per_hour, 10);
	ck_assert_int_eq(c.seat_mails_per_day, 3);
	ck_assert_int_eq(c.address_mails_per_hour, 200);
	ck_assert_int_eq(c.address_mails_per_day, 1000);
}
END_TEST

START_TEST(test_config_create_modes)
{
	conf c;
	char why[CONF_WHY_MAX];

	ck_assert_int_eq(try_set("create", "open", &c, why, sizeof why), 0);
	ck_assert_int_eq(try_set("create", "admin", &c, why, sizeof why), 0);
	ck_assert_int_eq(try_set("create", "code", &c, why, sizeof why), 0);
	ck_assert_int_eq(try_set("create", "Open", &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "open, code or admin"));
	ck_assert_int_eq(try_set("create", "anyone", &c, why, sizeof why), -1);
}
END_TEST

START_TEST(test_config_invite_code)
{
	conf c;
	char why[CONF_WHY_MAX], long_code[CONF_CODE_MAX + 2];

	ck_assert_int_eq(try_set("invite_code", "sesame-4711", &c, why,
	                         sizeof why), 0);
	ck_assert_str_eq(c.invite_code, "sesame-4711");
	ck_assert_int_eq(try_set("invite_code", "short", &c, why, sizeof why),
	                 -1);
	ck_assert_ptr_nonnull(strstr(why, "invite_code must be"));
	ck_assert_int_eq(try_set("invite_code", "two words here", &c, why,
	                         sizeof why), -1);
	ck_assert_int_eq(try_set("invite_code", "quoted\"code1", &c, why,
	                         sizeof why), -1);
	ck_assert_int_eq(try_set("invite_code", "caf\xc3\xa9-code", &c, why,
	                         sizeof why), -1);
	memset(long_code, 'x', sizeof long_code - 1);
	long_code[sizeof long_code - 1] = '\0';
	ck_assert_int_eq(try_set("invite_code", long_code, &c, why, sizeof why),
	                 -1);
}
END_TEST

START_TEST(test_config_limits)
{
	conf c;
	char why[CONF_WHY_MAX];

	ck_assert_int_eq(try_set("games_per_hour", "0", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.games_per_hour, 0);
	ck_assert_int_eq(try_set("seat_mails_per_day", "25", &c, why,
	                         sizeof why), 0);
	ck_assert_int_eq(c.seat_mails_per_day, 25);
	ck_assert_int_eq(try_set("games_per_hour", "-1", &c, why, sizeof why),
	                 -1);
	ck_assert_int_eq(try_set("seat_mails_per_day", "lots", &c, why,
	                         sizeof why), -1);
	ck_assert_int_eq(try_set("games_per_hour", "100001", &c, why,
	                         sizeof why), -1);
	ck_assert_int_eq(try_set("address_mails_per_hour", "0", &c, why,
	                         sizeof why), 0);
	ck_assert_int_eq(c.address_mails_per_hour, 0);
	ck_assert_int_eq(try_set("address_mails_per_day", "-5", &c, why,
	                         sizeof why), -1);
	/* table talk always has a cap (issue 24) */
	ck_assert_int_eq(c.talk_per_game, 2000);
	ck_assert_int_eq(try_set("talk_per_game", "50", &c, why, sizeof why),
	                 0);
	ck_assert_int_eq(c.talk_per_game, 50);
	ck_assert_int_eq(try_set("talk_per_game", "0", &c, why, sizeof why),
	                 -1);
	ck_assert_int_eq(try_set("talk_per_game", "100001", &c, why,
	                         sizeof why), -1);
}
END_TEST

static const struct {
	const char *addr, *key;
} client_cases[] = {
	{ "192.0.2.7", "192.0.2.7" },
	{ "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64" },
	{ "2001:db8:1:2::99", "2001:db8:1:2::/64" },
	{ "::ffff:192.0.2.7", "192.0.2.7" },
	{ "::1", "::/64" },
	{ "", "unknown" },
	{ "192.0.2.300", "unknown" },
	{ "10.0.0.1, 10.0.0.2", "unknown" },
	{ "not an address", "unknown" },
};

START_TEST(test_client_keys)
{
	char key[CLIENT_KEY_MAX];

	client_key(client_cases[_i].addr, key);
	ck_assert_str_eq(key, client_cases[_i].key);
}
END_TEST

START_TEST(test_client_key_without_address)
{
	char key[CLIENT_KEY_MAX], huge[400];

	client_key(NULL, key);
	ck_assert_str_eq(key, "unknown");
	memset(huge, '1', sizeof huge - 1);
	huge[sizeof huge - 1] = '\0';
	client_key(huge, key);
	ck_assert_str_eq(key, "unknown");
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("config");

	tcase_add_test(tc, test_config_safe_defaults);
	tcase_add_test(tc, test_config_create_modes);
	tcase_add_test(tc, test_config_invite_code);
	tcase_add_test(tc, test_config_limits);
	tcase_add_loop_test(tc, test_client_keys, 0,
	                    (int)(sizeof client_cases / sizeof client_cases[0]));
	tcase_add_test(tc, test_client_key_without_address);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(config_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
