/*
 * check_web.c - the web building blocks: the output buffer and its
 * escaping, templates (golden files in tests/data/templates), with
 * a seeded fuzz loop for each (run them under --enable-sanitizers).  The
 * form and cookie decoders: check_form.c; seat tokens, CSRF tokens and the
 * game a new-game form makes once: check_token.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "fixture.h"
#include "out.h"
#include "seeded.h"
#include "template.h"

/* ---- helpers --------------------------------------------------------- */


/* Reads a whole (small) file into a new NUL-terminated buffer. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	buf = malloc(65536);
	ck_assert_ptr_nonnull(buf);
	n = fread(buf, 1, 65535, f);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* ---- out: escaping and the bound ------------------------------------- */

static const struct {
	const char *id, *in, *want;
} html_cases[] = {
	{ "script", "<script>alert(1)</script>",
	  "&lt;script&gt;alert(1)&lt;/script&gt;" },
	{ "quotes", "\"'&", "&quot;&#39;&amp;" },
	{ "plain", "Beckett", "Beckett" },
	{ "empty", "", "" },
	{ "entity stays text", "&amp;", "&amp;amp;" },
	{ "utf8 kept", "Zo\xC3\xAB \xE2\x82\xAC \xF0\x9F\x98\x80",
	  "Zo\xC3\xAB \xE2\x82\xAC \xF0\x9F\x98\x80" },
	{ "bad byte", "a\xFF" "b", "a\xEF\xBF\xBD" "b" },
	{ "lone continuation", "\x80", "\xEF\xBF\xBD" },
	{ "cut sequence", "\xE2\x82", "\xEF\xBF\xBD\xEF\xBF\xBD" },
	{ "cut then text", "\xE2\x82<", "\xEF\xBF\xBD\xEF\xBF\xBD&lt;" },
	{ "overlong slash", "\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD" },
	{ "overlong 3", "\xE0\x80\xAF",
	  "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" },
	{ "surrogate", "\xED\xA0\x80",
	  "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" },
	{ "past 10FFFF", "\xF4\x90\x80\x80",
	  "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" },
	{ "max code point", "\xF4\x8F\xBF\xBF", "\xF4\x8F\xBF\xBF" },
};

START_TEST(test_out_html_escapes)
{
	out o;

	out_init(&o, 0);
	out_html(&o, html_cases[_i].in);
	ck_assert_msg(o.failed == 0, "%s", html_cases[_i].id);
	ck_assert_msg(strcmp(out_str(&o), html_cases[_i].want) == 0,
	              "%s: got '%s'", html_cases[_i].id, out_str(&o));
	ck_assert_uint_eq(o.len, strlen(html_cases[_i].want));
	out_free(&o);
}
END_TEST

START_TEST(test_out_raw_url_and_nul)
{
	out o;

	out_init(&o, 0);
	ck_assert_str_eq(out_str(&o), "");
	out_raws(&o, "<b>");
	out_rawf(&o, "%d-%s", 42, "x");
	out_html(&o, NULL);
	out_raws(&o, NULL);
	out_htmln(&o, "a\0<", 3);
	ck_assert_str_eq(out_str(&o), "<b>42-xa\xEF\xBF\xBD&lt;");
	out_reset(&o);
	out_url(&o, "a b/c?d=e&f+g~h.i_j-k%\xC3\xA9\"'<");
	ck_assert_str_eq(out_str(&o),
	                 "a%20b%2Fc%3Fd%3De%26f%2Bg~h.i_j-k%25%C3%A9%22%27%3C");
	out_free(&o);
	ck_assert_ptr_null(o.buf);
	ck_assert_uint_eq(o.len, 0);
}
END_TEST

START_TEST(test_out_bound_is_respected)
{
	out o;
	int i;

	out_init(&o, 10);
	out_raws(&o, "0123456789");
	ck_assert_int_eq(o.failed, 0);
	ck_assert_uint_eq(o.len, 10);
	out_raws(&o, "x");
	ck_assert_int_eq(o.failed, 1);
	ck_assert_uint_eq(o.len, 10);
	ck_assert_str_eq(out_str(&o), "0123456789");
	ck_assert_uint_le(o.cap, 11);
	/* failure is sticky, even for writes that would fit */
	out_reset(&o);
	out_raws(&o, "12345");
	out_html(&o, "<<");       /* 8 bytes escaped: over */
	out_raws(&o, "a");
	ck_assert_int_eq(o.failed, 1);
	ck_assert_uint_le(o.len, 10);
	out_reset(&o);
	ck_assert_int_eq(o.failed, 0);
	out_rawf(&o, "%s", "12345678901");
	ck_assert_int_eq(o.failed, 1);
	ck_assert_uint_eq(o.len, 0);
	out_free(&o);

	/* growth: many small writes up to exactly the bound */
	out_init(&o, 100000);
	for (i = 0; i < 10000; i++)
		out_raws(&o, "0123456789");
	ck_assert_int_eq(o.failed, 0);
	ck_assert_uint_eq(o.len, 100000);
	ck_assert_uint_eq(strlen(out_str(&o)), 100000);
	out_raws(&o, "!");
	ck_assert_int_eq(o.failed, 1);
	out_free(&o);
}
END_TEST

START_TEST(test_out_html_fuzz)
{
	unsigned char in[64];
	out o;
	size_t i, n;
	int round;

	seeded_start(0x5eed0001);
	out_init(&o, 0);
	for (round = 0; round < 10000; round++) {
		n = seeded_below(sizeof in);
		for (i = 0; i < n; i++)
			in[i] = seeded_below(4) ? (unsigned char)seeded_below(256)
			               : (unsigned char)"<>&\"'"[seeded_below(5)];
		out_reset(&o);
		out_htmln(&o, (const char *)in, n);
		ck_assert_int_eq(o.failed, 0);
		ck_assert(seeded_valid_utf8((const unsigned char *)o.buf, o.len));
		ck_assert_uint_eq(strlen(o.buf), o.len);
		ck_assert_ptr_null(strpbrk(o.buf, "<>\"'"));
	}
	out_free(&o);
}
END_TEST

/* ---- templates ------------------------------------------------------- */

enum tkey { K_TITLE, K_PLAYER, K_CARD, K_PLAYERS, K_FLAG, K_MISSING,
            K__MAX };
static const char *const tnames[K__MAX] = {
	"title", "player", "card", "players", "flag", "missing"
};

/* A render's values: fixed text per key, a list per key for iterations
 * inside sections, and how many times each section runs. */
typedef struct tvals {
	const char *text[K__MAX];
	const char *const *list[K__MAX];
	int count[K__MAX];
	int calls;          /* section() calls, to catch runaway loops */
} tvals;

static const char *tv_text(void *ctx, int key, int iter)
{
	const tvals *v = ctx;

	ck_assert_int_ge(key, 0);
	ck_assert_int_lt(key, K__MAX);
	if (iter >= 0 && v->list[key])
		return v->list[key][iter];
	return v->text[key];
}

static int tv_section(void *ctx, int key, int iter)
{
	tvals *v = ctx;

	ck_assert_int_ge(key, 0);
	ck_assert_int_lt(key, K__MAX);
	v->calls++;
	return iter < v->count[key];
}

static const char *const three[] = {
	"Beckett", "<script>alert(1)</script>", "Zo\xC3\xAB & \xC3\x85lf"
};
#define CARD "<span class=\"card red\">7</span>"
#define TITLE "<b>\"Tom's\" & co</b>"

static const struct {
	const char *id;        /* the .expected file */
	const char *tmpl;      /* the .html file */
	tvals v;
} golden[] = {
	{ "escape", "escape",
	  { .text = { [K_TITLE] = TITLE, [K_CARD] = CARD } } },
	{ "players_0", "players",
	  { .text = { [K_TITLE] = "T", [K_PLAYER] = "outside" },
	    .list = { [K_PLAYER] = three } } },
	{ "players_1", "players",
	  { .text = { [K_TITLE] = "T", [K_PLAYER] = "outside" },
	    .list = { [K_PLAYER] = three }, .count = { [K_PLAYERS] = 1 } } },
	{ "players_3", "players",
	  { .text = { [K_TITLE] = "T", [K_PLAYER] = "outside" },
	    .list = { [K_PLAYER] = three }, .count = { [K_PLAYERS] = 3 } } },
	{ "flag_on", "flag",
	  { .text = { [K_CARD] = CARD }, .count = { [K_FLAG] = 1 } } },
	{ "flag_off", "flag", { .text = { [K_CARD] = CARD } } },
};

START_TEST(test_tmpl_golden)
{
	char path[600], why[TMPL_WHY_MAX];
	tvals v = golden[_i].v;
	tmpl_data d = { &v, tv_text, tv_section };
	tmpl *t;
	char *want;
	out o;

	snprintf(path, sizeof path, "%s/templates/%s.html", fixture_data_dir(),
	         golden[_i].tmpl);
	ck_assert_msg(tmpl_load_file(path, tnames, K__MAX, &t, why,
	                             sizeof why) == TMPL_OK, "%s", why);
	snprintf(path, sizeof path, "%s/templates/%s.expected", fixture_data_dir(),
	         golden[_i].id);
	want = slurp(path, NULL);
	out_init(&o, 0);
	ck_assert_int_eq(tmpl_render(t, &o, &d), TMPL_OK);
	ck_assert_msg(strcmp(out_str(&o), want) == 0,
	              "%s: got\n%s\nwant\n%s", golden[_i].id, out_str(&o), want);
	/* rendering is repeatable from one compiled template */
	out_reset(&o);
	ck_assert_int_eq(tmpl_render(t, &o, &d), TMPL_OK);
	ck_assert_str_eq(out_str(&o), want);
	out_free(&o);
	free(want);
	tmpl_free(t);
}
END_TEST

static const struct {
	const char *id, *text, *why;
} tmpl_errors[] = {
	{ "unknown key", "<p>\n{{plaeyr}}</p>",
	  "line 2: unknown key 'plaeyr'" },
	{ "unknown raw key", "{{{nope}}}", "line 1: unknown key 'nope'" },
	{ "unknown section", "\n\n{{#nope}}{{/nope}}",
	  "line 3: unknown key 'nope'" },
	{ "nested", "{{#players}}\n{{#flag}}{{/flag}}{{/players}}",
	  "line 2: section 'flag' inside section 'players' (line 1): "
	  "sections do not nest" },
	{ "nested inverted", "{{#players}}{{^players}}",
	  "line 1: section 'players' inside section 'players' (line 1): "
	  "sections do not nest" },
	{ "close without open", "a\n{{/flag}}",
	  "line 2: {{/flag}} without an open section" },
	{ "close mismatch", "{{#flag}}\n\n{{/players}}",
	  "line 3: {{/players}} closes section 'flag' opened on line 1" },
	{ "never closed", "x\n{{#flag}}\nabc\n",
	  "line 2: section 'flag' is never closed" },
	{ "unterminated", "ok\nok {{title\n}}", "line 2: unterminated tag" },
	{ "unterminated at end", "{{", "line 1: unterminated tag" },
	{ "unterminated raw", "{{{card}}",
	  "line 1: unterminated tag (raw tags end with }}})" },
	{ "unterminated comment", "\n{{! never\nends }",
	  "line 2: unterminated comment" },
	{ "empty tag", "{{ }}", "line 1: empty tag" },
	{ "empty section", "{{#}}", "line 1: empty tag" },
	{ "bad character", "{{ti-tle}}", "line 1: bad character in tag name" },
	{ "brace in tag", "{{{{title}}}}",
	  "line 1: bad character in tag name" },
	{ "nul byte", "a\n\0b", "line 2: NUL byte" },
};

START_TEST(test_tmpl_errors)
{
	char why[TMPL_WHY_MAX] = "untouched";
	const char *text = tmpl_errors[_i].text;
	/* the NUL case has a known length; the others are C strings */
	size_t len = strcmp(tmpl_errors[_i].id, "nul byte") == 0 ? 4
	             : strlen(text);
	tmpl *t = (tmpl *)&why;

	ck_assert_int_eq(tmpl_compile(text, len, tnames, K__MAX, &t, why,
	                              sizeof why), TMPL_SYNTAX);
	ck_assert_ptr_null(t);
	ck_assert_msg(strcmp(why, tmpl_errors[_i].why) == 0, "%s: got '%s'",
	              tmpl_errors[_i].id, why);
}
END_TEST

START_TEST(test_tmpl_files_and_limits)
{
	char path[600], why[TMPL_WHY_MAX], want[700];
	tmpl *t;
	FILE *f;
	char *big;

	snprintf(path, sizeof path, "%s/templates/nested.html", fixture_data_dir());
	ck_assert_int_eq(tmpl_load_file(path, tnames, K__MAX, &t, why,
	                                sizeof why), TMPL_SYNTAX);
	snprintf(want, sizeof want, "%s: line 3: section 'flag' inside "
	         "section 'players' (line 2): sections do not nest", path);
	ck_assert_str_eq(why, want);

	snprintf(path, sizeof path, "%s/templates/no-such.html", fixture_data_dir());
	ck_assert_int_eq(tmpl_load_file(path, tnames, K__MAX, &t, why,
	                                sizeof why), TMPL_IO);
	ck_assert_ptr_null(t);
	ck_assert_ptr_nonnull(strstr(why, "no-such.html: "));

	/* exactly the bound loads; one byte more does not */
	big = malloc(TMPL_FILE_MAX + 1);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', TMPL_FILE_MAX + 1);
	snprintf(path, sizeof path, "%s/bt-web-big.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "wb");
	ck_assert_uint_eq(fwrite(big, 1, TMPL_FILE_MAX, f), TMPL_FILE_MAX);
	fflush(f);
	ck_assert_int_eq(tmpl_load_file(path, tnames, K__MAX, &t, why,
	                                sizeof why), TMPL_OK);
	tmpl_free(t);
	fputc('x', f);
	fclose(f);
	ck_assert_int_eq(tmpl_load_file(path, tnames, K__MAX, &t, why,
	                                sizeof why), TMPL_TOO_BIG);
	ck_assert_ptr_null(t);
	snprintf(want, sizeof want, "%s: template too big", path);
	ck_assert_str_eq(why, want);
	unlink(path);
	ck_assert_int_eq(tmpl_compile(big, TMPL_FILE_MAX + 1, tnames, K__MAX,
	                              &t, why, sizeof why), TMPL_TOO_BIG);
	ck_assert_str_eq(why, "over 262144 bytes");
	free(big);

	/* a name table with nothing in it still compiles plain text */
	ck_assert_int_eq(tmpl_compile("plain", 5, NULL, 0, &t, NULL, 0),
	                 TMPL_OK);
	tmpl_free(t);
	tmpl_free(NULL);
	{
		const char *const holes[] = { "a", NULL };
		ck_assert_int_eq(tmpl_compile("{{a}}", 5, holes, 2, &t, why,
		                              sizeof why), TMPL_INVALID);
		ck_assert_str_eq(why, "invalid arguments");
	}
}
END_TEST

START_TEST(test_tmpl_render_limits)
{
	static const char text[] = "{{#players}}<i>{{player}}</i>{{/players}}";
	tvals v = { .text = { [K_PLAYER] = "p" } };
	tmpl_data d = { &v, tv_text, tv_section };
	tmpl *t;
	out o;
	size_t want;

	ck_assert_int_eq(tmpl_compile(text, sizeof text - 1, tnames, K__MAX,
	                              &t, NULL, 0), TMPL_OK);
	out_init(&o, 0);
	/* the bound itself is fine ... */
	v.count[K_PLAYERS] = TMPL_ITER_MAX;
	ck_assert_int_eq(tmpl_render(t, &o, &d), TMPL_OK);
	ck_assert_uint_eq(o.len, (size_t)TMPL_ITER_MAX * 8);
	/* ... a callback that never says stop is an error */
	v.count[K_PLAYERS] = 1 << 30;
	v.calls = 0;
	out_reset(&o);
	ck_assert_int_eq(tmpl_render(t, &o, &d), TMPL_RUNAWAY);
	ck_assert_int_eq(v.calls, TMPL_ITER_MAX + 1);
	/* a full out buffer is reported */
	out_free(&o);
	out_init(&o, 100);
	v.count[K_PLAYERS] = 20;
	ck_assert_int_eq(tmpl_render(t, &o, &d), TMPL_OUTPUT);
	ck_assert_uint_le(o.len, 100);
	/* no data at all: keys empty, sections hidden */
	out_free(&o);
	out_init(&o, 0);
	ck_assert_int_eq(tmpl_render(t, &o, NULL), TMPL_OK);
	ck_assert_str_eq(out_str(&o), "");
	want = 0;
	ck_assert_uint_eq(o.len, want);
	ck_assert_int_eq(tmpl_render(NULL, &o, NULL), TMPL_INVALID);
	out_free(&o);
	tmpl_free(t);
}
END_TEST

/* Pieces random templates are made of: mostly the tricky ones. */
static const char *const tpieces[] = {
	"{{", "}}", "}}}", "{", "}", "#", "^", "/", "!", " ", "\n", "title",
	"players", "flag", "card", "nope", "x", "<", "&", "\xFF", "{{#players}}",
	"{{/players}}", "{{^flag}}", "{{/flag}}", "{{player}}", "{{{card}}}",
	"{{!c}}", "\t",
};

START_TEST(test_tmpl_fuzz)
{
	char text[256], why[TMPL_WHY_MAX];
	tvals v = { .text = { [K_TITLE] = "<t>", [K_PLAYER] = "p",
	                      [K_CARD] = "<c>" } };
	tmpl_data d = { &v, tv_text, tv_section };
	size_t len, pl;
	tmpl *t;
	int round, ok = 0, k;
	out o;

	seeded_start(0x5eed0002);
	for (round = 0; round < 10000; round++) {
		len = 0;
		for (k = (int)seeded_below(24); k > 0; k--) {
			const char *p = tpieces[seeded_below(sizeof tpieces /
			                            sizeof tpieces[0])];
			pl = strlen(p);
			if (len + pl >= sizeof text)
				break;
			memcpy(text + len, p, pl);
			len += pl;
		}
		if (len && seeded_below(8) == 0)
			text[seeded_below((uint32_t)len)] = (char)seeded_below(256);
		why[0] = '\0';
		if (tmpl_compile(text, len, tnames, K__MAX, &t, why,
		                 sizeof why) != TMPL_OK) {
			ck_assert_ptr_null(t);
			ck_assert_msg(strncmp(why, "line ", 5) == 0, "'%s'", why);
			continue;
		}
		ok++;
		v.count[K_PLAYERS] = (int)seeded_below(4);
		v.count[K_FLAG] = (int)seeded_below(2);
		out_init(&o, seeded_below(2) ? 0 : seeded_below(64) + 1);
		tmpl_rc rc = tmpl_render(t, &o, &d);
		ck_assert(rc == TMPL_OK || (rc == TMPL_OUTPUT && o.failed));
		ck_assert_uint_le(o.len, o.max);
		out_free(&o);
		tmpl_free(t);
	}
	/* the generator must reach the renderer, not only the errors */
	ck_assert_int_gt(ok, 1000);
}
END_TEST

#define N(a) ((int)(sizeof a / sizeof a[0]))

static Suite *web_suite(void)
{
	Suite *s = suite_create("web");
	TCase *tc = tcase_create("out");

	tcase_add_loop_test(tc, test_out_html_escapes, 0, N(html_cases));
	tcase_add_test(tc, test_out_raw_url_and_nul);
	tcase_add_test(tc, test_out_bound_is_respected);
	tcase_add_test(tc, test_out_html_fuzz);
	suite_add_tcase(s, tc);

	tc = tcase_create("template");
	tcase_add_loop_test(tc, test_tmpl_golden, 0, N(golden));
	tcase_add_loop_test(tc, test_tmpl_errors, 0, N(tmpl_errors));
	tcase_add_test(tc, test_tmpl_files_and_limits);
	tcase_add_test(tc, test_tmpl_render_limits);
	tcase_add_test(tc, test_tmpl_fuzz);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	if (sodium_init() < 0)
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(web_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
