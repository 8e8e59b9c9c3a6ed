/*
 * send.h - delivers one message: through a sendmail program, or as a
 * file in a folder.
 *
 * sendmail: the command line is split on blanks into the program and its
 * arguments (no shell: nothing in it is expanded or quoted) and run with
 * the message on its standard input, in a process group of its own, with
 * no descriptor of ours but that pipe and one for its output.  It must
 * read the whole message and exit 0 within the timeout; else it is
 * killed (SIGKILL to its process group) and the failure is described in
 * why: the exit status or signal and the first line it printed.  On
 * Linux it dies with the process that runs it too (PR_SET_PDEATHSIG):
 * in the mailer that is the email's courier (mailer.h), which outlives
 * a killed mailer to mark the email, so sendmail is never left to
 * finish unwatched.
 *
 * Folder: the message is written to a temporary name in the folder,
 * flushed to disk and renamed to NNNNNNNNNN-ID.eml (the time the email
 * was queued in unix seconds, then the outbox id, both zero-padded so
 * that the names sort in the order of queueing), mode 0600 (it holds
 * seat links).  Readers never see half a message, and a resend of the
 * same email (after a crash before its "sent" mark) replaces its file
 * instead of adding a second one.
 *
 * The caller must ignore SIGPIPE (a sendmail that exits early would
 * otherwise kill us); the child gets the default back.  Signals that
 * interrupt the wait are not a reason to stop: a send is finished.
 */
#ifndef BT_SEND_H
#define BT_SEND_H

#include <stddef.h>
#include <stdint.h>

enum {
	SEND_ARGS_MAX = 32,       /* words of the sendmail command line */
	SEND_CMD_MAX = 1024,      /* bytes of it */
	SEND_WHY_MAX = 256,       /* a comfortable size for why */
	SEND_TIMEOUT_MAX = 3600
};

typedef struct send_cfg {
	const char *sendmail;     /* "/usr/sbin/sendmail -t -i" */
	const char *mail_dir;     /* NULL or "": use sendmail; else files */
	int timeout;              /* seconds one sendmail may take, >= 1 */
} send_cfg;

typedef enum send_rc {
	SEND_OK = 0,
	SEND_FAILED,     /* sendmail exited non-zero or by a signal, or did
	                  * not read the whole message */
	SEND_TIMEOUT,    /* sendmail took longer than the timeout: killed */
	SEND_ERROR       /* it could not be run, or the file not written */
} send_rc;

/*
 * Delivers msg (len bytes) of outbox row id, queued at unix time queued
 * (the file's name).  SEND_OK, or another send_rc with why (cap bytes,
 * one line, never NULL unless cap is 0) saying what happened.
 */
send_rc send_message(const send_cfg *c, int64_t id, int64_t queued,
                     const char *msg, size_t len, char *why, size_t cap);

/*
 * Splits cmd on blanks (spaces and tabs) into argv (max - 1 words and a
 * NULL), the words copied into buf (cap bytes).  Returns the number of
 * words (at least 1), or -1 if there are none, too many, or cmd is too
 * long.
 */
int send_split(const char *cmd, char *buf, size_t cap, char **argv,
               int max);

#endif
