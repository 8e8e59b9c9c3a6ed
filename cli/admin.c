/*
 * admin.c - "buffertime admin [--db FILE] COMMAND ARGS": the operator's
 * hands on the games database (db/store.h).  COMMAND is one of create,
 * list, show, export, import, revoke, link, backup and check.
 *
 * Every command goes through the same three steps: its arguments are
 * parsed into a job (typed values: a checked game id, a seat, a replayed
 * record), then the database is opened, then the command runs.  Nothing
 * is opened before the arguments are known to be good, so a typo or a bad
 * record never creates or touches a database.
 *
 * Exit status as for every subcommand (cli.h): 0, 1 for a store or record
 * error, 2 for a usage error.  A seed is printed only by "export", and
 * only as store_export() allows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sodium.h>

#include "admin.h"
#include "cli.h"
#include "message.h"
#include "record.h"
#include "store_push.h"
#include "store.h"
#include "talk.h"
#include "token.h"
#include "view.h"

#ifndef BT_DEFAULT_DB
#error "BT_DEFAULT_DB must name the default database (see Makefile.am)"
#endif

static const char usage_head[] = "usage: buffertime admin [--db FILE] ";

static int usage_error(const command *c, const char *what, const char *why)
{
	fprintf(stderr, "buffertime admin %s: %s%s\n%s%s\n", c->name, what,
	        why, usage_head, c->usage);
	return 2;
}

int admin_store_fail(const store_error *e)
{
	fprintf(stderr, "buffertime admin: %s: %s\n", store_rc_name(e->rc),
	        e->why);
	return 1;
}

/* Flushes standard output.  Returns 0, or 1 after saying why not. */
int admin_flush_out(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "buffertime admin: writing: %s\n",
		        strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- typed values ------------------------------------------------------ */

/* A seat 1..BT_MAX_PLAYERS, else 0. */
static int parse_seat(const char *s)
{
	int n = cli_small_number(s);

	return n <= BT_MAX_PLAYERS ? n : 0;
}

/* 1 if s has the shape of a game id: STORE_ID_LEN base64url characters. */
static int is_game_id(const char *s)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                               "abcdefghijklmnopqrstuvwxyz0123456789-_";
	size_t n = strlen(s);

	return n == STORE_ID_LEN && strspn(s, alphabet) == n;
}

/* Checks pos[0] as GAME into j->id.  Returns 0 or an exit status. */
static int check_game(job *j)
{
	if (!is_game_id(j->pos[0])) {
		fprintf(stderr, "buffertime admin %s: not a game id (%d"
		        " characters of A-Z a-z 0-9 - _): '%.40s'\n",
		        j->cmd->name, STORE_ID_LEN, j->pos[0]);
		return 2;
	}
	memcpy(j->id, j->pos[0], STORE_ID_LEN + 1);
	return 0;
}

/* ---- options ----------------------------------------------------------- */

static const char *set_players(job *j, const char *val)
{
	if (j->ng.players != 0)
		return " given twice";
	j->ng.players = cli_small_number(val);
	if (j->ng.players < BT_MIN_PLAYERS || j->ng.players > BT_MAX_PLAYERS)
		return " must be 2 to 6";
	return NULL;
}

static const char *set_first(job *j, const char *val)
{
	if (j->ng.first != 0)
		return " given twice";
	if ((j->ng.first = parse_seat(val)) == 0)
		return " must be a seat from 1 to 6";
	return NULL;
}

/* The value is not echoed: it may be a real seed with a typo. */
static const char *set_seed(job *j, const char *val)
{
	uint8_t key[BT_KEY_BYTES];

	if (j->ng.seed != NULL)
		return " given twice";
	if (bt_seed_parse(val, strlen(val), key))
		return " must be 1 to 64 hex digits";
	sodium_memzero(key, sizeof key);
	j->ng.seed = val;
	return NULL;
}

/* Why a name that talk_clean_name leaves empty is refused. */
static const char hidden_only[] = ": nothing left once its control and "
                                  "invisible characters are removed";

/* Names and emails come in seat order.  A name loses its control and
 * invisible characters as on the new-game form ("" stays: no name); the
 * store judges the rest. */
static const char *set_name(job *j, const char *val)
{
	char *name;

	if (j->nnames == BT_MAX_PLAYERS)
		return ": more names than the 6 seats";
	name = j->names[j->nnames];
	switch (talk_clean_name(val, name, sizeof j->names[0])) {
	case TALK_OK:
		break;
	case TALK_EMPTY:
		if (val[0] != '\0')
			return hidden_only;
		break;
	case TALK_TOO_LONG:
		return ": too long (a name is at most 40 characters)";
	case TALK_BAD_TEXT:
	default:
		return ": not valid UTF-8";
	}
	j->ng.names[j->nnames++] = name;
	return NULL;
}

static const char *set_email(job *j, const char *val)
{
	if (j->nemails == BT_MAX_PLAYERS)
		return ": more emails than the 6 seats";
	if (strlen(val) > STORE_EMAIL_MAX)
		return ": too long (an email address is at most 254 bytes)";
	if (val[0] && !msg_addr_ok(val))
		return ": not a plain name@example.org address that mail "
		       "can go to";
	j->ng.emails[j->nemails++] = val;
	return NULL;
}

/* --bot SEAT: the search bot plays that seat (the worker moves for it). */
static const char *set_bot(job *j, const char *val)
{
	int seat = parse_seat(val);

	if (seat == 0)
		return " must be a seat from 1 to 6";
	if (j->ng.bots[seat - 1])
		return " names a seat twice";
	j->ng.bots[seat - 1] = "search";
	return NULL;
}

/* --practice: a practice table (the seat to move is shown hints). */
static const char *set_practice(job *j, const char *val)
{
	(void)val;
	if (j->ng.practice)
		return " given twice";
	j->ng.practice = 1;
	return NULL;
}

static const char *set_options(job *j, const char *val)
{
	if (j->ng.options != NULL)
		return " given twice";
	if (strlen(val) > STORE_OPTIONS_MAX)
		return ": too long (at most 1024 bytes)";
	j->ng.options = val;
	return NULL;
}

static const char *set_seat(job *j, const char *val)
{
	if (j->seat != 0)
		return " given twice";
	if ((j->seat = parse_seat(val)) == 0)
		return " must be a seat from 1 to 6";
	return NULL;
}

static const char *set_force(job *j, const char *val)
{
	(void)val;
	j->force = 1;
	return NULL;
}

static const char *set_key_file(job *j, const char *val)
{
	j->key_file = val;
	return NULL;
}

static const char *set_base_url(job *j, const char *val)
{
	size_t n = strlen(val);

	if (n < 8 || n > 400 || val[n - 1] != '/' ||
	    (strncmp(val, "http://", 7) && strncmp(val, "https://", 8)))
		return " must be an http:// or https:// URL ending in /";
	j->base_url = val;
	return NULL;
}

static const opt create_opts[] = {
	{ "--players", 1, set_players },
	{ "--first", 1, set_first },
	{ "--seed", 1, set_seed },
	{ "--name", 1, set_name },
	{ "--email", 1, set_email },
	{ "--bot", 1, set_bot },
	{ "--options", 1, set_options },
	{ "--practice", 0, set_practice },
	{ NULL, 0, NULL }
};
static const opt show_opts[] = {
	{ "--seat", 1, set_seat }, { NULL, 0, NULL }
};
static const opt export_opts[] = {
	{ "--force", 0, set_force }, { NULL, 0, NULL }
};
static const opt import_opts[] = {
	{ "--email", 1, set_email }, { NULL, 0, NULL }
};
static const opt link_opts[] = {
	{ "--key-file", 1, set_key_file }, { "--base-url", 1, set_base_url },
	{ NULL, 0, NULL }
};
static const char *set_to(job *j, const char *val)
{
	j->to = val;
	return val[0] ? NULL : "a database file or URL";
}

static const opt copy_opts[] = {
	{ "--to", 1, set_to }, { NULL, 0, NULL }
};
static const opt no_opts[] = { { NULL, 0, NULL } };

/* ---- checks after parsing ---------------------------------------------- */

/* "N names for M players" and the like. */
static int too_many(job *j, int n, const char *what, int players)
{
	fprintf(stderr, "buffertime admin %s: %d %s for %d players\n%s%s\n",
	        j->cmd->name, n, what, players, usage_head, j->cmd->usage);
	return 2;
}

static int check_create(job *j)
{
	if (j->ng.players == 0)
		return usage_error(j->cmd, "--players is required", "");
	if (j->ng.first > j->ng.players) {
		fprintf(stderr, "buffertime admin create: --first %d: the game"
		        " has %d seats\n%s%s\n", j->ng.first, j->ng.players,
		        usage_head, j->cmd->usage);
		return 2;
	}
	if (j->nnames > j->ng.players)
		return too_many(j, j->nnames, "names", j->ng.players);
	if (j->nemails > j->ng.players)
		return too_many(j, j->nemails, "emails", j->ng.players);
	for (int s = j->ng.players; s < BT_MAX_PLAYERS; s++)
		if (j->ng.bots[s]) {
			fprintf(stderr, "buffertime admin create: --bot %d: the "
			        "game has %d seats\n", s + 1, j->ng.players);
			return 2;
		}
	/* As "buffertime new": no --first means a seat drawn at random. */
	if (j->ng.first == 0)
		j->ng.first = (int)randombytes_uniform((uint32_t)j->ng.players)
		              + 1;
	return 0;
}

static int check_revoke(job *j)
{
	int rc = check_game(j);

	if (rc != 0)
		return rc;
	if ((j->seat = parse_seat(j->pos[1])) == 0)
		return usage_error(j->cmd, "SEAT must be a seat from 1 to 6",
		                   "");
	return 0;
}

static int check_link(job *j)
{
	struct stat st;
	int rc = check_revoke(j);

	if (rc != 0)
		return rc;
	if (!j->key_file || !j->base_url)
		return usage_error(j->cmd, "--key-file and --base-url are "
		                   "required", "");
	/* The server's key must exist: a new one would make links that
	 * the server refuses. */
	if (stat(j->key_file, &st) != 0) {
		fprintf(stderr, "buffertime admin link: %s: %s (the server "
		        "creates its key on first start)\n", j->key_file,
		        strerror(errno));
		return 1;
	}
	return 0;
}

static int check_backup(job *j)
{
	j->path = j->pos[0];
	return 0;
}

static int check_copy(job *j)
{
	return j->to ? 0 : usage_error(j->cmd, "--to is required", "");
}

/*
 * Reads all of f into *out (malloc'd, owned by the caller) and its length
 * into *len.  Returns 0, -1 on a read error (errno set), -2 if f holds
 * more than IMPORT_MAX bytes, -3 if out of memory.  The buffer never
 * grows past IMPORT_MAX + 1 bytes: one byte more tells a file too big.
 */
static int read_all(FILE *f, char **out, size_t *len)
{
	size_t cap = IMPORT_CHUNK, n = 0, got;
	char *buf = malloc(cap), *bigger;

	if (buf == NULL)
		return -3;
	while (n <= IMPORT_MAX) {
		if (n == cap) {
			cap = cap * 2 > IMPORT_MAX ? IMPORT_MAX + 1 : cap * 2;
			if ((bigger = realloc(buf, cap)) == NULL) {
				free(buf);
				return -3;
			}
			buf = bigger;
		}
		if ((got = fread(buf + n, 1, cap - n, f)) == 0)
			break;
		n += got;
	}
	if (ferror(f) || n > IMPORT_MAX) {
		free(buf);
		return ferror(f) ? -1 : -2;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* Replays text (the whole record named name) into j->replay.  Returns 0,
 * or 1 after printing the error as "buffertime replay" does. */
static int replay_record(job *j, const char *name, const char *text,
                         size_t len)
{
	static bt_replay r;
	bt_error err;

	bt_replay_init(&r);
	if (bt_replay_text(&r, text, len, &err)) {
		fprintf(stderr, "%s:%d: rule R%d: %s\n", name, r.err_line,
		        r.err.rule, r.err.why);
		return 1;
	}
	j->replay = &r;
	return 0;
}

/* The names of the record replayed into j lose their control and
 * invisible characters, as create's do.  Returns 0, or 2 (after saying
 * so) if one has nothing else: the replay took its length and UTF-8. */
static int clean_record_names(job *j, const char *file)
{
	bt_record *rec = &j->replay->rec;
	char clean[sizeof rec->name[0]];

	for (int s = 0; s < rec->players && s < BT_MAX_PLAYERS; s++) {
		if (rec->name[s][0] == '\0')
			continue;
		if (talk_clean_name(rec->name[s], clean, sizeof clean)) {
			fprintf(stderr, "buffertime admin import: %s: name %d"
			        "%s\n", file, s + 1, hidden_only);
			return 2;
		}
		memcpy(rec->name[s], clean, sizeof clean);
	}
	return 0;
}

/* Reads and replays the record to import, so that a bad one is refused
 * with its line number before the database is opened. */
static int check_import(job *j)
{
	const char *name = j->pos[0];
	FILE *f = stdin;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!strcmp(name, "-"))
		name = "<stdin>";
	else if ((f = fopen(name, "rb")) == NULL) {
		fprintf(stderr, "buffertime admin import: %s: %s\n", name,
		        strerror(errno));
		return 2;
	}
	rc = read_all(f, &text, &len);
	if (rc == -1)
		fprintf(stderr, "buffertime admin import: %s: %s\n", name,
		        strerror(errno));
	else if (rc == -2)
		fprintf(stderr, "buffertime admin import: %s: larger than"
		        " %d MiB\n", name, IMPORT_MAX / (1024 * 1024));
	else if (rc == -3)
		fprintf(stderr, "buffertime admin import: out of memory\n");
	if (f != stdin)
		fclose(f);
	if (rc != 0)
		return 1;
	rc = replay_record(j, name, text, len);
	free(text);
	if (rc == 0)
		rc = clean_record_names(j, name);
	if (rc == 0 && j->nemails > j->replay->rec.players)
		return too_many(j, j->nemails, "emails",
		                j->replay->rec.players);
	return rc;
}

/* ---- the commands ------------------------------------------------------ */

static int run_create(store *s, job *j)
{
	char id[STORE_ID_LEN + 1];
	store_error e;

	if (store_create(s, &j->ng, id, &e) != STORE_OK)
		return admin_store_fail(&e);
	puts(id);
	return admin_flush_out();
}

/* "2024-05-01T12:00:00Z" for unix time t. */
static int run_import(store *s, job *j)
{
	char id[STORE_ID_LEN + 1];
	store_error e;

	if (store_import(s, &j->replay->rec, j->ng.emails, id, &e)
	    != STORE_OK)
		return admin_store_fail(&e);
	puts(id);
	return admin_flush_out();
}

static int run_revoke(store *s, job *j)
{
	store_error e;
	int64_t gen;

	if (store_revoke(s, j->id, j->seat, &gen, &e) != STORE_OK)
		return admin_store_fail(&e);
	/* the browsers that had the old link hear of its turns no more */
	if (store_push_remove(s, j->id, j->seat, NULL, &e) != STORE_OK &&
	    e.rc != STORE_NOT_FOUND)
		return admin_store_fail(&e);
	printf("%" PRId64 "\n", gen);
	return admin_flush_out();
}

/* Prints the seat's personal link for its current token generation, to
 * pass on again (after a revoke, or a lost email). */
static int run_link(store *s, job *j)
{
	static store_game g;
	char why[256], tok[TOKEN_TEXT_SIZE];
	store_error e;
	token_keys k;

	if (store_load(s, j->id, &g, &e) != STORE_OK)
		return admin_store_fail(&e);
	if (j->seat > g.players) {
		fprintf(stderr, "buffertime admin link: the game has %d "
		        "seats\n", g.players);
		return 1;
	}
	if (token_keys_load(j->key_file, &k, why, sizeof why) != TOKEN_OK) {
		fprintf(stderr, "buffertime admin link: %s\n", why);
		return 1;
	}
	token_rc rc = token_make(&k, j->id, j->seat,
	                         g.seats[j->seat - 1].token_gen, tok,
	                         sizeof tok);
	token_keys_wipe(&k);
	if (rc != TOKEN_OK) {
		fprintf(stderr, "buffertime admin link: %s\n",
		        token_rc_text(rc));
		return 1;
	}
	printf("%sg/%s?t=%s\n", j->base_url, j->id, tok);
	return admin_flush_out();
}

/* The commands, as cli/main.c's table: adding one is one entry. */
static const command commands[] = {
	{ "create", "create --players N [--first K] [--seed HEX]"
	            " [--name NAME]... [--email ADDR]... [--bot SEAT]..."
	            " [--options TEXT] [--practice]",
	  create_opts, { NULL, NULL }, check_create, run_create },
	{ "list", "list", no_opts, { NULL, NULL }, NULL, run_list },
	{ "show", "show GAME [--seat N]", show_opts, { "GAME", NULL },
	  check_game, run_show },
	{ "export", "export GAME [--force]", export_opts, { "GAME", NULL },
	  check_game, run_export },
	{ "import", "import [--email ADDR]... FILE|-", import_opts,
	  { "FILE", NULL }, check_import, run_import },
	{ "revoke", "revoke GAME SEAT", no_opts, { "GAME", "SEAT" },
	  check_revoke, run_revoke },
	{ "link", "link GAME SEAT --key-file FILE --base-url URL", link_opts,
	  { "GAME", "SEAT" }, check_link, run_link },
	{ "backup", "backup FILE", no_opts, { "FILE", NULL }, check_backup,
	  run_backup },
	{ "check", "check", no_opts, { NULL, NULL }, NULL, run_check },
	{ "copy", "copy --to FILE|postgresql://...", copy_opts,
	  { NULL, NULL }, check_copy, run_copy },
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* ---- parsing ----------------------------------------------------------- */

static const opt *find_opt(const command *c, const char *name)
{
	for (const opt *o = c->opts; o->name != NULL; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

static int npositional(const command *c)
{
	int n = 0;

	while (n < MAX_POS && c->pos[n] != NULL)
		n++;
	return n;
}

/* Applies option o (at argv[*i]) to j.  Returns 0 or an exit status. */
static int take_opt(const opt *o, int argc, char **argv, int *i, job *j)
{
	const char *name = argv[*i], *val = NULL, *why;

	if (o->has_value) {
		if (*i + 1 >= argc)
			return usage_error(j->cmd, name, " needs a value");
		val = argv[++*i];
	}
	if ((why = o->set(j, val)) != NULL)
		return usage_error(j->cmd, name, why);
	return 0;
}

/*
 * Parses argv (argv[0] is the command's name) into j and checks it.
 * Returns 0, -1 after --help, or an exit status.  A game id may begin
 * with '-', so an argument that is no option but has an id's shape is
 * taken as a positional; "--" ends the options as usual.
 */
static int parse(int argc, char **argv, job *j)
{
	const command *c = j->cmd;
	int want = npositional(c), opts_done = 0, rc;
	const opt *o;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!opts_done && !strcmp(a, "--help")) {
			printf("%s%s\n", usage_head, c->usage);
			return -1;
		}
		if (!opts_done && !strcmp(a, "--")) {
			opts_done = 1;
		} else if (!opts_done && (o = find_opt(c, a)) != NULL) {
			if ((rc = take_opt(o, argc, argv, &i, j)) != 0)
				return rc;
		} else if (!opts_done && a[0] == '-' && a[1] != '\0' &&
		           !is_game_id(a)) {
			return usage_error(c, "unknown option ", a);
		} else if (j->npos == want) {
			return usage_error(c, "unexpected argument ", a);
		} else {
			j->pos[j->npos++] = a;
		}
	}
	if (j->npos < want)
		return usage_error(c, "missing ", c->pos[j->npos]);
	return c->check != NULL ? c->check(j) : 0;
}

static int admin_usage(FILE *to)
{
	fputs("usage: buffertime admin [--db FILE] COMMAND [ARGS]\n", to);
	for (int i = 0; i < NCOMMANDS; i++)
		fprintf(to, "  buffertime admin %s\n", commands[i].usage);
	fputs("  buffertime admin mail list [--failed|--all] | show ID | "
	      "retry ID|all | drop ID\n", to);
	fputs("  buffertime admin mail block ADDRESS | unblock ADDRESS | "
	      "blocked\n", to);
	fputs("The database is --db FILE, else $BUFFERTIME_DB, else "
	      BT_DEFAULT_DB ".\n", to);
	return to == stdout ? 0 : 2;
}

/* Which database: --db, else $BUFFERTIME_DB, else the compiled-in one. */
static const char *db_path(const char *given)
{
	const char *env = getenv("BUFFERTIME_DB");

	if (given != NULL)
		return given;
	return env != NULL && env[0] != '\0' ? env : BT_DEFAULT_DB;
}

static const command *find_command(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int cmd_admin(int argc, char **argv)
{
	static job j;
	const char *db = NULL;
	store *s = NULL;
	store_error e;
	int i = 1, rc;

	if (argc > i && !strcmp(argv[i], "--help"))
		return admin_usage(stdout);
	if (argc > i && !strcmp(argv[i], "--db")) {
		if (argc < i + 2 || argv[i + 1][0] == '\0') {
			fputs("buffertime admin: --db needs a file\n", stderr);
			return admin_usage(stderr);
		}
		db = argv[i + 1];
		i += 2;
	}
	if (argc <= i)
		return admin_usage(stderr);
	if (!strcmp(argv[i], "mail"))   /* the outbox: admin_mail.c */
		return admin_mail(db_path(db), argc - i, argv + i);
	memset(&j, 0, sizeof j);
	if ((j.cmd = find_command(argv[i])) == NULL) {
		fprintf(stderr, "buffertime admin: unknown command '%s'\n",
		        argv[i]);
		return admin_usage(stderr);
	}
	if ((rc = parse(argc - i, argv + i, &j)) != 0)
		return rc < 0 ? 0 : rc;
	if (store_open(db_path(db), &s, &e) != STORE_OK)
		return admin_store_fail(&e);
	rc = j.cmd->run(s, &j);
	store_close(s);
	return rc;
}
