/*
 * check_inbound.c - received email (mail/inbound_*.h): every reply of
 * the corpus tests/data/inbound/NAME.eml, as mail programs write them,
 * against its NAME.expect (a file without one fails; the quote cutter
 * and the command reader alone are check_reply_text's); and the bounds
 * (too big,
 * nested too deep, invalid UTF-8 in a part said to be UTF-8, no body,
 * too many recipients), with every string that comes out valid UTF-8.
 *
 * NAME.expect has one KEY=VALUE a line ('#' starts a comment):
 *   move=N        the move number, 0 for none       (required)
 *   words=W       the move words, empty for none    (required)
 *   order=N N N   the Sensor Sweep order, or empty  (required)
 *   auto=0|1, bounce=0|1                            (required)
 *   say=TEXT      each say: line, in order (all of them, none if absent)
 *   from=, subject=, in_reply_to=, source=plain|html|none, rcpt= (each
 *   one must be among the recipients), written= (a line the written text
 *   must hold), not= (text the written text must not hold)
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "inbound_mime.h"
#include "inbound_reply.h"
#include "inbound_scan.h"
#include "inbound_text.h"
#include "utf8.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum { FILES_MAX = 64, NAME_MAX_ = 128, FILE_MAX = 2 * 1024 * 1024 };

static char corpus_dir[1024];
static char names[FILES_MAX][NAME_MAX_];
static int n_names;


static int valid_utf8(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap), i = 0, k;

	if (n >= cap)
		return 0;
	while (i < n) {
		k = utf8_seq((const unsigned char *)s + i, n - i);
		if (k == 0)
			return 0;
		i += k;
	}
	return 1;
}

/* Every string of m is NUL-terminated valid UTF-8 in its buffer. */
static void check_strings(const inbound_msg *m)
{
	int i;

	ck_assert(valid_utf8(m->from, sizeof m->from));
	ck_assert(valid_utf8(m->return_path, sizeof m->return_path));
	ck_assert(valid_utf8(m->message_id, sizeof m->message_id));
	ck_assert(valid_utf8(m->in_reply_to, sizeof m->in_reply_to));
	ck_assert(valid_utf8(m->subject, sizeof m->subject));
	ck_assert(valid_utf8(m->text, sizeof m->text));
	ck_assert(m->n_rcpt >= 0 && m->n_rcpt <= INBOUND_RCPT_MAX);
	ck_assert(m->n_refs >= 0 && m->n_refs <= INBOUND_REFS_MAX);
	ck_assert(m->n_auth >= 0 && m->n_auth <= INBOUND_AUTH_MAX);
	for (i = 0; i < m->n_rcpt; i++)
		ck_assert(valid_utf8(m->rcpt[i], INBOUND_ADDR_MAX));
	for (i = 0; i < m->n_refs; i++)
		ck_assert(valid_utf8(m->refs[i], INBOUND_ID_MAX));
	for (i = 0; i < m->n_auth; i++)
		ck_assert(valid_utf8(m->auth[i], INBOUND_AUTH_LEN));
	ck_assert(strchr(m->text, '\r') == NULL);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (f == NULL)
		return NULL;
	buf = malloc(FILE_MAX + 1);
	ck_assert_ptr_nonnull(buf);
	*len = fread(buf, 1, FILE_MAX, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* ---- the corpus --------------------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void find_corpus(void)
{
	const char *data = getenv("TESTDATA");
	DIR *d;
	struct dirent *e;

	snprintf(corpus_dir, sizeof corpus_dir, "%s/inbound",
	         data ? data : "tests/data");
	d = opendir(corpus_dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL && n_names < FILES_MAX) {
		size_t n = strlen(e->d_name);

		if (n > 4 && n < NAME_MAX_ && strcmp(e->d_name + n - 4, ".eml") == 0)
			snprintf(names[n_names++], NAME_MAX_, "%s", e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n_names, NAME_MAX_, cmp_names);
}

typedef struct {
	const inbound_msg *m;
	const inbound_reply *r;
	const char *written;
	const char *file;
	int says, required;
} result;

static void check_order(const result *res, const char *v)
{
	char got[32] = "";
	int i;

	for (i = 0; i < res->r->n_order; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d",
		         i ? " " : "", res->r->order[i]);
	ck_assert_msg(strcmp(got, v) == 0, "%s: order '%s', expected '%s'",
	              res->file, got, v);
}

static void check_rcpt(const result *res, const char *v)
{
	int i;

	for (i = 0; i < res->m->n_rcpt; i++)
		if (strcmp(res->m->rcpt[i], v) == 0)
			return;
	ck_abort_msg("%s: recipient %s not found", res->file, v);
}

static void check_str(const result *res, const char *key, const char *got,
                      const char *want)
{
	ck_assert_msg(strcmp(got, want) == 0, "%s: %s '%s', expected '%s'",
	              res->file, key, got, want);
}

static void check_key(result *res, const char *k, const char *v)
{
	static const char *const sources[] = { "none", "plain", "html" };
	char num[16];

	if (strcmp(k, "move") == 0) {
		snprintf(num, sizeof num, "%d", res->r->move);
		check_str(res, k, num, v);
		res->required |= 1;
	} else if (strcmp(k, "words") == 0) {
		check_str(res, k, res->r->words, v);
		res->required |= 2;
	} else if (strcmp(k, "order") == 0) {
		check_order(res, v);
		res->required |= 4;
	} else if (strcmp(k, "auto") == 0) {
		check_str(res, k, res->m->is_auto ? "1" : "0", v);
		res->required |= 8;
	} else if (strcmp(k, "bounce") == 0) {
		check_str(res, k, res->m->is_bounce ? "1" : "0", v);
		res->required |= 16;
	} else if (strcmp(k, "say") == 0) {
		ck_assert_msg(res->says < res->r->n_says, "%s: no say '%s'",
		              res->file, v);
		check_str(res, k, res->r->says[res->says++], v);
	} else if (strcmp(k, "from") == 0)
		check_str(res, k, res->m->from, v);
	else if (strcmp(k, "subject") == 0)
		check_str(res, k, res->m->subject, v);
	else if (strcmp(k, "in_reply_to") == 0)
		check_str(res, k, res->m->in_reply_to, v);
	else if (strcmp(k, "source") == 0)
		check_str(res, k, sources[res->m->source], v);
	else if (strcmp(k, "rcpt") == 0)
		check_rcpt(res, v);
	else if (strcmp(k, "written") == 0)
		ck_assert_msg(strstr(res->written, v) != NULL,
		              "%s: written text lacks '%s':\n%s", res->file, v,
		              res->written);
	else if (strcmp(k, "not") == 0)
		ck_assert_msg(strstr(res->written, v) == NULL,
		              "%s: written text holds '%s':\n%s", res->file, v,
		              res->written);
	else
		ck_abort_msg("%s: unknown key '%s'", res->file, k);
}

static void check_expect(result *res, char *exp)
{
	char *line = exp, *next, *eq;

	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#' || *line == '\0')
			continue;
		eq = strchr(line, '=');
		ck_assert_msg(eq != NULL, "%s: line without '=': %s", res->file, line);
		*eq = '\0';
		check_key(res, line, eq + 1);
	}
	ck_assert_msg(res->required == 31, "%s: .expect lacks one of move, "
	              "words, order, auto, bounce", res->file);
	ck_assert_msg(res->says == res->r->n_says, "%s: %d say lines, expected %d",
	              res->file, res->r->n_says, res->says);
}

START_TEST(test_corpus_file)
{
	static inbound_msg m;
	static inbound_reply r;
	static char written[INBOUND_TEXT_MAX];
	char path[1200], why[200];
	size_t len, elen;
	char *raw, *exp;
	result res = { &m, &r, written, names[_i], 0, 0 };

	snprintf(path, sizeof path, "%s/%s", corpus_dir, names[_i]);
	raw = slurp(path, &len);
	ck_assert_msg(raw != NULL, "cannot read %s", path);
	snprintf(path + strlen(path) - 4, 8, ".expect");
	exp = slurp(path, &elen);
	ck_assert_msg(exp != NULL, "%s has no expectations (%s)", names[_i], path);
	ck_assert_msg(inbound_parse(raw, len, &m, why, sizeof why) == 0,
	              "%s: %s", names[_i], why);
	check_strings(&m);
	inbound_written(m.text, written, sizeof written);
	ck_assert(valid_utf8(written, sizeof written));
	inbound_read_reply(written, &r);
	check_expect(&res, exp);
	free(raw);
	free(exp);
}
END_TEST

START_TEST(test_corpus_present)
{
	ck_assert_msg(n_names >= 12, "only %d .eml files in %s", n_names,
	              corpus_dir);
}
END_TEST

/* ---- the parser's bounds and headers ------------------------------------ */

static inbound_msg pm;
static char why[200];

static int parse(const char *raw)
{
	int rc = inbound_parse(raw, strlen(raw), &pm, why, sizeof why);

	check_strings(&pm);
	return rc;
}

static const char head[] =
	"From: Bob <bob@example.org>\nTo: turn+abc@games.example.org\n"
	"Subject: Re: Your turn\nMessage-ID: <m1@example.org>\n";

START_TEST(test_too_big)
{
	size_t n = INBOUND_RAW_MAX + 1;
	char *raw = malloc(n + 1);

	ck_assert_ptr_nonnull(raw);
	memset(raw, 'a', n);
	memcpy(raw, head, sizeof head - 1);
	raw[sizeof head - 1] = '\n';
	raw[n] = '\0';
	ck_assert_int_eq(inbound_parse(raw, n, &pm, why, sizeof why), -1);
	ck_assert_str_eq(why, "the message is larger than 1 MiB");
	/* one byte less is read, and its text cut to the bound */
	ck_assert_int_eq(inbound_parse(raw, n - 1, &pm, why, sizeof why), 0);
	ck_assert_uint_eq(strlen(pm.text), INBOUND_TEXT_MAX - 1);
	free(raw);
}
END_TEST

/* A message nested depth levels deep (multipart/mixed in each other),
 * with "deep" at the bottom. */
static char *nested(int depth)
{
	static char raw[64 * 1024];
	size_t k = (size_t)snprintf(raw, sizeof raw, "%s", head);
	int i;

	for (i = 0; i < depth; i++)
		k += (size_t)snprintf(raw + k, sizeof raw - k,
		                      "Content-Type: multipart/mixed; boundary=\"b%d\"\n"
		                      "\n--b%d\n", i, i);
	k += (size_t)snprintf(raw + k, sizeof raw - k,
	                      "Content-Type: text/plain\n\ndeep\n");
	for (i = depth - 1; i >= 0; i--)
		k += (size_t)snprintf(raw + k, sizeof raw - k, "--b%d--\n", i);
	return raw;
}

START_TEST(test_nesting)
{
	ck_assert_int_eq(parse(nested(INBOUND_DEPTH_MAX - 1)), 0);
	ck_assert_str_eq(pm.text, "deep");  /* the LF is the boundary's */
	ck_assert_int_eq(parse(nested(INBOUND_DEPTH_MAX + 4)), -1);
	ck_assert_str_eq(why, "the message's MIME parts are nested too deep");
	ck_assert_int_eq(parse(nested(INBOUND_NEST_MAX + 1)), -1);
	ck_assert_str_eq(why, "the message has too many nested MIME parts: "
	                 "more than 32 multipart or message types");
}
END_TEST

/* A message of head and n copies of line; NULL if over cap. */
static const char *repeated(const char *line, int n)
{
	static char raw[512 * 1024];
	size_t k = (size_t)snprintf(raw, sizeof raw, "%s", head);
	size_t len = strlen(line);

	for (int i = 0; i < n; i++) {
		ck_assert_uint_lt(k + len, sizeof raw);
		memcpy(raw + k, line, len);
		k += len;
	}
	raw[k] = '\0';
	return raw;
}

/* Each bound of inbound_scan.h holds at its value and refuses one more,
 * before GMime reads anything (issue 24: 209,642 empty parts cost
 * 282 MB). */
START_TEST(test_scan_bounds)
{
	inbound_counts c;
	const char *raw;

	raw = repeated("--a\n\n", INBOUND_DASHES_MAX);
	ck_assert_int_eq(inbound_scan(raw, strlen(raw), &c, why, sizeof why), 0);
	ck_assert_uint_eq(c.dashes, INBOUND_DASHES_MAX);
	ck_assert_int_eq(parse(repeated("--a\n\n", INBOUND_DASHES_MAX + 1)), -1);
	ck_assert_str_eq(why, "the message has too many MIME parts: more than "
	                 "256 lines start with \"--\"");
	/* head has 4 fields */
	ck_assert_int_eq(parse(repeated("X: y\n", INBOUND_FIELDS_MAX - 4)), 0);
	ck_assert_int_eq(parse(repeated("X: y\n", INBOUND_FIELDS_MAX - 3)), -1);
	ck_assert_str_eq(why, "the message has too many header fields: more "
	                 "than 2000");
	ck_assert_int_eq(parse(repeated("\xff\x01 :\n", INBOUND_FIELDS_MAX)),
	                 -1);
	ck_assert_int_eq(parse(repeated("Content-Type: text/plain\n",
	                                INBOUND_TYPES_MAX + 1)), -1);
	ck_assert_str_eq(why, "the message has too many MIME parts");
	ck_assert_int_eq(parse(repeated("Content-Disposition: a;b;c;d\n",
	                                INBOUND_PARAMS_MAX / 3 + 1)), -1);
	ck_assert_str_eq(why, "the message has too many MIME parameters: more "
	                 "than 1024");
	ck_assert_int_eq(parse(repeated("Cc: a@b,\n\tc@d\n", 600)), -1);
	ck_assert_str_eq(why, "the address fields are too long: more than 8192 "
	                 "bytes");
	ck_assert_int_eq(parse(repeated("X: y\n\tzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
	                                "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\n",
	                                1900)), -1);
	ck_assert_str_eq(why, "the header fields are too long: more than "
	                 "131072 bytes");
	/* indented, the lines of a body start no field */
	raw = repeated(" X: y\n", 20000);
	ck_assert_int_eq(inbound_scan(raw, strlen(raw), &c, why, sizeof why), 0);
	ck_assert_uint_eq(c.fields, 4);
}
END_TEST

START_TEST(test_invalid_utf8)
{
	char raw[1024];

	snprintf(raw, sizeof raw, "%sContent-Type: text/plain; charset=utf-8\n"
	         "Content-Transfer-Encoding: 8bit\n\n"
	         "say: tr\xe8s bien \xc3\xa9t\xc3\n\xff\xfe\x80 2\n", head);
	ck_assert_int_eq(parse(raw), 0);
	/* valid sequences kept, the other bytes read as windows-1252 */
	ck_assert_str_eq(pm.text, "say: tr\xc3\xa8s bien \xc3\xa9t\xc3\x83\n"
	                 "\xc3\xbf\xc3\xbe\xe2\x82\xac 2\n");
}
END_TEST

START_TEST(test_no_body)
{
	ck_assert_int_eq(parse(head), 0);
	ck_assert_str_eq(pm.text, "");
	ck_assert_int_eq(pm.source, INBOUND_NO_TEXT);
	ck_assert_str_eq(pm.from, "bob@example.org");
	ck_assert_str_eq(pm.message_id, "m1@example.org");
	ck_assert_int_eq(parse(""), -1);
}
END_TEST

START_TEST(test_attachment_only)
{
	char raw[1024];

	snprintf(raw, sizeof raw, "%sContent-Type: text/plain\n"
	         "Content-Disposition: attachment; filename=a.txt\n\n2\n", head);
	ck_assert_int_eq(parse(raw), 0);
	ck_assert_str_eq(pm.text, "");
}
END_TEST

START_TEST(test_headers)
{
	char raw[8192];
	size_t k;
	int i;

	k = (size_t)snprintf(raw, sizeof raw,
		"Return-Path: <bob@example.org>\n"
		"Delivered-To: turn+abc@games.example.org\n"
		"X-Original-To: turn+abc@games.example.org\n"
		"Authentication-Results: mx.games.example.org;\n"
		"\tdkim=pass header.d=example.org;\n\tspf=pass\n"
		"Authentication-Results: evil.example; dkim=pass\n"
		"From: =?UTF-8?Q?Bj=C3=B6rn?= <bjorn@example.org>\n"
		"Subject: =?ISO-8859-1?Q?Re:_Dein_Zug_=E4?=\n"
		"In-Reply-To: <bt.7.3@games.example.org>\n"
		"References: <a@x> <b@x>\n <bt.7.3@games.example.org>\n"
		"Auto-Submitted: no\nTo: ");
	for (i = 0; i < 20; i++)
		k += (size_t)snprintf(raw + k, sizeof raw - k, "%sp%d@example.org",
		                      i ? ", " : "", i);
	snprintf(raw + k, sizeof raw - k, "\n\nhi\n");
	ck_assert_int_eq(parse(raw), 0);
	ck_assert_str_eq(pm.from, "bjorn@example.org");
	ck_assert_str_eq(pm.return_path, "bob@example.org");
	ck_assert_int_eq(pm.null_sender, 0);
	ck_assert_str_eq(pm.subject, "Re: Dein Zug \xc3\xa4");
	ck_assert_str_eq(pm.in_reply_to, "bt.7.3@games.example.org");
	ck_assert_int_eq(pm.n_refs, 3);
	ck_assert_str_eq(pm.refs[0], "a@x");
	ck_assert_str_eq(pm.refs[2], "bt.7.3@games.example.org");
	ck_assert_int_eq(pm.n_rcpt, INBOUND_RCPT_MAX);
	ck_assert_str_eq(pm.rcpt[0], "turn+abc@games.example.org");
	ck_assert_str_eq(pm.rcpt[2], "p0@example.org");
	ck_assert_int_eq(pm.n_auth, 2);
	ck_assert_str_eq(pm.auth[0], "mx.games.example.org; dkim=pass "
	                 "header.d=example.org; spf=pass");
	ck_assert_str_eq(pm.auth[1], "evil.example; dkim=pass");
	ck_assert_int_eq(pm.is_auto, 0);
	ck_assert_int_eq(pm.is_bounce, 0);
}
END_TEST

static const struct {
	const char *header;
	int is_auto, bounce;
} autos[] = {
	{ "Auto-Submitted: auto-replied\n", 1, 0 },
	{ "Auto-Submitted: No (a person)\n", 0, 0 },
	{ "Precedence: bulk\n", 1, 0 },
	{ "Precedence: junk\n", 1, 0 },
	{ "Precedence: list\n", 1, 0 },
	{ "Precedence: first-class\n", 0, 0 },
	{ "X-Autoreply: yes\n", 1, 0 },
	{ "X-Autorespond: yes\n", 1, 0 },
	{ "List-Id: <games.example.org>\n", 1, 0 },
	{ "List-Unsubscribe: <https://x/u>\n", 1, 0 },
	{ INBOUND_LOOP_HEADER ": games.example.org\n", 1, 0 },
	{ "X-Auto-Response-Suppress: All\n", 0, 0 },
	{ "Subject: Automatic reply: Your turn\n", 1, 0 },
	{ "Subject: Out of Office: Your turn\n", 1, 0 },
	{ "Subject: Abwesenheitsnotiz: Dein Zug\n", 1, 0 },
	{ "Subject: =?UTF-8?Q?R=C3=A9ponse_automatique_:_?=\n", 1, 0 },
	{ "Subject: Re: Out of office tomorrow\n", 0, 0 },
	{ "Return-Path: <>\nFrom: MAILER-DAEMON@mx.example.org\n", 0, 1 },
	{ "Return-Path: <>\nFrom: postmaster@mx.example.org\n", 0, 1 },
	{ "Return-Path: <>\nFrom: bob@example.org\n", 0, 0 },
	{ "Return-Path: <bounce@x>\nFrom: MAILER-DAEMON@mx.example.org\n", 0, 0 },
	{ "Content-Type: multipart/report; report-type=delivery-status; "
	  "boundary=b\n\n--b\nContent-Type: text/plain\n\nx\n--b--\n", 0, 1 },
	{ "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: "
	  "message/delivery-status\n\nx\n--b--\n", 0, 1 },
};

START_TEST(test_automatic)
{
	char raw[1024];

	snprintf(raw, sizeof raw, "%s%s%s", autos[_i].header,
	         strstr(autos[_i].header, "From:") ? "" :
	         "From: bob@example.org\n",
	         strstr(autos[_i].header, "\n\n") ? "" : "\nbody\n");
	ck_assert_int_eq(parse(raw), 0);
	ck_assert_int_eq(pm.is_auto, autos[_i].is_auto);
	ck_assert_int_eq(pm.is_bounce, autos[_i].bounce);
}
END_TEST

/* Random bytes and cut corpus-like messages: never a crash, and every
 * string out is valid UTF-8 in its bound. */
START_TEST(test_random)
{
	static char raw[4096], written[INBOUND_TEXT_MAX];
	inbound_reply r;
	unsigned x = 12345;
	int i;
	size_t k, n;

	for (i = 0; i < 300; i++) {
		n = (size_t)snprintf(raw, sizeof raw, "%sContent-Type: %s\n"
		                     "Content-Transfer-Encoding: %s\n\n", head,
		                     i % 3 ? "text/plain; charset=koi8-r" : "text/html",
		                     i % 2 ? "base64" : "quoted-printable");
		for (k = n; k < n + 600; k++) {
			x = x * 1103515245u + 12345u;
			raw[k] = (char)(x >> 16);
		}
		inbound_parse(raw, k, &pm, why, sizeof why);
		check_strings(&pm);
		inbound_written(pm.text, written, sizeof written);
		ck_assert(valid_utf8(written, sizeof written));
		inbound_read_reply(written, &r);
		ck_assert(valid_utf8(r.words, sizeof r.words));
	}
}
END_TEST

/* libxml2 is loaded for an HTML-only email and not before (loading it
 * cost more than handling a whole plain-text reply).  In a child of
 * its own, so that no earlier test has loaded it. */
static int xml_loaded(void)
{
	void *lib = dlopen(XML_SONAME, RTLD_LAZY | RTLD_NOLOAD);

	if (lib)
		dlclose(lib);
	return lib != NULL;
}

static int html_loaded_late(void)
{
	char raw[2048];

	if (xml_loaded())
		return 1;
	snprintf(raw, sizeof raw, "%sContent-Type: multipart/alternative; "
	         "boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\nwork\n"
	         "--b\nContent-Type: text/html\n\n<p>work</p>\n--b--\n", head);
	if (parse(raw) != 0 || strcmp(pm.text, "work") != 0)
		return 2;
	if (xml_loaded())
		return 3;
	snprintf(raw, sizeof raw, "%sContent-Type: text/html\n\n"
	         "<p>side <b>trivia</b>&nbsp;night</p>\n", head);
	if (parse(raw) != 0 || strcmp(pm.text, "side trivia night\n") != 0)
		return 4;
	return xml_loaded() ? 0 : 5;
}

START_TEST(test_html_parser_loaded_when_needed)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(html_loaded_late());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	/* 1 loaded at start, 2/4 misread, 3 loaded for a text part, 5 not
	 * loaded for HTML */
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

static Suite *inbound_suite(void)
{
	Suite *s = suite_create("inbound");
	TCase *tc = tcase_create("corpus");

	tcase_add_test(tc, test_corpus_present);
	tcase_add_loop_test(tc, test_corpus_file, 0, n_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("parse");
	tcase_add_test(tc, test_too_big);
	tcase_add_test(tc, test_nesting);
	tcase_add_test(tc, test_scan_bounds);
	tcase_add_test(tc, test_invalid_utf8);
	tcase_add_test(tc, test_no_body);
	tcase_add_test(tc, test_attachment_only);
	tcase_add_test(tc, test_html_parser_loaded_when_needed);
	tcase_add_test(tc, test_headers);
	tcase_add_loop_test(tc, test_automatic, 0, N(autos));
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	find_corpus();
	sr = srunner_create(inbound_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
