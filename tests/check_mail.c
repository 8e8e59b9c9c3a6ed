/*
 * check_mail.c - the email as it leaves: the RFC 5322 message built from
 * an outbox row (every header, once, in order; encoded subjects; body
 * lines; injection attempts refused or neutralised), and its delivery
 * (a file in a folder; the fake sendmail through a pipe, failing,
 * hanging, missing).  A seeded fuzz loop over msg_build.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "fixture.h"
#include "message.h"
#include "send.h"
#include "utf8.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char game_id[] = "AbCdEfGhIjKlMnOpQrStUv";
static const char unsub[] = "https://example.org/bt/g/AbCdEfGhIjKlMnOpQrStUv"
                            "/unsubscribe?s=2&k=KEY-_0";

/* ---- helpers --------------------------------------------------------- */

static void sample(store_outmail *m)
{
	memset(m, 0, sizeof *m);
	m->id = 42;
	snprintf(m->game, sizeof m->game, "%s", game_id);
	m->seat = 2;
	snprintf(m->kind, sizeof m->kind, "turn");
	snprintf(m->to, sizeof m->to, "beckett@example.org");
	snprintf(m->subject, sizeof m->subject, "Your turn");
	snprintf(m->body, sizeof m->body, "Hello\n");
}

static msg_env env_of(const char *url)
{
	msg_env e = { "buffertime@example.org", url, 1700000000 };
	return e;
}

static char msg[MSG_MAX];

static size_t build_ok(const store_outmail *m, const msg_env *e)
{
	size_t len = 99;
	msg_rc rc = msg_build(m, e, msg, sizeof msg, &len);

	ck_assert_msg(rc == MSG_OK, "msg_build: %s", msg_rc_text(rc));
	ck_assert_uint_eq(len, strlen(msg));
	return len;
}

/* The number of header fields (lines not starting with a blank) before
 * the empty line; -1 if there is no empty line. */
static int count_fields(const char *m)
{
	int n = 0;

	for (const char *p = m; *p; p = strchr(p, '\n') + 1) {
		if (*p == '\n')
			return n;
		if (*p != ' ' && *p != '\t')
			n++;
		if (!strchr(p, '\n'))
			break;
	}
	return -1;
}

/* 1 if a line of m's header section starts with name (e.g. "Bcc:"). */
static int has_field(const char *m, const char *name)
{
	size_t k = strlen(name);

	for (const char *p = m; *p && *p != '\n'; p = strchr(p, '\n') + 1) {
		if (strncasecmp(p, name, k) == 0)
			return 1;
		if (!strchr(p, '\n'))
			break;
	}
	return 0;
}

/* The longest line of m, in bytes. */
static size_t longest_line(const char *m)
{
	size_t best = 0;

	while (*m) {
		size_t n = strcspn(m, "\n");
		if (n > best)
			best = n;
		m += n + (m[n] == '\n');
	}
	return best;
}

/* Decodes a Subject value made of "=?UTF-8?B?...?=" words separated by
 * folding whitespace into out; -1 if it is not that. */
static int decode_words(const char *v, char *out, size_t cap)
{
	size_t o = 0;

	while (*v) {
		while (*v == '\n' || *v == ' ')
			v++;
		if (!*v)
			break;
		if (strncmp(v, "=?UTF-8?B?", 10) != 0)
			return -1;
		v += 10;
		const char *end = strstr(v, "?=");
		if (!end)
			return -1;
		ck_assert_int_le((int)(end - v) + 12, MSG_WORD_MAX);
		size_t got;
		if (sodium_base642bin((unsigned char *)out + o, cap - o - 1, v,
		                      (size_t)(end - v), NULL, &got, NULL,
		                      sodium_base64_VARIANT_ORIGINAL) != 0)
			return -1;
		/* each word holds whole characters */
		for (size_t i = 0; i < got;) {
			size_t k = utf8_seq((unsigned char *)out + o + i,
			                    got - i);
			ck_assert_msg(k > 0, "a word splits a character");
			i += k;
		}
		o += got;
		v = end + 2;
	}
	out[o] = '\0';
	return 0;
}


/* A new empty directory under TMPDIR (the caller removes it with
 * rm_dir). */
static void make_dir(char *out, size_t cap)
{
	const char *t = getenv("TMPDIR");

	snprintf(out, cap, "%s/bt-mail.XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(out));
}

/* Removes dir and the files in it (dot files too). */
static void rm_dir(const char *dir)
{
	char path[1024];
	DIR *d = opendir(dir);
	struct dirent *e;

	for (int i = 0; d && i < 1000 && (e = readdir(d)); i++) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The names in dir that end in ".eml" and do not start with '.': how
 * many, and the first into first. */
static int emls(const char *dir, char *first, size_t cap, int *others)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	*others = 0;
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		size_t k = strlen(e->d_name);
		if (e->d_name[0] == '.') {
			if (!strncmp(e->d_name, ".tmp", 4))
				(*others)++;
			continue;
		}
		if (k > 4 && !strcmp(e->d_name + k - 4, ".eml")) {
			if (n++ == 0)
				snprintf(first, cap, "%s", e->d_name);
		} else {
			(*others)++;
		}
	}
	closedir(d);
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	static char buf[MSG_MAX + 1];

	ck_assert_msg(f != NULL, "cannot open %s", path);
	*len = fread(buf, 1, MSG_MAX, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* ---- the message ----------------------------------------------------- */

START_TEST(test_golden)
{
	store_outmail m;
	msg_env e = env_of(unsub);

	sample(&m);
	build_ok(&m, &e);
	ck_assert_str_eq(msg,
		"Date: Tue, 14 Nov 2023 22:13:20 +0000\n"
		"From: Buffer Time <buffertime@example.org>\n"
		"To: beckett@example.org\n"
		"Subject: Your turn\n"
		"Message-ID: <bt.42.AbCdEfGhIjKlMnOpQrStUv@example.org>\n"
		"List-Unsubscribe: <https://example.org/bt/g/"
		"AbCdEfGhIjKlMnOpQrStUv/unsubscribe?s=2&k=KEY-_0>\n"
		"List-Unsubscribe-Post: List-Unsubscribe=One-Click\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"Content-Transfer-Encoding: 8bit\n"
		"Auto-Submitted: auto-generated\n"
		"X-Buffertime-Loop: example.org\n"
		"\n"
		"Hello\n");
}
END_TEST

/* A row with a reply address: Reply-To, and a Message-ID that carries
 * its token (for replies to the bare address); a reply_to that is not
 * a plain address is refused, one without a token keeps bt. ids. */
START_TEST(test_reply_to)
{
	static const char tok[] =
		"bkewha7kztsvldg4ynd47cfnmtvaaaiaafgpt4qdzm4wyw5sgy";
	store_outmail m;
	msg_env e = env_of(unsub);
	char want[200];
	size_t len;

	sample(&m);
	snprintf(m.reply_to, sizeof m.reply_to, "play+%s@games.example.org",
	         tok);
	build_ok(&m, &e);
	snprintf(want, sizeof want, "To: beckett@example.org\nReply-To: "
	         "play+%s@games.example.org\nSubject: ", tok);
	ck_assert_ptr_nonnull(strstr(msg, want));
	snprintf(want, sizeof want, "\nMessage-ID: <r.%s.42@games.example.org>"
	         "\n", tok);
	ck_assert_ptr_nonnull(strstr(msg, want));
	ck_assert_ptr_nonnull(strstr(msg, "\nX-Buffertime-Loop: example.org\n"));
	ck_assert_int_eq(count_fields(msg), 13);
	/* no token in it: a plain Reply-To, our usual Message-ID */
	snprintf(m.reply_to, sizeof m.reply_to, "play@games.example.org");
	build_ok(&m, &e);
	ck_assert_ptr_nonnull(strstr(msg, "\nReply-To: play@games.example.org\n"));
	ck_assert_ptr_nonnull(strstr(msg, "\nMessage-ID: <bt.42."));
	/* header injection through the row */
	snprintf(m.reply_to, sizeof m.reply_to, "a@b.org\nBcc: x@y.org");
	ck_assert_int_eq(msg_build(&m, &e, msg, sizeof msg, &len),
	                 MSG_BAD_REPLY_TO);
	ck_assert_str_eq(msg, "");
	snprintf(m.reply_to, sizeof m.reply_to, "Play <a@b.org>");
	ck_assert_int_eq(msg_build(&m, &e, msg, sizeof msg, &len),
	                 MSG_BAD_REPLY_TO);
}
END_TEST

/* Without a seat (or a URL) no unsubscribe headers; without a game a
 * shorter Message-ID; the Message-ID does not change with the date. */
START_TEST(test_variants)
{
	store_outmail m;
	msg_env e = env_of(unsub);
	char first[MSG_MAX];

	sample(&m);
	m.seat = 0;
	build_ok(&m, &e);
	ck_assert(!has_field(msg, "List-Unsubscribe"));
	ck_assert_int_eq(count_fields(msg), 10);

	sample(&m);
	e.unsub_url = NULL;
	build_ok(&m, &e);
	ck_assert(!has_field(msg, "List-Unsubscribe"));
	e.unsub_url = "";
	build_ok(&m, &e);
	ck_assert(!has_field(msg, "List-Unsubscribe"));

	sample(&m);
	m.game[0] = '\0';
	e = env_of(unsub);
	build_ok(&m, &e);
	ck_assert_ptr_nonnull(strstr(msg, "\nMessage-ID: <bt.42@example.org>\n"));

	sample(&m);
	build_ok(&m, &e);
	ck_assert_int_eq(count_fields(msg), 12);
	memcpy(first, msg, sizeof first);
	e.date += 86400 * 3;   /* a retry, days later */
	build_ok(&m, &e);
	ck_assert_ptr_nonnull(strstr(msg, "Date: Fri, 17 Nov 2023"));
	ck_assert_ptr_nonnull(strstr(first, "\nMessage-ID: <bt.42.AbCdEfGhIjKlMnOpQrStUv@example.org>\n"));
	ck_assert_ptr_nonnull(strstr(msg, "\nMessage-ID: <bt.42.AbCdEfGhIjKlMnOpQrStUv@example.org>\n"));
	ck_assert_str_eq(strchr(first, '\n'), strchr(msg, '\n'));
}
END_TEST

static const struct {
	int64_t t;
	const char *want;    /* NULL: refused */
} dates[] = {
	{ 0, "Thu, 01 Jan 1970 00:00:00 +0000" },
	{ 1700000000, "Tue, 14 Nov 2023 22:13:20 +0000" },
	{ 951782400, "Tue, 29 Feb 2000 00:00:00 +0000" },
	{ 1719792000 + 86399, "Mon, 01 Jul 2024 23:59:59 +0000" },
	{ -1, NULL },
};

START_TEST(test_date)
{
	char buf[MSG_DATE_MAX];

	if (dates[_i].want == NULL) {
		ck_assert_int_eq(msg_date(dates[_i].t, buf, sizeof buf), -1);
		return;
	}
	ck_assert_int_eq(msg_date(dates[_i].t, buf, sizeof buf), 0);
	ck_assert_str_eq(buf, dates[_i].want);
	ck_assert_int_eq(msg_date(dates[_i].t, buf, 10), -1);
}
END_TEST

/* ---- subjects -------------------------------------------------------- */

static const struct {
	const char *in;
	const char *want;     /* the header value; NULL: encoded words that
	                       * decode to decoded */
	const char *decoded;
} subjects[] = {
	{ "Your turn in game 3", "Your turn in game 3", NULL },
	{ "", "", NULL },
	{ "Büro", "=?UTF-8?B?QsO8cm8=?=", NULL },
	{ "x=?utf-8?q?y?=", NULL, "x=?utf-8?q?y?=" },
	/* CR, LF, TAB and the other controls become spaces: no new line */
	{ "line\r\nBcc: evil@example.org", "line  Bcc: evil@example.org",
	  NULL },
	{ "a\tb\x01" "c\x7f", "a b c ", NULL },
	{ "ü\nBcc: x@y", NULL, "ü Bcc: x@y" },
	/* not UTF-8: '?' */
	{ "\xff\xfe ok", "?? ok", NULL },
	{ "\xc3\x28 \xe2\x82", "?( ??", NULL },
	{ "Émile est à la barre: c'est ton tour, Émile, à toi de jouer "
	  "maintenant — vraiment!", NULL,
	  "Émile est à la barre: c'est ton tour, Émile, à toi de jouer "
	  "maintenant — vraiment!" },
	{ "😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀", NULL,
	  "😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀" },
};

START_TEST(test_subject)
{
	char v[2048], dec[1024];

	ck_assert_int_eq(msg_subject(subjects[_i].in, v, sizeof v), 0);
	if (subjects[_i].want) {
		ck_assert_str_eq(v, subjects[_i].want);
		return;
	}
	ck_assert_msg(decode_words(v, dec, sizeof dec) == 0, "not words: %s",
	              v);
	ck_assert_str_eq(dec, subjects[_i].decoded);
	/* folded: each line a word, "Subject: " + the first within 76 */
	for (const char *p = v; *p;) {
		size_t n = strcspn(p, "\n");
		ck_assert_uint_le(n + (p == v ? 9 : 0), 76);
		p += n;
		if (*p == '\n') {
			ck_assert_int_eq(p[1], ' ');
			p++;
		}
	}
}
END_TEST

START_TEST(test_subject_limits)
{
	char big[1100], v[64];

	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ck_assert_int_eq(msg_subject(big, v, sizeof v), -1);
	ck_assert_int_eq(msg_subject("Büro Büro Büro Büro", v, 20), -1);
}
END_TEST

/* ---- injection ------------------------------------------------------- */

START_TEST(test_subject_injection)
{
	store_outmail m;
	msg_env e = env_of(unsub);
	static const char *const evil[] = {
		"x\r\nBcc: victim@evil.org\r\n\r\nbody",
		"x\nBcc: victim@evil.org",
		"x\rBcc: victim@evil.org",
		"é\r\nBcc: victim@evil.org",
		"x\n\nFrom: boss@example.org",
		"=?UTF-8?B?DQpCY2M6IHZAZS5vcmc=?=",
	};

	for (int i = 0; i < N(evil); i++) {
		sample(&m);
		snprintf(m.subject, sizeof m.subject, "%s", evil[i]);
		build_ok(&m, &e);
		ck_assert_msg(!has_field(msg, "Bcc:"), "case %d", i);
		ck_assert_int_eq(count_fields(msg), 12);
		ck_assert_ptr_null(strchr(msg, '\r'));
		ck_assert_ptr_nonnull(strstr(msg, "\nFrom: Buffer Time <buffer"
		                                  "time@example.org>\n"));
		ck_assert(!has_field(msg, "From: boss"));
		/* the body is still the body */
		ck_assert_ptr_nonnull(strstr(msg, "\n\nHello\n"));
	}
}
END_TEST

static const struct {
	const char *to, *from, *url;
	msg_rc want;
} refusals[] = {
	{ "a@example.org\nBcc: c@d.org", NULL, NULL, MSG_BAD_TO },
	{ "a@example.org\r\nBcc: c@d.org", NULL, NULL, MSG_BAD_TO },
	{ "a@example.org,c@d.org", NULL, NULL, MSG_BAD_TO },
	{ "a@example.org;c@d.org", NULL, NULL, MSG_BAD_TO },
	{ "Eve <a@example.org>", NULL, NULL, MSG_BAD_TO },
	{ "\"a b\"@example.org", NULL, NULL, MSG_BAD_TO },
	{ "", NULL, NULL, MSG_BAD_TO },
	{ NULL, "x@example.org\r\nBcc: z@evil.org", NULL, MSG_BAD_FROM },
	{ NULL, "Buffer Time <x@example.org>", NULL, MSG_BAD_FROM },
	{ NULL, "", NULL, MSG_BAD_FROM },
	{ NULL, NULL, "https://example.org/u\r\nBcc: z@evil.org",
	  MSG_BAD_URL },
	{ NULL, NULL, "https://example.org/u>, <mailto:z@evil.org",
	  MSG_BAD_URL },
	{ NULL, NULL, "https://example.org/a b", MSG_BAD_URL },
	{ NULL, NULL, "javascript:alert(1)", MSG_BAD_URL },
	{ NULL, NULL, "mailto:z@evil.org", MSG_BAD_URL },
	{ NULL, NULL, "https://example.org/\xc3\xa9", MSG_BAD_URL },
};

START_TEST(test_refusals)
{
	store_outmail m;
	msg_env e = env_of(unsub);
	size_t len = 7;

	sample(&m);
	if (refusals[_i].to)
		snprintf(m.to, sizeof m.to, "%s", refusals[_i].to);
	if (refusals[_i].from)
		e.from = refusals[_i].from;
	if (refusals[_i].url)
		e.unsub_url = refusals[_i].url;
	msg[0] = 'x';
	ck_assert_int_eq(msg_build(&m, &e, msg, sizeof msg, &len),
	                 refusals[_i].want);
	ck_assert_str_eq(msg, "");
	ck_assert_uint_eq(len, 0);
	ck_assert_str_ne(msg_rc_text(refusals[_i].want), "?");
}
END_TEST

static const struct {
	const char *addr;
	int ok;
} addrs[] = {
	{ "a@b.c", 1 },
	{ "first.last+tag@example.org", 1 },
	{ "o'neil@x-y.example", 1 },
	{ "UPPER_case-1@EXAMPLE.ORG", 1 },
	{ "buffertime@localhost", 1 },
	{ "", 0 }, { "a", 0 }, { "@b.c", 0 }, { "a@", 0 },
	{ "a..b@c.d", 0 }, { ".a@b.c", 0 }, { "a.@b.c", 0 },
	{ "a@b..c", 0 }, { "a@.b", 0 }, { "a@b.", 0 },
	{ "a b@c.d", 0 }, { "a@b c.d", 0 }, { "a@b@c.d", 0 },
	{ "a\n@b.c", 0 }, { "a@b.c\n", 0 }, { "\"q\"@b.c", 0 },
	{ "a@[192.0.2.1]", 0 }, { "ü@b.c", 0 }, { "a@bü.c", 0 },
	{ "a|b@c.d", 0 }, { "a/b@c.d", 0 }, { "a$b@c.d", 0 },
	{ "a`b@c.d", 0 }, { "a@b_c.d", 0 }, { "a,b@c.d", 0 },
	{ "<a@b.c>", 0 }, { "a@b.c>", 0 },
};

START_TEST(test_addr)
{
	ck_assert_msg(msg_addr_ok(addrs[_i].addr) == addrs[_i].ok, "'%s'",
	              addrs[_i].addr);
}
END_TEST

START_TEST(test_addr_length)
{
	char a[STORE_EMAIL_MAX + 2];

	memset(a, 'a', sizeof a);
	memcpy(a + STORE_EMAIL_MAX - 6, "@b.org", 7);   /* 254 bytes */
	ck_assert(msg_addr_ok(a));
	memset(a, 'a', sizeof a);
	memcpy(a + STORE_EMAIL_MAX - 5, "@b.org", 7);   /* 255 */
	ck_assert(!msg_addr_ok(a));
}
END_TEST

/* ---- the body -------------------------------------------------------- */

/* The body part of msg with every '\n' removed, into out. */
static void body_joined(char *out, size_t cap)
{
	const char *b = strstr(msg, "\n\n");
	size_t o = 0;

	ck_assert_ptr_nonnull(b);
	for (b += 2; *b && o + 1 < cap; b++)
		if (*b != '\n')
			out[o++] = *b;
	out[o] = '\0';
}

START_TEST(test_body_lines)
{
	static char want[8192], got[9000];
	store_outmail m;
	msg_env e = env_of(unsub);

	/* no space at all: cut at 998 */
	sample(&m);
	memset(m.body, 'x', 3000);
	m.body[3000] = '\0';
	build_ok(&m, &e);
	ck_assert_uint_eq(longest_line(msg), MSG_LINE_MAX);
	body_joined(got, sizeof got);
	ck_assert_str_eq(got, m.body);
	ck_assert_ptr_nonnull(strstr(msg, "\n\n"));
	const char *b = strstr(msg, "\n\n") + 2;
	ck_assert_uint_eq(strcspn(b, "\n"), 998);
	ck_assert_uint_eq(strlen(b), 3000 + 4);

	/* words: cut after a space */
	sample(&m);
	for (int i = 0; i < 600; i++)
		memcpy(m.body + 5 * i, "word ", 5);
	m.body[3000] = '\0';
	build_ok(&m, &e);
	ck_assert_uint_le(longest_line(msg), MSG_LINE_MAX);
	b = strstr(msg, "\n\n") + 2;
	for (const char *p = b; *p; p += strcspn(p, "\n") + 1) {
		size_t n = strcspn(p, "\n");
		ck_assert_msg(n > 0 && p[n - 1] == ' ', "a word was cut");
	}
	body_joined(got, sizeof got);
	ck_assert_str_eq(got, m.body);

	/* two-byte characters: never cut in the middle of one */
	sample(&m);
	for (int i = 0; i < 1500; i++)
		memcpy(m.body + 1 + 2 * i, "é", 2);
	m.body[0] = 'x';    /* so the limit falls inside a character */
	m.body[3001] = '\0';
	build_ok(&m, &e);
	ck_assert_uint_le(longest_line(msg), MSG_LINE_MAX);
	b = strstr(msg, "\n\n") + 2;
	for (const char *p = b; *p; p += strcspn(p, "\n") + 1) {
		size_t n = strcspn(p, "\n");
		for (size_t i = 0; i < n;) {
			size_t k = utf8_seq((const unsigned char *)p + i, n - i);
			ck_assert_msg(k > 0, "a character was cut");
			i += k;
		}
	}
	body_joined(got, sizeof got);
	ck_assert_str_eq(got, m.body);

	/* the largest body there is fits */
	sample(&m);
	memset(m.body, 'y', sizeof m.body - 1);
	m.body[sizeof m.body - 1] = '\0';
	build_ok(&m, &e);
	memcpy(want, m.body, sizeof want);
	body_joined(got, sizeof got);
	ck_assert_str_eq(got, want);
}
END_TEST

static const struct {
	const char *in, *out;
} bodies[] = {
	{ "a\r\nb\rc\n", "a\nb\nc\n" },
	{ "no final newline", "no final newline\n" },
	{ "bad \xff byte\n", "bad ? byte\n" },
	{ "\n\n.\n", "\n\n.\n" },
	{ "", "" },
	{ "tab\there\n", "tab\there\n" },
};

START_TEST(test_body_text)
{
	store_outmail m;
	msg_env e = env_of(unsub);

	sample(&m);
	snprintf(m.body, sizeof m.body, "%s", bodies[_i].in);
	build_ok(&m, &e);
	ck_assert_str_eq(strstr(msg, "\n\n") + 2, bodies[_i].out);
}
END_TEST

START_TEST(test_too_small)
{
	store_outmail m;
	msg_env e = env_of(unsub);
	char small[300];
	size_t len = 5;

	sample(&m);
	small[0] = 'x';
	ck_assert_int_eq(msg_build(&m, &e, small, sizeof small, &len),
	                 MSG_TOO_BIG);
	ck_assert_str_eq(small, "");
	ck_assert_uint_eq(len, 0);
}
END_TEST

/* Random rows: either refused, or a message whose header section has
 * exactly the fields it should, no CR, no line over the limit. */
START_TEST(test_fuzz)
{
	static const char alphabet[] = "ab@.\r\n\t =?<>,;\"\xc3\xa9\xff\x80-_";
	uint64_t seed = 20241107;
	store_outmail m;
	msg_env e = env_of(unsub);
	int built = 0;

	for (int it = 0; it < 3000; it++) {
		sample(&m);
		char *fields[3] = { m.to, m.subject, m.body };
		size_t caps[3] = { 40, sizeof m.subject, 3000 };
		int which = it % 3;
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		size_t n = (size_t)(seed >> 33) % caps[which];
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005u + 1u;
			fields[which][i] = alphabet[(seed >> 33) %
			                            (sizeof alphabet - 1)];
		}
		fields[which][n] = '\0';
		size_t len;
		msg_rc rc = msg_build(&m, &e, msg, sizeof msg, &len);
		if (rc != MSG_OK) {
			ck_assert_int_eq(rc, MSG_BAD_TO);
			continue;
		}
		built++;
		ck_assert_int_eq(count_fields(msg), 12);
		ck_assert_ptr_null(memchr(msg, '\r', len));
		ck_assert_uint_le(longest_line(msg), MSG_LINE_MAX);
		ck_assert(!has_field(msg, "Bcc:"));
	}
	ck_assert_int_gt(built, 1500);
}
END_TEST

/* ---- delivery -------------------------------------------------------- */

START_TEST(test_split)
{
	char buf[SEND_CMD_MAX + 1], *argv[SEND_ARGS_MAX + 1], many[400];

	ck_assert_int_eq(send_split("/usr/sbin/sendmail  -t\t-i ", buf,
	                            sizeof buf, argv, SEND_ARGS_MAX + 1), 3);
	ck_assert_str_eq(argv[0], "/usr/sbin/sendmail");
	ck_assert_str_eq(argv[1], "-t");
	ck_assert_str_eq(argv[2], "-i");
	ck_assert_ptr_null(argv[3]);
	ck_assert_int_eq(send_split("msmtp", buf, sizeof buf, argv, 4), 1);
	ck_assert_int_eq(send_split("", buf, sizeof buf, argv, 4), -1);
	ck_assert_int_eq(send_split(" \t ", buf, sizeof buf, argv, 4), -1);
	ck_assert_int_eq(send_split("a b c d", buf, sizeof buf, argv, 4), -1);
	ck_assert_int_eq(send_split("a b c", buf, sizeof buf, argv, 4), 3);
	/* quotes and shell characters are plain bytes */
	ck_assert_int_eq(send_split("x 'a b' $(id);", buf, sizeof buf, argv,
	                            8), 4);
	ck_assert_str_eq(argv[1], "'a");
	ck_assert_str_eq(argv[3], "$(id);");
	memset(many, 'a', sizeof many - 1);
	many[sizeof many - 1] = '\0';
	ck_assert_int_eq(send_split(many, buf, 100, argv, 4), -1);
}
END_TEST

START_TEST(test_folder)
{
	char dir[256], name[64], path[512], why[SEND_WHY_MAX], first[128];
	store_outmail m;
	msg_env e = env_of(unsub);
	send_cfg c = { "/nonexistent/sendmail", dir, 5 };
	struct stat st;
	int others;
	size_t len, got;

	make_dir(dir, sizeof dir);
	sample(&m);
	len = build_ok(&m, &e);
	ck_assert_int_eq(send_message(&c, 42, 1700000000, msg, len, why,
	                              sizeof why), SEND_OK);
	ck_assert_str_eq(why, "");
	ck_assert_int_eq(emls(dir, first, sizeof first, &others), 1);
	ck_assert_int_eq(others, 0);
	snprintf(name, sizeof name, "1700000000-0000000042.eml");
	ck_assert_str_eq(first, name);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	ck_assert_str_eq(slurp(path, &got), msg);
	ck_assert_uint_eq(got, len);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	/* a resend of the same email replaces its file */
	msg[0] = 'd';
	ck_assert_int_eq(send_message(&c, 42, 1700000000, msg, len, why,
	                              sizeof why), SEND_OK);
	ck_assert_int_eq(emls(dir, first, sizeof first, &others), 1);
	ck_assert_int_eq(others, 0);
	ck_assert_str_eq(slurp(path, &got), msg);
	/* another one sorts after it */
	ck_assert_int_eq(send_message(&c, 43, 1700000000, msg, len, why,
	                              sizeof why), SEND_OK);
	ck_assert_int_eq(emls(dir, first, sizeof first, &others), 2);
	rm_dir(dir);

	/* a folder that is not there: an error that names it */
	c.mail_dir = "/nonexistent/bt-mail";
	ck_assert_int_eq(send_message(&c, 44, 1700000000, msg, len, why,
	                              sizeof why), SEND_ERROR);
	ck_assert_ptr_nonnull(strstr(why, "/nonexistent/bt-mail"));
}
END_TEST

/* The fake sendmail's folder, set up for one test. */
static char fake_dir[256], fake_cmd[1024];

static void fake_setup(void)
{
	make_dir(fake_dir, sizeof fake_dir);
	setenv("FAKE_MAIL_DIR", fake_dir, 1);
	unsetenv("FAKE_SENDMAIL_MODE");
	snprintf(fake_cmd, sizeof fake_cmd, "%s/tests/fake-sendmail -t -i",
	         fixture_src_dir());
}

static void fake_teardown(void)
{
	rm_dir(fake_dir);
}

START_TEST(test_sendmail_ok)
{
	char why[SEND_WHY_MAX], first[128], path[512];
	store_outmail m;
	msg_env e = env_of(unsub);
	send_cfg c = { fake_cmd, NULL, 10 };
	size_t len, got;
	int others;

	sample(&m);
	len = build_ok(&m, &e);
	ck_assert_int_eq(send_message(&c, 42, 1700000000, msg, len, why,
	                              sizeof why), SEND_OK);
	ck_assert_str_eq(why, "");
	ck_assert_int_eq(emls(fake_dir, first, sizeof first, &others), 1);
	ck_assert_int_eq(others, 0);
	snprintf(path, sizeof path, "%s/%s", fake_dir, first);
	ck_assert_str_eq(slurp(path, &got), msg);
	snprintf(path, sizeof path, "%s/.argv", fake_dir);
	ck_assert_str_eq(slurp(path, &got), "-t -i\n");
	/* no shell: the words reach it as they are */
	snprintf(fake_cmd + strlen(fake_cmd), 64, " $HOME 'x;y' `id`");
	ck_assert_int_eq(send_message(&c, 43, 1700000000, msg, len, why,
	                              sizeof why), SEND_OK);
	ck_assert_str_eq(slurp(path, &got), "-t -i\n-t -i $HOME 'x;y' `id`\n");
}
END_TEST

START_TEST(test_sendmail_fails)
{
	char why[SEND_WHY_MAX], first[128];
	store_outmail m;
	msg_env e = env_of(unsub);
	send_cfg c = { fake_cmd, "", 10 };
	size_t len;
	int others;

	sample(&m);
	len = build_ok(&m, &e);
	setenv("FAKE_SENDMAIL_MODE", "fail", 1);
	ck_assert_int_eq(send_message(&c, 42, 1700000000, msg, len, why,
	                              sizeof why), SEND_FAILED);
	ck_assert_str_eq(why, "fake-sendmail exited with status 75: "
	                      "fake-sendmail: told to fail");
	ck_assert_int_eq(emls(fake_dir, first, sizeof first, &others), 0);

	c.sendmail = "/nonexistent/sendmail -t -i";
	ck_assert_int_eq(send_message(&c, 42, 1700000000, msg, len, why,
	                              sizeof why), SEND_FAILED);
	ck_assert_str_eq(why, "sendmail exited with status 127: cannot run "
	                      "/nonexistent/sendmail: No such file or "
	                      "directory");

	c.sendmail = "false";     /* found on PATH */
	ck_assert_int_eq(send_message(&c, 42, 1700000000, msg, len, why,
	                              sizeof why), SEND_FAILED);
	ck_assert_str_eq(why, "false exited with status 1");

	c.sendmail = " ";
	ck_assert_int_eq(send_message(&c, 42, 1700000000, msg, len, why,
	                              sizeof why), SEND_ERROR);
}
END_TEST

/* 1 if process pid is gone (or a zombie nobody has reaped yet). */
static int gone(pid_t pid)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return kill(pid, 0) != 0;
	size_t n = fread(line, 1, sizeof line - 1, f);
	fclose(f);
	line[n] = '\0';
	const char *paren = strrchr(line, ')');   /* after the name */
	return paren != NULL && paren[1] == ' ' && paren[2] == 'Z';
}

START_TEST(test_sendmail_hangs)
{
	char why[SEND_WHY_MAX], path[512];
	store_outmail m;
	msg_env e = env_of(unsub);
	send_cfg c = { fake_cmd, NULL, 1 };
	struct timespec t0, t1;
	size_t len, got;

	sample(&m);
	len = build_ok(&m, &e);
	setenv("FAKE_SENDMAIL_MODE", "hang", 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(send_message(&c, 42, 1700000000, msg, len, why,
	                              sizeof why), SEND_TIMEOUT);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) +
	              (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_msg(secs >= 0.9 && secs < 3, "took %.2f s", secs);
	ck_assert_str_eq(why, "fake-sendmail took more than 1 s: killed");
	/* its child went with it: the whole process group was killed */
	snprintf(path, sizeof path, "%s/.hang-pid", fake_dir);
	pid_t child = (pid_t)atol(slurp(path, &got));
	ck_assert_int_gt(child, 1);
	for (int i = 0; i < 100 && !gone(child); i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	ck_assert_msg(gone(child), "the sleeping child %ld lives on",
	              (long)child);
}
END_TEST

static Suite *mail_suite(void)
{
	Suite *s = suite_create("mail");
	TCase *tc = tcase_create("message");

	tcase_add_test(tc, test_golden);
	tcase_add_test(tc, test_reply_to);
	tcase_add_test(tc, test_variants);
	tcase_add_loop_test(tc, test_date, 0, N(dates));
	tcase_add_loop_test(tc, test_subject, 0, N(subjects));
	tcase_add_test(tc, test_subject_limits);
	tcase_add_test(tc, test_subject_injection);
	tcase_add_loop_test(tc, test_refusals, 0, N(refusals));
	tcase_add_loop_test(tc, test_addr, 0, N(addrs));
	tcase_add_test(tc, test_addr_length);
	tcase_add_test(tc, test_body_lines);
	tcase_add_loop_test(tc, test_body_text, 0, N(bodies));
	tcase_add_test(tc, test_too_small);
	tcase_add_test(tc, test_fuzz);
	suite_add_tcase(s, tc);

	tc = tcase_create("delivery");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_folder);
	suite_add_tcase(s, tc);

	tc = tcase_create("sendmail");
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_test(tc, test_sendmail_ok);
	tcase_add_test(tc, test_sendmail_fails);
	tcase_add_test(tc, test_sendmail_hangs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	signal(SIGPIPE, SIG_IGN);   /* as the mailer does (send.h) */
	SRunner *sr = srunner_create(mail_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
