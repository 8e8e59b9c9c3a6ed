/*
 * store_bots.h - the store's side of the bots (included by store.h, whose
 * types it uses): the worker's jobs (a bot's turn, a turn's hints, a
 * review), the post-game review's figures, practice tables' hints and
 * stand-ins for absent players.
 */
#ifndef BT_STORE_BOTS_H
#define BT_STORE_BOTS_H

#include "store.h"

/* ---- bots, and the worker's jobs (store_jobs.c) ---------------------- */

enum {
	STORE_JOB_LEASE = 60      /* seconds a claimed job is the worker's */
};

/* 1 if name is a bot a seat may be played by ("search"), 0 if not;
 * "" (a person) is not a bot. */
int store_bot_ok(const char *name);

/*
 * A bot's turn, queued in the transaction of whatever gave it the turn
 * (a new game, a move, a rematch): the move of seat when the game has
 * seq lines.  A worker claims it, chooses the move and appends it with
 * store_append_as at expected_seq = seq, so a job done twice (a worker
 * killed after the move, before marking the job) is refused the second
 * time as a conflict, never played twice.
 */
typedef struct store_job {
	int64_t id;
	char kind[8];                       /* "move" */
	char game[STORE_ID_LEN + 1];
	int seq, seat, attempts;
	int64_t created, due, done;         /* done 0: still to do */
	char outcome[64];
} store_job;

/* Claims a job due at now, taking turns by game: of the games with one
 * due, the one whose last job was done longest ago (or never) goes
 * first, so one game with many jobs cannot starve the others' bot moves
 * (reviews, in many steps, are by due time alone); then the oldest due,
 * of those due alike the one tried least often, so a job that kills its
 * worker cannot hold up the others.  Counts the attempt and moves its
 * due time on by lease seconds (committed before it returns), so a
 * worker that dies leaves it to be claimed again.  STORE_NOT_FOUND if
 * none. */
store_rc store_job_claim(store *s, int64_t now, int lease, store_job *out,
                         store_error *err);

/* store_job_claim among the reviews only (reviews 1), or among every
 * other kind (0: the quick ones, a bot's move and a turn's hints), so
 * that the worker can send the emails between the two. */
store_rc store_job_claim_phase(store *s, int64_t now, int lease, int reviews,
                               store_job *out, store_error *err);

/* Makes every unfinished job due at now: for a worker that knows no
 * other runs (so any claim is a dead worker's). */
store_rc store_job_reclaim(store *s, int64_t now, store_error *err);

/* Job id is done: outcome says how ("moved", "stale", "failed: ..."). */
store_rc store_job_done(store *s, int64_t id, const char *outcome,
                        store_error *err);

/* The earliest due time of a job to do, or -1 if there is none. */
int64_t store_job_next_due(store *s);

/* Calls fn for the jobs to do (all: every job), oldest first. */
store_rc store_job_list(store *s, int all,
                        int (*fn)(void *ctx, const store_job *j), void *ctx,
                        store_error *err);

/* Job id, claimed, is to be claimed again at due (a job done in parts:
 * a review weighed a few moves at a time). */
store_rc store_job_later(store *s, int64_t id, int64_t due, store_error *err);

/* ---- the post-game review (store_review.c) ---------------------------- */

/*
 * The review's figures for one move of a finished game (move counts its
 * action lines from 0): the crew's chance of winning with the mover's
 * best option and with the option played, as the search estimated them
 * from what the mover could know (bots/review.h), and that best option.
 * A 'review' job is queued in the transaction of the move that ends a
 * game; the worker puts the moves' figures in a few at a time.
 */
typedef struct store_review_move {
	int move;
	double before, played;      /* 0..1 */
	int best_verb, best_card;   /* bt_verb, bt_card */
	int best_sweep;             /* "play this Sensor Sweep", order open */
	int best_is_played;
	int options;                /* the mover had (>= 1) */
} store_review_move;

/* Keeps (or replaces) the figures of m->move of game id.  STORE_INVALID
 * if they are out of range. */
store_rc store_review_put(store *s, const char *id,
                          const store_review_move *m, store_error *err);

/* The figures of game id's moves 0, 1, ... as far as they are in
 * without a gap, at most cap of them, into out; *n how many. */
store_rc store_review_get(store *s, const char *id, store_review_move *out,
                          int cap, int *n, store_error *err);

/* ---- practice tables' hints (store_hints.c) ------------------------- */

enum { STORE_HINTS_MAX = 256 };   /* options of one seat (bot_estimate) */

/*
 * On a practice table, each action of the seat to move with its chance
 * of winning, as the search estimated it from that seat's knowledge: a
 * 'hints' job is queued in the transaction of each move (and of the
 * game's making) that gives a person the turn; the worker puts the
 * figures in, all of a turn's at once.
 */
typedef struct store_hint {
	char action[BT_ACTION_TEXT_MAX];    /* "2 work"; a sweep to play:
	                                     * "2 special X04" */
	int verb, card;                     /* bt_verb, bt_card */
	double chance;                      /* 0..1 */
	int games;                          /* drawn games it was counted
	                                     * over; 0 if not known */
} store_hint;

/* Keeps the n hints of game id for the turn when it had seq lines, in
 * one transaction (replacing any).  STORE_INVALID if one is out of
 * range. */
store_rc store_hints_put(store *s, const char *id, int seq,
                         const store_hint *h, int n, store_error *err);

/* The hints of game id at seq, at most cap, into out; *n how many (0:
 * none yet). */
store_rc store_hints_get(store *s, const char *id, int seq, store_hint *out,
                         int cap, int *n, store_error *err);

/* store_append, the line marked as chosen by made_by: "" (the seat's
 * player), "bot" or "stand-in". */
store_rc store_append_as(store *s, const char *id, int expected_seq,
                         const bt_action *a, const char *made_by,
                         store_mail_fn mail_fn, void *ctx,
                         store_game *after, store_error *err);

/*
 * A bot's move and its line of table talk in one transaction, so that
 * neither is ever stored without the other: say (NULL or "": nothing)
 * is said by a->seat just before the move, at the game's expected_seq
 * lines (so the move's emails, which mail_fn composes inside, quote it),
 * then the move is appended as store_append_as does.  Over the seat's
 * table talk limit the line is left out and the move made all the same.
 * *said (may be NULL) is 1 if the line is at the table then (said now,
 * or the same words a moment ago), else 0.  Any failure stores neither.
 */
store_rc store_append_saying(store *s, const char *id, int expected_seq,
                             const bt_action *a, const char *made_by,
                             const char *say, store_mail_fn mail_fn,
                             void *ctx, int *said, store_error *err);

/* Who chose each line of game id: by[seq] is 'b' (a bot), 's' (a
 * stand-in) or 0 (the seat's player), for seq < cap (by is zeroed
 * first). */
store_rc store_made_by(store *s, const char *id, char *by, int cap,
                       store_error *err);

/* ---- stand-ins for absent players (store_standin.c) ------------------ */

enum { STORE_STANDIN_DAYS_MAX = 30 };

/*
 * Seat asker asks the table for a stand-in for the seat to move, in a
 * game whose rule is "agree", once that seat has had its turn's last
 * reminder (at expected_seq).  When every other person at the table (not
 * a bot) has asked for this turn, the stand-in starts: the bot plays
 * that seat's turns, beginning with this one (a job), and fn (may be
 * NULL) composes the email telling the absent player, queued in the
 * same transaction.  *started (may be NULL) is 1 then.  STORE_INVALID,
 * with why in words, if the rule or the moment does not allow it.
 */
store_rc store_standin_ask(store *s, const char *id, int expected_seq,
                           int asker, store_seat_mail_fn fn, void *ctx,
                           int *started, store_error *err);

/* The "days" rule, for the worker's round: every game whose seat to move
 * has had the turn its standin_days gets its stand-in, as above; *n (may
 * be NULL) counts them. */
store_rc store_queue_standins(store *s, int64_t now, store_seat_mail_fn fn,
                              void *ctx, int *n, store_error *err);

/* Seat's player is back (its link opened): the stand-in ends.  Nothing
 * to do is STORE_OK too. */
store_rc store_standin_end(store *s, const char *id, int seat,
                           store_error *err);

#endif
