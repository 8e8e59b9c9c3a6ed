/*
 * check_fields.c - the table of form and query fields (cgi/fields.h)
 * against the templates that write the forms: every field a template
 * writes is declared, every form field declared is written by a
 * template, and each reads within its declared bounds; and against the
 * names the links are written with (links/query.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <dirent.h>

#include "fields.h"
#include "fixture.h"
#include "query.h"

enum { PAGE_MAX = 64 * 1024, TEMPLATES_MAX = 64 };

/* The first form field (FIELD_CSRF..FIELD_MINUTES) come from forms the
 * templates write; the rest are query strings the code writes. */
enum { FIRST_QUERY_FIELD = FIELD_AT };

typedef struct seen {
	int written[FIELD__COUNT];
	int names;            /* name="..." of form controls checked */
} seen;

/* The name of the control a tag starts: "<input ... name="X"", or NULL
 * for a tag that is not a form control (<meta name=...>). */
static const char *control_name(const char *tag, char *name, size_t cap)
{
	static const char *const controls[] = { "<input", "<select",
	                                        "<textarea", "<button" };
	const char *end = strchr(tag, '>'), *n;
	size_t len;
	int control = 0;

	for (size_t i = 0; i < sizeof controls / sizeof controls[0]; i++)
		control |= strncmp(tag, controls[i], strlen(controls[i])) == 0;
	if (!control || !end || !(n = strstr(tag, " name=\"")) || n > end)
		return NULL;
	n += strlen(" name=\"");
	len = strcspn(n, "\"");
	ck_assert_uint_lt(len, cap);
	memcpy(name, n, len);
	name[len] = '\0';
	return name;
}

/* Checks one control's name: declared, and marks it written. */
static void check_name(const char *file, const char *name, seen *s)
{
	char row[FIELD_NAME_MAX + 1];
	const char *brace = strstr(name, "{{");
	field_id id;

	if (strcmp(name, "{{sel_name}}") == 0)
		return;   /* action_forms.c names it: FIELD_ARG1, FIELD_ARG2 */
	if (brace) {
		/* "name{{seat_no}}": rows of a row field */
		ck_assert_int_lt((int)(brace - name), FIELD_NAME_MAX - 1);
		snprintf(row, sizeof row, "%.*s1", (int)(brace - name), name);
		name = row;
	}
	id = field_find(name);
	ck_assert_msg(id != FIELD__COUNT, "%s writes a field \"%s\" that "
	              "cgi/fields.c does not declare", file, name);
	ck_assert_msg(!brace || field_get(id)->rows > 0,
	              "%s: %s is written as rows but is no row field", file,
	              name);
	s->written[id] = 1;
	s->names++;
}

static void check_template(const char *dir, const char *file, seen *s)
{
	static char page[PAGE_MAX + 1];
	char path[FIXTURE_PATH_MAX * 2], name[FIELD_NAME_MAX * 2];
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	n = fread(page, 1, PAGE_MAX, f);
	ck_assert(feof(f));
	fclose(f);
	page[n] = '\0';
	for (const char *t = strchr(page, '<'); t; t = strchr(t + 1, '<'))
		if (control_name(t, name, sizeof name))
			check_name(file, name, s);
}

START_TEST(test_every_template_field_is_declared_and_read)
{
	char dir[FIXTURE_PATH_MAX];
	seen s = { { 0 }, 0 };
	struct dirent *e;
	DIR *d;
	int files = 0;

	snprintf(dir, sizeof dir, "%s/templates", fixture_src_dir());
	d = opendir(dir);
	ck_assert_msg(d != NULL, "%s", dir);
	while ((e = readdir(d)) != NULL && files < TEMPLATES_MAX) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".html") == 0) {
			check_template(dir, e->d_name, &s);
			files++;
		}
	}
	closedir(d);
	ck_assert_int_ge(files, 10);
	ck_assert_int_ge(s.names, 20);
	s.written[FIELD_ARG1] = s.written[FIELD_ARG2] = 1;   /* sel_name */
	/* the form counts its rows; a script may say how many it means */
	s.written[FIELD_PLAYERS] = 1;
	for (int id = 0; id < FIRST_QUERY_FIELD; id++)
		ck_assert_msg(s.written[id], "cgi/fields.c declares the form "
		              "field \"%s\", which no template writes",
		              field_get((field_id)id)->name);
}
END_TEST

/* f parsed from query text. */
static void parse(form *f, const char *text)
{
	char why[FORM_WHY_MAX];

	ck_assert_msg(form_parse(f, text, strlen(text), why, sizeof why) ==
	              FORM_OK, "%s", why);
}

START_TEST(test_fields_read_within_their_bounds)
{
	static form f;
	int64_t v = -1;

	parse(&f, "remind=720&players=7&at=0&s=0&first=random");
	ck_assert_int_eq(field_int(&f, FIELD_REMIND, &v), FORM_OK);
	ck_assert_int_eq(v, 720);
	ck_assert_int_eq(field_int(&f, FIELD_PLAYERS, &v), FORM_BAD_NUMBER);
	ck_assert_int_eq(field_int(&f, FIELD_AT, &v), FORM_OK);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(field_int(&f, FIELD_SEAT, &v), FORM_BAD_NUMBER);
	ck_assert_int_eq(field_int(&f, FIELD_SEQ, &v), FORM_MISSING);
	/* text fields read as text only */
	ck_assert_str_eq(field_text(&f, FIELD_FIRST), "random");
	ck_assert_int_eq(field_int(&f, FIELD_FIRST, &v), FORM_BAD_NUMBER);
	ck_assert_int_eq(field_int(&f, FIELD_TEXT, &v), FORM_MISSING);

	parse(&f, "remind=721&minutes3=15&name6=Ann&name7=Ben&name0=Cy");
	ck_assert_int_eq(field_int(&f, FIELD_REMIND, &v), FORM_BAD_NUMBER);
	ck_assert_int_eq(field_row_int(&f, FIELD_MINUTES, 3, &v), FORM_OK);
	ck_assert_int_eq(v, 15);
	ck_assert_int_eq(field_row_int(&f, FIELD_MINUTES, 2, &v),
	                 FORM_MISSING);
	ck_assert_str_eq(field_row_text(&f, FIELD_NAME, 6), "Ann");
	/* rows are 1..6: name7 and name0 are no fields of ours */
	ck_assert_ptr_null(field_row_text(&f, FIELD_NAME, 7));
	ck_assert_ptr_null(field_row_text(&f, FIELD_NAME, 0));
	ck_assert_int_eq(field_find("name7"), FIELD__COUNT);
	ck_assert_int_eq(field_find("name0"), FIELD__COUNT);
	ck_assert_int_eq(field_find("name"), FIELD__COUNT);
	ck_assert_int_eq(field_find("name3"), FIELD_NAME);
	ck_assert_int_eq(field_find("at"), FIELD_AT);
	/* a row field is not read whole, nor a field as a row */
	ck_assert_ptr_null(field_text(&f, FIELD_NAME));
	ck_assert_ptr_null(field_row_text(&f, FIELD_REMIND, 1));
}
END_TEST

START_TEST(test_every_field_has_one_name)
{
	for (int i = 0; i < FIELD__COUNT; i++) {
		const field_spec *a = field_get((field_id)i);
		ck_assert_ptr_nonnull(a->name);
		ck_assert_uint_lt(strlen(a->name) + 1, FIELD_NAME_MAX);
		ck_assert_msg(a->kind == FIELD_KIND_TEXT || a->min <= a->max,
		              "%s: bounds", a->name);
		for (int j = 0; j < i; j++)
			ck_assert_msg(strcmp(a->name,
			              field_get((field_id)j)->name) != 0,
			              "two fields named %s", a->name);
	}
	ck_assert_ptr_null(field_get(FIELD__COUNT));
}
END_TEST

/* The names the links are written with (links/query.h), each the
 * field it is read as. */
static const struct {
	const char *name;
	field_id id;
} query_names[] = {
	{ QUERY_AT, FIELD_AT },
	{ QUERY_NOTICE, FIELD_NOTICE },
	{ QUERY_TOKEN, FIELD_TOKEN },
	{ QUERY_CONFIRMED, FIELD_CONFIRMED },
	{ QUERY_AGAIN, FIELD_AGAIN },
	{ QUERY_KEY, FIELD_KEY },
	{ QUERY_SEAT, FIELD_SEAT },
	{ QUERY_ADDRESS, FIELD_ADDRESS },
};

START_TEST(test_links_write_the_names_the_table_reads)
{
	int covered[FIELD__COUNT] = { 0 };

	for (size_t i = 0; i < sizeof query_names / sizeof query_names[0];
	     i++) {
		field_id id = field_find(query_names[i].name);
		ck_assert_msg(id == query_names[i].id, "links write ?%s=, "
		              "which cgi/fields.c %s", query_names[i].name,
		              id == FIELD__COUNT ? "does not declare"
		                                 : "declares as another field");
		covered[id] = 1;
	}
	for (int id = FIRST_QUERY_FIELD; id < FIELD__COUNT; id++)
		ck_assert_msg(covered[id], "the query field \"%s\" has no "
		              "name in links/query.h",
		              field_get((field_id)id)->name);
}
END_TEST

/* A query written with the names as the writers write it reads back
 * through the table. */
START_TEST(test_a_written_query_reads_back)
{
	static form f;
	char text[256];
	int64_t v = -1;

	snprintf(text, sizeof text, "%s&%s=%d&%s=TOK&%s=1&%s=1&%s=KEY&%s=%d"
	         "&%s=a%%40b", QUERY_NOTICE_OF(QUERY_NOTICE_STALE) + 1,
	         QUERY_AT, 7, QUERY_TOKEN, QUERY_CONFIRMED, QUERY_AGAIN,
	         QUERY_KEY, QUERY_SEAT, 2, QUERY_ADDRESS);
	parse(&f, text);
	ck_assert_str_eq(field_text(&f, FIELD_NOTICE), "stale");
	ck_assert_int_eq(field_int(&f, FIELD_AT, &v), FORM_OK);
	ck_assert_int_eq(v, 7);
	ck_assert_str_eq(field_text(&f, FIELD_TOKEN), "TOK");
	ck_assert_str_eq(field_text(&f, FIELD_CONFIRMED), "1");
	ck_assert_str_eq(field_text(&f, FIELD_AGAIN), "1");
	ck_assert_str_eq(field_text(&f, FIELD_KEY), "KEY");
	ck_assert_int_eq(field_int(&f, FIELD_SEAT, &v), FORM_OK);
	ck_assert_int_eq(v, 2);
	ck_assert_str_eq(field_text(&f, FIELD_ADDRESS), "a@b");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fields");
	TCase *tc = tcase_create("fields");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_every_template_field_is_declared_and_read);
	tcase_add_test(tc, test_fields_read_within_their_bounds);
	tcase_add_test(tc, test_every_field_has_one_name);
	tcase_add_test(tc, test_links_write_the_names_the_table_reads);
	tcase_add_test(tc, test_a_written_query_reads_back);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
