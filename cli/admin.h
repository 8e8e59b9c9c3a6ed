/*
 * admin.h - what the files of "buffertime admin" share: a command's
 * parsed arguments (the job), the command table's types, and the
 * commands that only read or copy the database (admin_report.c).
 */
#ifndef BT_ADMIN_H
#define BT_ADMIN_H

#include "record.h"
#include "store.h"

enum {
	/* A record to import is read whole; real games are a few KB, so
	 * this only bounds what a stray file can make us allocate. */
	IMPORT_MAX = 8 * 1024 * 1024,
	IMPORT_CHUNK = 64 * 1024,
	MAX_POS = 2               /* positional arguments of a command */
};

typedef struct command command;

/* A command's arguments once parsed and checked. */
typedef struct job {
	const command *cmd;
	const char *pos[MAX_POS];       /* positional arguments as given */
	int npos;
	char id[STORE_ID_LEN + 1];      /* GAME, checked */
	int seat;                       /* show --seat, revoke SEAT */
	int force;                      /* export --force */
	store_new_game ng;              /* create; ng.emails for import too */
	int nnames, nemails;
	char names[BT_MAX_PLAYERS][BT_NAME_BYTES_MAX + 1];  /* cleaned */
	const char *path;               /* backup FILE */
	const char *key_file;           /* link --key-file */
	const char *base_url;           /* link --base-url */
	const char *to;                 /* copy --to */
	bt_replay *replay;              /* import: the record, replayed */
} job;

/* An option: set() stores val (NULL for a flag) into the job and returns
 * NULL, or says what is wrong with it. */
typedef struct opt {
	const char *name;
	int has_value;
	const char *(*set)(job *j, const char *val);
} opt;

struct command {
	const char *name;
	const char *usage;
	const opt *opts;                /* ends with a NULL name */
	const char *pos[MAX_POS];       /* names of the positionals */
	int (*check)(job *j);           /* after parsing: 0 or exit status */
	int (*run)(store *s, job *j);   /* with the database open */
};

/* Says why the store refused and returns 1 (exit status). */
int admin_store_fail(const store_error *e);

/* Flushes standard output.  Returns 0, or 1 after saying why not. */
int admin_flush_out(void);

/* admin_report.c: list, show, export, backup, check, copy. */
int run_list(store *s, job *j);
int run_show(store *s, job *j);
int run_export(store *s, job *j);
int run_backup(store *s, job *j);
int run_check(store *s, job *j);
int run_copy(store *s, job *j);

#endif
