/*
 * driver_pg_sql.c - the SQL side of the PostgreSQL driver (driver_pg.c),
 * with no server: the store's ?N parameters made PostgreSQL's $N, what a
 * statement does to a transaction, and SQLSTATEs as the store's codes.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "driver_pg_sql.h"

/* The SQLSTATE classes the store acts on (PostgreSQL's appendix A). */
db_code pg_sql_code(const char *state)
{
	static const char *const busy[] = { "40001", "40P01", "55P03" };
	static const char *const gone[] = { "57P01", "57P02", "57P03" };

	if (!state || strlen(state) != 5)
		return DB_ERROR;
	for (size_t i = 0; i < sizeof busy / sizeof *busy; i++)
		if (!strcmp(state, busy[i]))
			return DB_BUSY;
	for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
		if (!strcmp(state, gone[i]))
			return DB_GONE;
	if (!strncmp(state, "23", 2))
		return DB_CONSTRAINT;
	if (!strncmp(state, "08", 2))
		return DB_GONE;
	if (!strcmp(state, "53100"))
		return DB_FULL;
	if (!strcmp(state, "XX001") || !strcmp(state, "XX002"))
		return DB_CORRUPT;
	return DB_ERROR;
}

static int word_is(const char *p, size_t n, const char *word)
{
	return strlen(word) == n && !strncasecmp(p, word, n);
}

/* Whether sql's first statement ends a transaction (COMMIT, END;
 * ROLLBACK, ABORT, but not ROLLBACK TO a savepoint). */
enum pg_tx_end pg_sql_tx_end(const char *sql)
{
	enum pg_tx_end ends = PG_TX_NONE;

	for (int first = 1; *sql && *sql != ';'; first = 0) {
		while (isspace((unsigned char)*sql))
			sql++;
		size_t n = 0;
		while (isalpha((unsigned char)sql[n]))
			n++;
		if (!n)
			break;
		if (first && (word_is(sql, n, "COMMIT") || word_is(sql, n, "END")))
			ends = PG_TX_COMMIT;
		else if (first && (word_is(sql, n, "ROLLBACK") ||
		                   word_is(sql, n, "ABORT")))
			ends = PG_TX_ROLLBACK;
		else if (first || word_is(sql, n, "TO") ||
		         word_is(sql, n, "PREPARED"))
			return PG_TX_NONE;
		sql += n;
	}
	return ends;
}

int pg_sql_retryable(const char *sql)
{
	static const char *const first_words[] = {
		"BEGIN", "SELECT", "SET", "SHOW", "VALUES"
	};
	size_t n = 0;

	while (isspace((unsigned char)*sql))
		sql++;
	while (isalpha((unsigned char)sql[n]))
		n++;
	for (size_t i = 0; i < sizeof first_words / sizeof *first_words; i++)
		if (word_is(sql, n, first_words[i]))
			return 1;
	return 0;
}

enum pg_begin pg_sql_begins(const char *sql)
{
	int words = 0, read = 0, read_only = 0;

	for (; *sql && *sql != ';'; words++) {
		while (isspace((unsigned char)*sql) || *sql == ',')
			sql++;
		size_t n = 0;
		while (isalpha((unsigned char)sql[n]))
			n++;
		if (!n)
			break;
		if (words == 0 && !word_is(sql, n, "BEGIN") &&
		    !word_is(sql, n, "START"))
			return PG_BEGIN_NONE;
		read_only |= read && word_is(sql, n, "ONLY");
		read = word_is(sql, n, "READ");
		sql += n;
	}
	if (!words)
		return PG_BEGIN_NONE;
	while (*sql == ';' || isspace((unsigned char)*sql))
		sql++;
	/* anything after the BEGIN (a script) runs with it */
	return read_only && !*sql ? PG_BEGIN_READ_ONLY : PG_BEGIN_OTHER;
}

/* The end of the quoted text (quote q doubled inside) or comment at i. */
static size_t skip_quoted(const char *s, size_t i)
{
	char q = s[i++];

	for (; s[i]; i++)
		if (s[i] == q && s[i + 1] == q)
			i++;
		else if (s[i] == q)
			return i + 1;
	return i;
}

static size_t skip_comment(const char *s, size_t i)
{
	int depth = 0;

	if (s[i] == '-')
		return i + strcspn(s + i, "\n");
	do {    /* PostgreSQL's block comments nest */
		if (s[i] == '/' && s[i + 1] == '*')
			depth++, i += 2;
		else if (s[i] == '*' && s[i + 1] == '/')
			depth--, i += 2;
		else
			i++;
	} while (depth > 0 && s[i]);
	return i;
}

/* Copies sql to out (as long) with ?N made $N outside quotes and
 * comments; *nparams: the highest N.  0, or -1 with why. */
int pg_sql_translate(const char *sql, char *out, int *nparams, char *why,
                     size_t cap)
{
	size_t i = 0, o = 0;

	*nparams = 0;
	while (sql[i]) {
		size_t end = i + 1;
		if (sql[i] == '\'' || sql[i] == '"')
			end = skip_quoted(sql, i);
		else if ((sql[i] == '-' && sql[i + 1] == '-') ||
		         (sql[i] == '/' && sql[i + 1] == '*'))
			end = skip_comment(sql, i);
		else if (sql[i] == '?') {
			long n = 0;
			while (isdigit((unsigned char)sql[end]) && n <= PG_SQL_MAX_PARAM)
				n = n * 10 + (sql[end++] - '0');
			if (n < 1 || n > PG_SQL_MAX_PARAM) {
				snprintf(why, cap, "a parameter must be numbered "
				         "?1 to ?%d, at \"%.20s\"", PG_SQL_MAX_PARAM,
				         sql + i);
				return -1;
			}
			if (n > *nparams)
				*nparams = (int)n;
			out[o++] = '$';
			i++;
			continue;   /* the digits are copied as they are */
		}
		memcpy(out + o, sql + i, end - i);
		o += end - i;
		i = end;
	}
	out[o] = '\0';
	return 0;
}

/* libpq's messages run over several lines (a hint, a tab): one line. */
void pg_sql_one_line(const char *src, char *dst, size_t cap)
{
	size_t o = 0;

	if (!cap)
		return;
	for (; src && *src && o + 1 < cap; src++) {
		char ch = isspace((unsigned char)*src) ? ' ' : *src;
		if (ch == ' ' && (o == 0 || dst[o - 1] == ' '))
			continue;
		dst[o++] = ch;
	}
	while (o > 0 && dst[o - 1] == ' ')
		o--;
	dst[o] = '\0';
}
