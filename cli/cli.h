/*
 * cli.h - the subcommands of the buffertime tool.  Each takes the
 * arguments after its name (argv[0] is the subcommand) and returns the
 * process exit status: 0 success, 1 a game/record error, 2 a usage error.
 */
#ifndef BT_CLI_H
#define BT_CLI_H

#include <stdint.h>

#include "args.h"

int cmd_replay(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_admin(int argc, char **argv);
int cmd_worker(int argc, char **argv);
int cmd_inbound(int argc, char **argv);
int cmd_review(int argc, char **argv);

/* "buffertime admin [--db FILE] mail ...": argv[0] is "mail"; db is the
 * database admin chose (admin_mail.c). */
int admin_mail(const char *db, int argc, char **argv);

/* Replays the record at path ("-": standard input) into *r (large:
 * static).  Returns 0, or the exit status after saying why on standard
 * error as cmd: 1 the record does not replay, 2 it cannot be opened. */
struct bt_replay;
int cli_read_record(const char *cmd, const char *path, struct bt_replay *r);

#endif
