/*
 * sql_pg.c - the statements of the store (sql.c) that PostgreSQL must
 * be given in other words: NULL where sql.c's text prepares there and
 * means the same, against the schema of db/schema/pg.  Parameters stay
 * ?1 ... ?N (the driver makes them $1 ... $N); PostgreSQL prepares a
 * statement before any value is bound, so each parameter must have a
 * type it can infer from the text alone: where it cannot, or infers
 * one narrower than the value (integer for an id), a CAST says it.
 *
 * Also respelled: where a shape is much faster on one engine (the mark),
 * text ORDER BY (SQLite compares text bytewise, which
 * is COLLATE "C" here, whatever the database's collation), and the
 * claims of work, which lock the row they take (FOR UPDATE SKIP LOCKED)
 * so that two workers never take the same one.
 */
#include <stddef.h>

#include "sql.h"

const char *const sql_pg_text[SQL__MAX] = {
	/* BEGIN IMMEDIATE takes SQLite's one write lock at once; the
	 * PostgreSQL driver takes its lock itself, right after BEGIN. */
	[SQL_BEGIN] = "BEGIN",
	/* one snapshot for the whole read, as SQLite's read transaction */
	[SQL_MARK_BEGIN] = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
	/* the game's counts once, not once per seat (each of PostgreSQL's
	 * subplans costs its executor a start per row, and the table's poll
	 * reads this): the LIMIT (of a primary key's one row) keeps the
	 * planner from folding the game's subquery into the join.  SQLite
	 * runs sql.c's shape faster. */
	[SQL_MARK_GAME] =
		"SELECT g.players, g.seq, g.status, g.sweep_seq, g.sweep_seat,"
		" g.sweep_card, g.turn_seat, g.turn_since, g.reminders,"
		" g.rematch, g.updated, s.seat, s.name, s.email <> '' AND NOT"
		" EXISTS (SELECT 1 FROM blocked AS b"
		" WHERE b.address = address_key(s.email)),"
		" s.notify, s.token_gen, s.nudged, g.reviewed, g.hinted,"
		" s.standin_since, s.standin_ask, g.taken"
		" FROM (SELECT id, players, seq, status, sweep_seq, sweep_seat,"
		" sweep_card, turn_seat, turn_since, reminders, rematch, updated,"
		" (SELECT count(*) FROM review_moves AS r WHERE r.game = ?1)"
		" AS reviewed,"
		" (SELECT count(*) FROM hints AS h WHERE h.game = ?1"
		" AND h.seq = games.seq) AS hinted,"
		" (SELECT count(*) FROM taken_back AS t WHERE t.game = ?1)"
		" AS taken"
		" FROM games WHERE id = ?1 LIMIT 1) AS g"
		" JOIN seats AS s ON s.game = g.id ORDER BY s.seat",
	[SQL_GAME_LIST] =
		"SELECT id, created, updated, players, seq, status FROM games"
		" ORDER BY created DESC, id COLLATE \"C\"",
	/* ?6 + ?9: unknown + unknown has no one operator */
	[SQL_OUTBOX_INSERT] =
		"INSERT INTO outbox (game, seat, recipient, subject, body,"
		" created, next_attempt, kind, reply_to, move_seq, address,"
		" dropped, last_error)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6 + CAST(?9 AS bigint), ?7,"
		" ?8, ?10, ?11, ?12, ?13)",
	/* max() of a boolean: none here; of 0 or 1 */
	[SQL_CHAT_RECENT] =
		"SELECT count(*),"
		" coalesce(max(CAST(text = ?4 AND created > ?5 AS integer)), 0)"
		" FROM chat WHERE game = ?1 AND seat = ?2 AND created > ?3",
	/* a subquery in FROM needs its name; a negative LIMIT is none in
	 * SQLite, an error here (LIMIT NULL is none) */
	[SQL_CHAT_LATEST] =
		"SELECT seq, seat, at_seq, created, text FROM (SELECT * FROM"
		" chat WHERE game = ?1 ORDER BY seq DESC LIMIT CASE WHEN"
		" CAST(?2 AS bigint) >= 0 THEN CAST(?2 AS bigint) END) AS c"
		" ORDER BY seq",
	/* INDEXED BY is SQLite's: the planner picks chat_by_line and
	 * chat_by_time (0020) itself */
	[SQL_CHAT_SINCE_LINE] =
		"SELECT seq, seat, at_seq, created, text FROM (SELECT * FROM"
		" chat WHERE game = ?1 AND at_seq >= ?2"
		" ORDER BY at_seq DESC, seq DESC LIMIT ?3) AS c ORDER BY seq",
	[SQL_CHAT_SINCE_TIME] =
		"SELECT seq, seat, at_seq, created, text FROM (SELECT * FROM"
		" chat WHERE game = ?1 AND created >= ?2"
		" ORDER BY created DESC, seq DESC LIMIT ?3) AS c ORDER BY seq",
	[SQL_CHAT_COUNT_LINE] =
		"SELECT count(*) FROM (SELECT 1 FROM chat"
		" WHERE game = ?1 AND at_seq >= ?2 LIMIT ?3) AS c",
	[SQL_CHAT_COUNT_TIME] =
		"SELECT count(*) FROM (SELECT 1 FROM chat"
		" WHERE game = ?1 AND created >= ?2 LIMIT ?3) AS c",
	/* REMIND_DUE, DIGEST_DUE and STANDIN_DUE list what is due outside
	 * any transaction; each item is then done, and looked at again,
	 * in a transaction of its own (store_life.c, store_standin.c):
	 * a lock taken here would end with the statement, so none is. */
	[SQL_REMIND_DUE] =
		"SELECT id FROM games WHERE status = 'playing' AND turn_seat > 0"
		" AND reminders < 2 AND turn_since + reminder_secs *"
		" (CASE reminders WHEN 0 THEN 1 ELSE 3 END) <= ?1"
		" ORDER BY turn_since, id COLLATE \"C\" LIMIT ?2",
	[SQL_DIGEST_DUE] =
		"SELECT s.game, s.seat FROM seats AS s"
		" JOIN games AS g ON g.id = s.game"
		" WHERE s.notify = 'digest' AND s.email <> ''"
		" AND s.digest_sent <= ?1 AND g.updated >= s.digest_sent"
		" ORDER BY s.game COLLATE \"C\", s.seat LIMIT ?2",
	[SQL_STANDIN_DUE] =
		"SELECT g.id FROM games AS g JOIN seats AS s"
		" ON s.game = g.id AND s.seat = g.turn_seat"
		" WHERE g.status = 'playing' AND g.standin = 'days'"
		" AND s.bot = '' AND s.standin_since = 0"
		" AND g.turn_since + g.standin_days * 86400 <= ?1"
		" ORDER BY g.turn_since, g.id COLLATE \"C\" LIMIT ?2",
	/* the mailer claims the row in the transaction that reads it
	 * (store_outbox.c: then SQL_OUTBOX_CLAIM): another mailer skips
	 * it rather than sending it twice */
	[SQL_OUTBOX_DUE] =
		"SELECT id, game, seat, kind, recipient, subject, body,"
		" created, attempts, next_attempt, last_error, sent, dropped,"
		" reply_to FROM outbox WHERE sent IS NULL AND dropped IS NULL"
		" AND next_attempt <= ?1 ORDER BY id LIMIT 1"
		" FOR UPDATE SKIP LOCKED",
	[SQL_NOTICE_DUE] =
		"SELECT id, game, seat, kind, channel, target, round, risk,"
		" by_seat, result, move_seq, created, attempts, next_attempt,"
		" last_error, sent, dropped FROM notices"
		" WHERE sent IS NULL AND dropped IS NULL AND next_attempt <= ?1"
		" ORDER BY next_attempt, id LIMIT 1 FOR UPDATE SKIP LOCKED",
	/* ?1 = 0 alone makes ?1 an integer (int4): a bigint id */
	[SQL_OUTBOX_LIST] =
		"SELECT id, game, seat, kind, recipient, subject, body,"
		" created, attempts, next_attempt, last_error, sent, dropped,"
		" reply_to FROM outbox WHERE CAST(?1 AS bigint) = 2"
		" OR (sent IS NULL AND dropped IS NULL"
		" AND (CAST(?1 AS bigint) = 0 OR last_error <> '')) ORDER BY id",
	[SQL_OUTBOX_RETRY] =
		"UPDATE outbox SET next_attempt = ?2"
		" WHERE (CAST(?1 AS bigint) = 0 OR id = CAST(?1 AS bigint))"
		" AND sent IS NULL AND dropped IS NULL",
	[SQL_BLOCK_LIST] =
		"SELECT address, created, how FROM blocked"
		" ORDER BY address COLLATE \"C\"",
	/* ?4 + ?5: unknown + unknown */
	[SQL_JOB_QUEUE] =
		"INSERT INTO jobs (kind, game, seq, seat, created, due)"
		" VALUES ('move', ?1, ?2, ?3, ?4, ?4 + CAST(?5 AS bigint))"
		" ON CONFLICT (kind, game, seq) DO NOTHING",
	/* The job is chosen and taken in one statement: without a lock,
	 * two workers choose the same row and the second's UPDATE, once
	 * the first commits, takes it again (its id still matches).  The
	 * row chosen is locked, one locked by another worker skipped. */
	[SQL_JOB_CLAIM] =
		"UPDATE jobs SET due = ?1 + ?2, attempts = attempts + 1"
		" WHERE id = (SELECT j.id FROM jobs AS j WHERE j.done IS NULL"
		" AND j.due <= ?1"
		" ORDER BY " SQL_JOB_SERVED ", j.due, j.attempts, j.id LIMIT 1"
		" FOR UPDATE SKIP LOCKED)"
		" RETURNING id, kind, game, seq, seat, attempts",
	/* ... and ?3 is 0 or 1, not a boolean */
	[SQL_JOB_CLAIM_PHASE] =
		"UPDATE jobs SET due = ?1 + ?2, attempts = attempts + 1"
		" WHERE id = (SELECT j.id FROM jobs AS j WHERE j.done IS NULL"
		" AND j.due <= ?1 AND CASE WHEN j.kind = 'review' THEN 1"
		" ELSE 0 END = CAST(?3 AS bigint)"
		" ORDER BY " SQL_JOB_SERVED ", j.due, j.attempts, j.id LIMIT 1"
		" FOR UPDATE SKIP LOCKED)"
		" RETURNING id, kind, game, seq, seat, attempts",
	/* ?1 alone is a boolean: it is bound 0 or 1 */
	[SQL_JOB_LIST] =
		"SELECT id, kind, game, seq, seat, created, due, attempts,"
		" coalesce(done, 0), outcome FROM jobs"
		" WHERE CAST(?1 AS bigint) <> 0 OR done IS NULL ORDER BY id",
	/* INSERT OR REPLACE: the row of the same key gives way (review_moves
	 * has no other unique key, and nothing refers to its rows) */
	[SQL_REVIEW_PUT] =
		"INSERT INTO review_moves (game, move, chance_before,"
		" chance_played, best_verb, best_card, best_sweep,"
		" best_is_played, options)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
		" ON CONFLICT (game, move) DO UPDATE SET"
		" chance_before = excluded.chance_before,"
		" chance_played = excluded.chance_played,"
		" best_verb = excluded.best_verb, best_card = excluded.best_card,"
		" best_sweep = excluded.best_sweep,"
		" best_is_played = excluded.best_is_played,"
		" options = excluded.options",
	[SQL_CREW_BEFORE] =
		"SELECT id FROM games WHERE rematch = ?1 AND rematch <> ''"
		" ORDER BY created, id COLLATE \"C\" LIMIT 1",
	/* SQLite's max() of two values is greatest() (next_attempt is
	 * never NULL, nor is ?2: greatest() would skip a NULL) */
	[SQL_OVER_HOLD] =
		"UPDATE outbox SET next_attempt ="
		" greatest(next_attempt, CAST(?2 AS bigint))"
		" WHERE game = ?1 AND kind = 'over' AND sent IS NULL"
		" AND dropped IS NULL AND attempts = 0",
};
