/*
 * check_hook_format.c - the crew chat webhook's messages
 * (notify/hook_format.h): each kind's exact message for a plain event;
 * player text escaped where it lands and never in a header; the signature
 * recomputed and against a known answer; invalid UTF-8 replaced; a long
 * line cut between characters; what is refused; the kinds' names and the
 * guess from a URL, tricky hosts included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "hook_format.h"

#define URL "https://bt.example/g/AbC123"
#define LINE "Ben's turn \xe2\x80\x94 Round 3, risk 12%"
#define FFFD "\xef\xbf\xbd"
#define JSON "application/json"

static const hook_event plain = {
	.event = "turn", .game = "AbC123", .text = LINE, .url = URL,
	.name = "Ben", .seat = 2, .round = 3, .risk = 12, .result = "",
	.id = 42, .time = 1700000000
};

static unsigned char secret[HOOK_SECRET_BYTES];
static hook_message m;

static void setup(void)
{
	ck_assert_int_ge(sodium_init(), 0);
	for (int i = 0; i < HOOK_SECRET_BYTES; i++)
		secret[i] = (unsigned char)i;
	memset(&m, 'x', sizeof m);
}

/* Formats e as k, which must succeed, and checks the body's length. */
static void format(hook_kind k, const hook_event *e)
{
	ck_assert_int_eq(hook_format(k, e, secret, &m), 0);
	ck_assert_uint_eq(strlen(m.body), m.len);
	ck_assert_uint_lt(m.len, HOOK_BODY_MAX);
}

/* 1 if m's body is strict UTF-8 (no overlong, surrogate, too high or cut
 * sequence): written apart from the module's decoder. */
static int utf8_valid(void)
{
	static const unsigned min[] = { 0, 0x80, 0x800, 0x10000 };
	const unsigned char *s = (const unsigned char *)m.body;

	for (size_t i = 0, k, n = m.len; i < n; i += k + 1) {
		unsigned c = s[i];
		k = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 :
		    c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : 9;
		if (k == 9 || (k && k >= n - i))
			return 0;
		c &= k ? 0x3fu >> k : 0x7fu;
		for (size_t j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (s[i + j] & 0x3fu);
		}
		if (c < min[k] || c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
			return 0;
	}
	return 1;
}

START_TEST(test_plain_bodies)
{
	format(HOOK_DISCORD, &plain);
	ck_assert_str_eq(m.ctype, JSON);
	ck_assert_str_eq(m.body, "{\"content\":\"" LINE "\\n<" URL ">\","
	                 "\"allowed_mentions\":{\"parse\":[]}}");
	ck_assert_ptr_null(m.headers[0]);
	format(HOOK_SLACK, &plain);
	ck_assert_str_eq(m.ctype, JSON);
	ck_assert_str_eq(m.body, "{\"text\":\"" LINE " <" URL
	                 "|Open the table>\"}");
	ck_assert_ptr_null(m.headers[0]);
	format(HOOK_MATRIX, &plain);
	ck_assert_str_eq(m.ctype, JSON);
	ck_assert_str_eq(m.body, "{\"text\":\"" LINE " " URL "\",\"html\":\""
	                 "Ben&#39;s turn \xe2\x80\x94 Round 3, risk 12% "
	                 "<a href=\\\"" URL "\\\">Open the table</a>\","
	                 "\"username\":\"Buffer Time\"}");
	ck_assert_ptr_null(m.headers[0]);
	format(HOOK_NTFY, &plain);
	ck_assert_str_eq(m.ctype, "text/plain; charset=utf-8");
	ck_assert_str_eq(m.body, LINE);
	ck_assert_str_eq(m.headers[0], "Title: Buffer Time");
	ck_assert_str_eq(m.headers[1], "Click: " URL);
	ck_assert_str_eq(m.headers[2], "Tags: video_game");
	ck_assert_ptr_null(m.headers[3]);
}
END_TEST

START_TEST(test_escapes)
{
	hook_event e = plain;

	/* Discord: each mark after a backslash (which JSON doubles) */
	e.text = "*B_[x](h:y)@everyone`~|>#\\<@1>-";
	format(HOOK_DISCORD, &e);
	ck_assert_str_eq(m.body, "{\"content\":\""
	                 "\\\\*B\\\\_\\\\[x\\\\]\\\\(h\\\\:y\\\\)@everyone"
	                 "\\\\`\\\\~\\\\|\\\\>\\\\#\\\\\\\\\\\\<@1\\\\>\\\\-"
	                 "\\n<" URL ">\",\"allowed_mentions\":{\"parse\":[]}}");
	/* Slack: its three, in the URL too */
	e.text = "a & b <c> \"q\"";
	e.url = "https://bt.example/g/A?x=1&y=2";
	format(HOOK_SLACK, &e);
	ck_assert_str_eq(m.body, "{\"text\":\"a &amp; b &lt;c&gt; \\\"q\\\" "
	                 "<https://bt.example/g/A?x=1&amp;y=2|"
	                 "Open the table>\"}");
	/* Matrix: HTML's five in html, JSON's alone in text */
	e.text = "<b>Tom & 'Jerry' \"x\"</b>";
	e.url = URL;
	format(HOOK_MATRIX, &e);
	ck_assert_str_eq(m.body, "{\"text\":\"<b>Tom & 'Jerry' \\\"x\\\"</b> "
	                 URL "\",\"html\":\"&lt;b&gt;Tom &amp; &#39;Jerry&#39; "
	                 "&quot;x&quot;&lt;/b&gt; <a href=\\\"" URL "\\\">Open "
	                 "the table</a>\",\"username\":\"Buffer Time\"}");
	/* JSON: quotes, backslashes, controls */
	e.text = "a\"b\\c\x01\t\n\x7f";
	e.name = "\"Ben\"\x1f";
	format(HOOK_JSON, &e);
	ck_assert_ptr_nonnull(strstr(m.body, "\"text\":\"a\\\"b\\\\c\\u0001"
	                      "\\u0009\\u000a\\u007f\","));
	ck_assert_ptr_nonnull(strstr(m.body,
	                      "\"name\":\"\\\"Ben\\\"\\u001f\","));
	ck_assert_int_eq(hook_json_text("a\"\x01\xff", m.body, 20), 14);
	ck_assert_str_eq(m.body, "\"a\\\"\\u0001" FFFD "\"");
	ck_assert_int_eq(hook_json_text("abc", m.body, 5), -1);
	ck_assert_int_eq(hook_json_text("", m.body, 5), 2);
}
END_TEST

START_TEST(test_ntfy_headers_hold_no_player_text)
{
	static char longurl[300];
	hook_event e = plain;

	e.text = "Eve\r\nX-Evil: 1\x01 turn";
	e.name = "Eve\r\nX-Evil: 1";
	format(HOOK_NTFY, &e);
	for (int i = 0; m.headers[i]; i++) {
		ck_assert_ptr_null(strstr(m.headers[i], "Evil"));
		for (const char *p = m.headers[i]; *p; p++)
			ck_assert(*p >= 0x20 && *p < 0x7f);
	}
	/* the body is text: what would not show is U+FFFD, a newline stays */
	ck_assert_str_eq(m.body, "Eve" FFFD "\nX-Evil: 1" FFFD " turn");
	e.url = URL "\r\nX-Evil: 1";
	ck_assert_int_eq(hook_format(HOOK_NTFY, &e, NULL, &m), -1);
	/* a URL too long for the Click header, not for a body */
	memset(longurl, 'a', sizeof longurl - 1);
	memcpy(longurl, "https://", 8);
	e.url = longurl;
	ck_assert_int_eq(hook_format(HOOK_NTFY, &e, NULL, &m), -1);
	ck_assert_int_eq(hook_format(HOOK_DISCORD, &e, NULL, &m), 0);
}
END_TEST

/* 1 if m's signature header is the scheme's, computed here over
 * "time." + body, and the last header. */
static int signature_ok(long long t)
{
	static char signed_[32 + HOOK_BODY_MAX];
	unsigned char mac[crypto_auth_hmacsha256_BYTES];
	char hex[2 * sizeof mac + 1], want[100];
	int n = snprintf(signed_, sizeof signed_, "%lld.", t);

	memcpy(signed_ + n, m.body, m.len);
	crypto_auth_hmacsha256(mac, (unsigned char *)signed_,
	                       (size_t)n + m.len, secret);
	sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
	snprintf(want, sizeof want, "X-BufferTime-Signature: sha256=%s", hex);
	return m.headers[2] && strcmp(m.headers[2], want) == 0 &&
	       !m.headers[3];
}

START_TEST(test_json_signed)
{
	hook_event e = { .event = "over", .game = "AbC123",
		.text = "The crew won", .url = URL, .name = "", .round = 5,
		.risk = -1, .result = "won", .id = 43, .time = 1700000100 };

	format(HOOK_JSON, &plain);
	ck_assert_str_eq(m.ctype, JSON);
	ck_assert_str_eq(m.body, "{\"event\":\"turn\",\"game\":\"AbC123\","
	                 "\"id\":42,\"time\":1700000000,\"text\":\"" LINE "\","
	                 "\"url\":\"" URL "\",\"seat\":2,\"name\":\"Ben\","
	                 "\"round\":3,\"risk\":12,\"result\":null}");
	ck_assert_str_eq(m.headers[0], "X-BufferTime-Event: turn");
	ck_assert_str_eq(m.headers[1], "X-BufferTime-Timestamp: 1700000000");
	/* python3 -c 'import hmac,hashlib;b="{\"event\":\"turn\",\"game\":
	 * \"AbC123\",\"id\":42,\"time\":1700000000,\"text\":\"Ben\x27s turn
	 * \u2014 Round 3, risk 12%\",\"url\":\"https://bt.example/g/AbC123\",
	 * \"seat\":2,\"name\":\"Ben\",\"round\":3,\"risk\":12,\"result\":null}"
	 * .encode();print(hmac.new(bytes(range(32)),b"1700000000."+b,
	 * hashlib.sha256).hexdigest())'   (one line, without the breaks) */
	ck_assert_str_eq(m.headers[2], "X-BufferTime-Signature: sha256="
	                 "0511c576de2317137a8b237de57e24e3"
	                 "e083fdda5399ffac8865d799ee97a842");
	ck_assert(signature_ok(1700000000));
	/* bound to the body and to the time */
	m.body[10] ^= 1;
	ck_assert(!signature_ok(1700000000));
	m.body[10] ^= 1;
	ck_assert(!signature_ok(1700000001));
	format(HOOK_JSON, &e);
	ck_assert_str_eq(m.body, "{\"event\":\"over\",\"game\":\"AbC123\","
	                 "\"id\":43,\"time\":1700000100,"
	                 "\"text\":\"The crew won\",\"url\":\"" URL "\","
	                 "\"seat\":null,\"name\":null,\"round\":5,"
	                 "\"risk\":null,\"result\":\"won\"}");
	ck_assert_str_eq(m.headers[0], "X-BufferTime-Event: over");
	ck_assert(signature_ok(1700000100));
	ck_assert_int_eq(hook_format(HOOK_JSON, &e, NULL, &m), -1);
}
END_TEST

/* The characters Discord counts in the JSON string at s, to its closing
 * quote (no \u escapes in it): a backslash's pair is one. */
static long discord_chars(const char *s)
{
	long n = 0;

	for (unsigned char c; (c = (unsigned char)*s) && c != '"'; n++) {
		s += c == '\\' || (c >= 0xc0 && c < 0xe0) ? 2 :
		     c < 0x80 ? 1 : c < 0xf0 ? 3 : 4;
		n += c >= 0xf0;          /* two UTF-16 units */
	}
	return n;
}

/* A line cut between characters, within each limit; invalid UTF-8. */
START_TEST(test_utf8)
{
	static char text[10 * 1024 + 1];
	static const char unit[] = "a*\xe2\x82\xac\xf0\x9f\x98\x80";
	static const char *const ends[HOOK__MAX] = {
		[HOOK_DISCORD] = ">\",\"allowed_mentions\":{\"parse\":[]}}",
		[HOOK_SLACK] = "|Open the table>\"}",
		[HOOK_MATRIX] = "\">Open the table</a>\",\"username\":"
		                "\"Buffer Time\"}",
		[HOOK_NTFY] = "",
		[HOOK_JSON] = ",\"round\":3,\"risk\":12,\"result\":null}",
	};
	hook_event e = plain;
	size_t u = sizeof unit - 1, n;

	for (size_t i = 0; i + u < sizeof text; i += u)
		memcpy(text + i, unit, u);
	e.text = text;
	for (int k = 0; k < HOOK__MAX; k++) {
		format((hook_kind)k, &e);
		n = strlen(ends[k]);
		ck_assert_msg(utf8_valid(), "%d", k);
		ck_assert_str_eq(m.body + m.len - n, ends[k]);
		/* cut only where the next character (8 bytes at most,
		 * Matrix's two copies of an emoji) would not fit */
		if (k != HOOK_DISCORD)
			ck_assert_uint_gt(m.len, HOOK_BODY_MAX - 1 - 8);
	}
	/* Discord: within its 2,000 characters, and close to them */
	format(HOOK_DISCORD, &e);
	ck_assert_int_le(discord_chars(m.body + 12), 2000);
	ck_assert_int_gt(discord_chars(m.body + 12), 2000 - 3);
	/* Matrix: both copies cut at the same character (none escaped) */
	format(HOOK_MATRIX, &e);
	char *h = strstr(m.body, "\",\"html\":\""), *a = strstr(h, " <a href");
	ck_assert_int_eq(h - m.body - (long)strlen("{\"text\":\" " URL),
	                 a - h - (long)strlen("\",\"html\":\""));
	/* a JSON name is cut too */
	e.text = LINE;
	e.name = text;
	format(HOOK_JSON, &e);
	ck_assert(utf8_valid());
	ck_assert_uint_lt(m.len, 600);
	/* invalid UTF-8 replaced: cut, overlong, surrogate, lone
	 * continuation, too high */
	e.name = "Ben";
	e.text = "x\xc3+y\xe2\x82z\xed\xa0\x80\xc0\xaf\x80\xf4\x90\x80\x80"
	         "\xf0\x9f\x98\x80ok\xe2";
	for (int k = 0; k < HOOK__MAX; k++) {
		format((hook_kind)k, &e);
		ck_assert_msg(utf8_valid(), "%d", k);
		ck_assert(strstr(m.body, "x" FFFD "+y" FFFD FFFD "z" FFFD));
		ck_assert(strstr(m.body, "\xf0\x9f\x98\x80ok" FFFD));
	}
}
END_TEST

START_TEST(test_refused)
{
	static const char *const urls[] = { "", "https://bt.example/g/a b",
		"https://bt.example/\"x", "https://bt.example/<x>",
		"https://bt.example/a|b", "https://bt.example/\xc3\xa9",
		"https://bt.example/a\\b", "https://bt.example/\t",
		URL "\n", URL "\r", URL "\x7f" };
	hook_event e = plain, bad[] = { plain, plain, plain, plain, plain };

	ck_assert_int_eq(hook_format(HOOK__MAX, &e, secret, &m), -1);
	ck_assert_int_eq(hook_format((hook_kind)-1, &e, secret, &m), -1);
	ck_assert_int_eq(hook_format(HOOK_SLACK, NULL, secret, &m), -1);
	ck_assert_int_eq(hook_format(HOOK_SLACK, &e, secret, NULL), -1);
	bad[0].event = "move", bad[1].text = NULL, bad[2].name = NULL;
	bad[3].risk = 101, bad[4].risk = -2;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert(hook_format(HOOK_JSON, &bad[i], secret, &m) == -1);
		ck_assert(!*m.body && !m.ctype && !m.headers[0]);
	}
	for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++)
		for (int k = 0; k < HOOK__MAX; k++) {
			e.url = urls[i];
			ck_assert_msg(hook_format((hook_kind)k, &e, secret,
			              &m) == -1, "%s %d", urls[i], k);
		}
}
END_TEST

/* The names both ways; the guess for the hosts we know and tricky ones. */
START_TEST(test_kinds)
{
	static const char *const bad[] = { "Discord", "", "json ", "slac",
		"ntfyy", NULL };
	static const struct { const char *url; hook_kind k; } t[] = {
		{ "https://discord.com/api/webhooks/1/a", HOOK_DISCORD },
		{ "https://ptb.discord.com/api/webhooks/1/a", HOOK_DISCORD },
		{ "https://canary.discordapp.com/api/webhooks/", HOOK_DISCORD },
		{ "https://DISCORD.COM/api/webhooks/1/a", HOOK_DISCORD },
		{ "HTTPS://Discord.Com/api/webhooks/1/a", HOOK_DISCORD },
		{ "https://hooks.slack.com/services/T0/B0/x", HOOK_SLACK },
		{ "https://ntfy.sh/crew-topic", HOOK_NTFY },
		{ "https://discord.com.evil.example/api/webhooks/", HOOK_JSON },
		{ "https://evil.example/discord.com/api/webhooks/", HOOK_JSON },
		{ "https://discord.com@evil.example/api/webhooks/", HOOK_JSON },
		{ "https://evil.discord.com/api/webhooks/1/a", HOOK_JSON },
		{ "https://discord.com/other/path", HOOK_JSON },
		{ "http://discord.com/api/webhooks/1/a", HOOK_JSON },
		{ "http://ntfy.sh/crew-topic", HOOK_JSON },
		{ "https://hooks.slack.com.evil.example/x", HOOK_JSON },
		{ "https://ntfy.sh.evil.example/x", HOOK_JSON },
		{ "discord.com/api/webhooks/1/a", HOOK_JSON },
		{ "", HOOK_JSON },
	};
	hook_kind k;

	for (int i = 0; i < HOOK__MAX; i++) {
		const char *name = hook_kind_name((hook_kind)i);
		ck_assert_int_eq(hook_kind_parse(name, &k), 0);
		ck_assert_int_eq(k, i);
		ck_assert_ptr_nonnull(hook_kind_words((hook_kind)i));
	}
	ck_assert_str_eq(hook_kind_name(HOOK_MATRIX), "matrix");
	ck_assert_str_eq(hook_kind_words(HOOK_MATRIX), "Matrix (hookshot)");
	ck_assert_str_eq(hook_kind_words(HOOK_JSON), "Any other (signed JSON)");
	ck_assert_ptr_null(hook_kind_name(HOOK__MAX));
	ck_assert_ptr_null(hook_kind_words(HOOK__MAX));
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_int_eq(hook_kind_parse(bad[i], &k), -1);
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		ck_assert_msg(hook_kind_guess(t[i].url) == t[i].k, "%s",
		              t[i].url);
	ck_assert_int_eq(hook_kind_guess(NULL), HOOK_JSON);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hook_format");
	TCase *tb = tcase_create("bodies");
	TCase *tk = tcase_create("kinds");
	SRunner *r;
	int failed;

	tcase_add_checked_fixture(tb, setup, NULL);
	tcase_add_test(tb, test_plain_bodies);
	tcase_add_test(tb, test_escapes);
	tcase_add_test(tb, test_ntfy_headers_hold_no_player_text);
	tcase_add_test(tb, test_json_signed);
	tcase_add_test(tb, test_utf8);
	tcase_add_test(tb, test_refused);
	suite_add_tcase(s, tb);
	tcase_add_test(tk, test_kinds);
	suite_add_tcase(s, tk);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
