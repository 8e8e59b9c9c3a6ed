/*
 * sql.c - all the SQL of the store, prepared once per connection.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "driver_sqlite.h"
#include "sql.h"

static const char *const sql_text[SQL__MAX] = {
	[SQL_BEGIN] = "BEGIN IMMEDIATE",
	[SQL_COMMIT] = "COMMIT",
	[SQL_ROLLBACK] = "ROLLBACK",
	[SQL_GAME_INSERT] =
		"INSERT INTO games (id, created, updated, players, first_seat,"
		" seed, header, options, seq, status, snapshot, snapshot_seq,"
		" snapshot_format, turn_seat, turn_since, reminder_secs)"
		" VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?8, ?11,"
		" ?12, ?2, ?13)",
	[SQL_SEAT_INSERT] =
		"INSERT INTO seats (game, seat, name, email, bot)"
		" VALUES (?1, ?2, ?3, ?4, ?5)",
	[SQL_ACTION_INSERT] =
		"INSERT INTO actions (game, seq, seat, line, created, made_by)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[SQL_GAME_GET] =
		"SELECT created, players, first_seat, seed, header, options,"
		" seq, snapshot, snapshot_seq, snapshot_format, sweep_seq,"
		" sweep_seat, sweep_card, updated, turn_seat, turn_since,"
		" reminders, reminder_secs, rematch, standin, standin_days,"
		" practice, ended_by, coalesce(ended_at, 0),"
		" (SELECT count(*) FROM taken_back WHERE game = ?1) FROM games"
		" WHERE id = ?1",
	[SQL_SEATS_GET] =
		"SELECT seat, name, email, token_gen, last_seen, notify,"
		" digest_sent, nudged, EXISTS (SELECT 1 FROM blocked AS b"
		" WHERE b.address = address_key(seats.email)), bot,"
		" standin_since, standin_ask FROM seats"
		" WHERE game = ?1 ORDER BY seat",
	[SQL_GAME_ADVANCE] =
		"UPDATE games SET seq = ?2 + 1, updated = ?3, status = ?4,"
		" snapshot = ?5, snapshot_seq = ?2 + 1, snapshot_format = ?6,"
		" turn_seat = ?7, turn_since = ?3, reminders = 0"
		" WHERE id = ?1 AND seq = ?2",
	[SQL_OUTBOX_INSERT] =
		"INSERT INTO outbox (game, seat, recipient, subject, body,"
		" created, next_attempt, kind, reply_to, move_seq, address,"
		" dropped, last_error)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6 + ?9, ?7, ?8, ?10, ?11,"
		" ?12, ?13)",
	[SQL_SEAT_REVOKE] =
		"UPDATE seats SET token_gen = token_gen + 1"
		" WHERE game = ?1 AND seat = ?2 RETURNING token_gen",
	[SQL_GAME_LIST] =
		"SELECT id, created, updated, players, seq, status FROM games"
		" ORDER BY created DESC, id",
	[SQL_ACTION_COUNT] =
		"SELECT count(*) FROM actions WHERE game = ?1",
	[SQL_SWEEP_SET] =
		"UPDATE games SET sweep_seq = ?2, sweep_seat = ?3,"
		" sweep_card = ?4 WHERE id = ?1 AND seq = ?2",
	[SQL_SEAT_TOUCH] =
		"UPDATE seats SET last_seen = ?3 WHERE game = ?1 AND seat = ?2",
	[SQL_NOTIFY_SET] =
		"UPDATE seats SET notify = ?3, digest_sent = CASE WHEN ?3 ="
		" 'digest' AND notify <> 'digest' THEN ?4 ELSE digest_sent END"
		" WHERE game = ?1 AND seat = ?2",
	/* every line, though a walk may stop short: one statement for every
	 * reading of a game's lines (a walk, a replay, an export), which a
	 * page can read ahead */
	[SQL_WALK] =
		"SELECT seq, seat, line, created FROM actions WHERE game = ?1"
		" ORDER BY seq",
	[SQL_CHAT_RECENT] =
		"SELECT count(*), coalesce(max(text = ?4 AND created > ?5), 0)"
		" FROM chat WHERE game = ?1 AND seat = ?2 AND created > ?3",
	[SQL_CHAT_INSERT] =
		"INSERT INTO chat (game, seq, seat, text, created, at_seq)"
		" SELECT ?1, coalesce(max(seq) + 1, 0), ?2, ?3, ?4,"
		" (SELECT seq FROM games WHERE id = ?1) FROM chat"
		" WHERE game = ?1",
	[SQL_CHAT_LIST] =
		"SELECT seq, seat, at_seq, created, text FROM chat"
		" WHERE game = ?1 AND seq > ?2 ORDER BY seq",
	[SQL_CHAT_LATEST] =
		"SELECT seq, seat, at_seq, created, text FROM (SELECT * FROM"
		" chat WHERE game = ?1 ORDER BY seq DESC LIMIT ?2) ORDER BY seq",
	/* a game's seqs are 0, 1, ... (never deleted): one seek */
	[SQL_CHAT_SIZE] =
		"SELECT coalesce(max(seq) + 1, 0) FROM chat WHERE game = ?1",
	/* the newest ?3 since a place or a time, each read in its index's
	 * order (migration 0020), then oldest first; counts stop at ?3 */
	[SQL_CHAT_SINCE_LINE] =
		"SELECT seq, seat, at_seq, created, text FROM (SELECT * FROM"
		" chat INDEXED BY chat_by_line WHERE game = ?1 AND at_seq >= ?2"
		" ORDER BY at_seq DESC, seq DESC LIMIT ?3) ORDER BY seq",
	[SQL_CHAT_SINCE_TIME] =
		"SELECT seq, seat, at_seq, created, text FROM (SELECT * FROM"
		" chat INDEXED BY chat_by_time WHERE game = ?1 AND created >= ?2"
		" ORDER BY created DESC, seq DESC LIMIT ?3) ORDER BY seq",
	[SQL_CHAT_COUNT_LINE] =
		"SELECT count(*) FROM (SELECT 1 FROM chat INDEXED BY"
		" chat_by_line WHERE game = ?1 AND at_seq >= ?2 LIMIT ?3)",
	[SQL_CHAT_COUNT_TIME] =
		"SELECT count(*) FROM (SELECT 1 FROM chat INDEXED BY"
		" chat_by_time WHERE game = ?1 AND created >= ?2 LIMIT ?3)",
	[SQL_GAME_STATE] =
		"SELECT seq, status, turn_seat FROM games WHERE id = ?1",
	[SQL_SEAT_NUDGED] =
		"SELECT nudged FROM seats WHERE game = ?1 AND seat = ?2",
	[SQL_SEAT_NUDGE] =
		"UPDATE seats SET nudged = ?3 WHERE game = ?1 AND seat = ?2",
	[SQL_REMIND_DUE] =
		"SELECT id FROM games WHERE status = 'playing' AND turn_seat > 0"
		" AND reminders < 2 AND turn_since + reminder_secs *"
		" (CASE reminders WHEN 0 THEN 1 ELSE 3 END) <= ?1"
		" ORDER BY turn_since, id LIMIT ?2",
	[SQL_REMIND_MARK] =
		"UPDATE games SET reminders = reminders + 1"
		" WHERE id = ?1 AND seq = ?2 AND reminders = ?3",
	[SQL_DIGEST_DUE] =
		"SELECT s.game, s.seat FROM seats AS s"
		" JOIN games AS g ON g.id = s.game"
		" WHERE s.notify = 'digest' AND s.email <> ''"
		" AND s.digest_sent <= ?1 AND g.updated >= s.digest_sent"
		" ORDER BY s.game, s.seat LIMIT ?2",
	[SQL_DIGEST_MARK] =
		"UPDATE seats SET digest_sent = ?3 WHERE game = ?1"
		" AND seat = ?2 AND digest_sent = ?4",
	[SQL_REMATCH_SET] =
		"UPDATE games SET rematch = ?2 WHERE id = ?1 AND rematch = ''",
	[SQL_OUTBOX_DUE] =
		"SELECT id, game, seat, kind, recipient, subject, body,"
		" created, attempts, next_attempt, last_error, sent, dropped,"
		" reply_to FROM outbox WHERE sent IS NULL AND dropped IS NULL"
		" AND next_attempt <= ?1 ORDER BY id LIMIT 1",
	[SQL_OUTBOX_CLAIM] =
		"UPDATE outbox SET attempts = attempts + 1, next_attempt = ?2"
		" WHERE id = ?1",
	[SQL_OUTBOX_SENT] =
		"UPDATE outbox SET sent = ?2, last_error = ''"
		" WHERE id = ?1 AND sent IS NULL",
	[SQL_OUTBOX_FAILED] =
		"UPDATE outbox SET last_error = ?2 WHERE id = ?1",
	[SQL_OUTBOX_NEXT] =
		"SELECT min(next_attempt) FROM outbox"
		" WHERE sent IS NULL AND dropped IS NULL",
	[SQL_OUTBOX_LIST] =
		"SELECT id, game, seat, kind, recipient, subject, body,"
		" created, attempts, next_attempt, last_error, sent, dropped,"
		" reply_to FROM outbox WHERE ?1 = 2 OR (sent IS NULL AND dropped IS NULL"
		" AND (?1 = 0 OR last_error <> '')) ORDER BY id",
	[SQL_OUTBOX_RETRY] =
		"UPDATE outbox SET next_attempt = ?2 WHERE (?1 = 0 OR id = ?1)"
		" AND sent IS NULL AND dropped IS NULL",
	[SQL_OUTBOX_DROP] =
		"UPDATE outbox SET dropped = ?2 WHERE id = ?1"
		" AND sent IS NULL AND dropped IS NULL",
	[SQL_MARK_BEGIN] = "BEGIN DEFERRED",
	[SQL_MARK_GAME] =
		"SELECT g.players, g.seq, g.status, g.sweep_seq, g.sweep_seat,"
		" g.sweep_card, g.turn_seat, g.turn_since, g.reminders,"
		" g.rematch, g.updated, s.seat, s.name, s.email <> '' AND NOT"
		" EXISTS (SELECT 1 FROM blocked AS b"
		" WHERE b.address = address_key(s.email)),"
		" s.notify, s.token_gen, s.nudged,"
		" (SELECT count(*) FROM review_moves AS r WHERE r.game = g.id),"
		" (SELECT count(*) FROM hints AS h WHERE h.game = g.id"
		" AND h.seq = g.seq),"
		" s.standin_since, s.standin_ask,"
		" (SELECT count(*) FROM taken_back AS t WHERE t.game = g.id)"
		" FROM games AS g"
		" JOIN seats AS s ON s.game = g.id WHERE g.id = ?1"
		" ORDER BY s.seat",
	[SQL_MARK_CHAT] =
		"SELECT seq, created FROM chat WHERE game = ?1"
		" ORDER BY seq DESC LIMIT ?2",
	/* store_block.c */
	[SQL_BLOCK_ADD] =
		"INSERT INTO blocked (address, created, how) VALUES (?1, ?2, ?3)"
		" ON CONFLICT (address) DO NOTHING",
	[SQL_BLOCK_DROP_QUEUED] =
		"UPDATE outbox SET dropped = ?2, last_error = 'the address"
		" asked for no email' WHERE sent IS NULL AND dropped IS NULL"
		" AND address_key(recipient) = ?1",
	[SQL_BLOCK_REMOVE] = "DELETE FROM blocked WHERE address = ?1",
	[SQL_BLOCK_GET] = "SELECT 1 FROM blocked WHERE address = ?1",
	[SQL_BLOCK_LIST] =
		"SELECT address, created, how FROM blocked ORDER BY address",
	/* store_limits.c */
	[SQL_LIMIT_COUNT] =
		"SELECT count(*) FROM limit_events"
		" WHERE kind = ?1 AND subject = ?2 AND at > ?3",
	[SQL_LIMIT_NTH] =
		"SELECT at FROM limit_events"
		" WHERE kind = ?1 AND subject = ?2 AND at > ?3"
		" ORDER BY at LIMIT 1 OFFSET ?4",
	[SQL_LIMIT_ADD] =
		"INSERT INTO limit_events (kind, subject, at) VALUES (?1, ?2, ?3)",
	[SQL_LIMIT_PRUNE] =
		"DELETE FROM limit_events WHERE at <= ?1",
	/* store_jobs.c */
	[SQL_REPLY_CLAIM] =
		"INSERT INTO replies (message_id, game, seat, outcome, created)"
		" VALUES (?1, ?2, ?3, ?4, ?5)"
		" ON CONFLICT (message_id, game, seat) DO NOTHING",
	[SQL_TAKEBACK_LAST] =
		"SELECT seq, seat, line, created, made_by FROM actions"
		" WHERE game = ?1 ORDER BY seq DESC LIMIT 1",
	[SQL_TAKEBACK_KEEP] =
		"INSERT INTO taken_back (game, seq, seat, line, created, taken)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[SQL_TAKEBACK_DELETE] =
		"DELETE FROM actions WHERE game = ?1 AND seq = ?2",
	[SQL_TAKEBACK_GAME] =
		"UPDATE games SET seq = ?2 - 1, updated = ?3, status = 'playing',"
		" snapshot = ?4, snapshot_seq = ?2 - 1, snapshot_format = ?5,"
		" turn_seat = ?6, turn_since = ?3, reminders = 0"
		" WHERE id = ?1 AND seq = ?2",
	[SQL_TAKEBACK_MAILS] =
		"UPDATE outbox SET dropped = ?3,"
		" last_error = 'its move was taken back'"
		" WHERE game = ?1 AND move_seq = ?2 AND sent IS NULL"
		" AND dropped IS NULL",
	[SQL_TAKEBACK_JOBS] =
		"DELETE FROM jobs WHERE game = ?1 AND seq >= ?2",
	[SQL_TAKEBACK_HINTS] =
		"DELETE FROM hints WHERE game = ?1 AND seq >= ?2",
	[SQL_TAKEBACK_LIST] =
		"SELECT seq, seat, line, created, taken FROM taken_back"
		" WHERE game = ?1 ORDER BY id LIMIT ?2",
	[SQL_JOB_QUEUE] =
		"INSERT INTO jobs (kind, game, seq, seat, created, due)"
		" VALUES ('move', ?1, ?2, ?3, ?4, ?4 + ?5)"
		" ON CONFLICT (kind, game, seq) DO NOTHING",
	/* the claims take turns by game (SQL_JOB_SERVED, sql.h) */
	[SQL_JOB_CLAIM] =
		"UPDATE jobs SET due = ?1 + ?2, attempts = attempts + 1"
		" WHERE id = (SELECT j.id FROM jobs AS j WHERE j.done IS NULL"
		" AND j.due <= ?1"
		" ORDER BY " SQL_JOB_SERVED ", j.due, j.attempts, j.id LIMIT 1)"
		" RETURNING id, kind, game, seq, seat, attempts",
	[SQL_JOB_DONE] =
		"UPDATE jobs SET done = ?2, outcome = ?3 WHERE id = ?1",
	[SQL_JOB_RECLAIM] =
		"UPDATE jobs SET due = ?1 WHERE done IS NULL AND due > ?1",
	[SQL_JOB_CLAIM_PHASE] =
		"UPDATE jobs SET due = ?1 + ?2, attempts = attempts + 1"
		" WHERE id = (SELECT j.id FROM jobs AS j WHERE j.done IS NULL"
		" AND j.due <= ?1 AND (j.kind = 'review') = ?3"
		" ORDER BY " SQL_JOB_SERVED ", j.due, j.attempts, j.id LIMIT 1)"
		" RETURNING id, kind, game, seq, seat, attempts",
	[SQL_JOB_LATER] =
		"UPDATE jobs SET due = ?2 WHERE id = ?1 AND done IS NULL",
	/* store_review.c */
	[SQL_REVIEW_QUEUE] =
		"INSERT INTO jobs (kind, game, seq, seat, created, due)"
		" VALUES ('review', ?1, ?2, ?3, ?4, ?4)"
		" ON CONFLICT (kind, game, seq) DO NOTHING",
	[SQL_REVIEW_PUT] =
		"INSERT OR REPLACE INTO review_moves (game, move, chance_before,"
		" chance_played, best_verb, best_card, best_sweep,"
		" best_is_played, options)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	[SQL_REVIEW_GET] =
		"SELECT move, chance_before, chance_played, best_verb, best_card,"
		" best_sweep, best_is_played, options FROM review_moves"
		" WHERE game = ?1 ORDER BY move LIMIT ?2",
	/* store_hints.c */
	[SQL_PRACTICE_SET] =
		"UPDATE games SET practice = 1 WHERE id = ?1",
	[SQL_HINTS_QUEUE] =
		"INSERT INTO jobs (kind, game, seq, seat, created, due)"
		" VALUES ('hints', ?1, ?2, ?3, ?4, ?4)"
		" ON CONFLICT (kind, game, seq) DO NOTHING",
	[SQL_HINTS_DROP] =
		"DELETE FROM hints WHERE game = ?1 AND seq = ?2",
	[SQL_HINT_PUT] =
		"INSERT INTO hints (game, seq, option, action, verb, card, chance,"
		" games) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[SQL_HINTS_GET] =
		"SELECT action, verb, card, chance, games FROM hints"
		" WHERE game = ?1 AND seq = ?2 ORDER BY option LIMIT ?3",
	[SQL_JOB_NEXT] =
		"SELECT min(due) FROM jobs WHERE done IS NULL",
	[SQL_JOB_LIST] =
		"SELECT id, kind, game, seq, seat, created, due, attempts,"
		" coalesce(done, 0), outcome FROM jobs"
		" WHERE ?1 OR done IS NULL ORDER BY id",
	/* store_standin.c */
	[SQL_STANDIN_RULE] =
		"UPDATE games SET standin = ?2, standin_days = ?3 WHERE id = ?1",
	[SQL_STANDIN_SET] =
		"UPDATE seats SET standin_since = ?3 WHERE game = ?1 AND seat = ?2",
	[SQL_STANDIN_ASK] =
		"UPDATE seats SET standin_ask = ?3 WHERE game = ?1 AND seat = ?2",
	[SQL_STANDIN_DUE] =
		"SELECT g.id FROM games AS g JOIN seats AS s"
		" ON s.game = g.id AND s.seat = g.turn_seat"
		" WHERE g.status = 'playing' AND g.standin = 'days'"
		" AND s.bot = '' AND s.standin_since = 0"
		" AND g.turn_since + g.standin_days * 86400 <= ?1"
		" ORDER BY g.turn_since, g.id LIMIT ?2",
	[SQL_MADE_BY] =
		"SELECT seq, made_by FROM actions WHERE game = ?1"
		" AND made_by <> '' ORDER BY seq",
	/* store_crew.c: the game whose "play again" made ?1 (the oldest, if
	 * damaged data has several), by the index of 0011-crew */
	[SQL_CREW_BEFORE] =
		"SELECT id FROM games WHERE rematch = ?1 AND rematch <> ''"
		" ORDER BY created, id LIMIT 1",
	/* the games after ?1 down its chain, at most ?2 (a cycle ends) */
	[SQL_MARK_CREW] =
		"WITH RECURSIVE later (id, n) AS (SELECT rematch, 1 FROM games"
		" WHERE id = ?1 AND rematch <> '' UNION ALL SELECT g.rematch,"
		" later.n + 1 FROM games AS g JOIN later ON g.id = later.id"
		" WHERE g.rematch <> '' AND later.n < ?2)"
		" SELECT count(*), coalesce(max(g.updated), 0),"
		" coalesce(sum(g.seq), 0) FROM later"
		" JOIN games AS g ON g.id = later.id",
	[SQL_CREW_BOT_LINES] =
		"SELECT EXISTS (SELECT 1 FROM actions WHERE game = ?1"
		" AND made_by <> '')",
	/* store_create.c: the game a new-game form's key (its hash) made */
	[SQL_CREATION_GET] =
		"SELECT game FROM creations WHERE once = ?1",
	[SQL_CREATION_ADD] =
		"INSERT INTO creations (once, game) VALUES (?1, ?2)",
	/* store_life.c: a seat shows its hand to the crew, or stops; the
	 * game's updated time moves while it plays, so the tables left
	 * open (their ETag) show it */
	[SQL_SHOWN_SET] =
		"UPDATE seats SET shown = ?3 WHERE game = ?1 AND seat = ?2",
	[SQL_SHOWN_TOUCH] =
		"UPDATE games SET updated = ?2 WHERE id = ?1"
		" AND status = 'playing'",
	[SQL_SHOWN_GET] =
		"SELECT seat FROM seats WHERE game = ?1 AND shown = 1",
	/* store_end.c: a game ended where it could no longer be won */
	[SQL_END_MARK] =
		"UPDATE games SET ended_by = ?2, ended_at = ?3, updated = ?3,"
		" status = 'lost', turn_seat = 0, turn_since = ?3, reminders = 0"
		" WHERE id = ?1 AND seq = ?4 AND status = 'playing'"
		" AND ended_by = 0",
	[SQL_END_JOBS] =
		"UPDATE jobs SET done = ?2, outcome = 'stale: the game was ended'"
		" WHERE game = ?1 AND done IS NULL AND kind <> 'review'",
	[SQL_END_MAILS] =
		"UPDATE outbox SET dropped = ?2,"
		" last_error = 'the game was ended'"
		" WHERE game = ?1 AND sent IS NULL AND dropped IS NULL"
		" AND kind IN ('turn', 'reminder', 'nudge')",
	/* store_review.c: a game-over email waits (?2: until) for the
	 * review's turning point, and goes once the review is in */
	[SQL_OVER_HOLD] =
		"UPDATE outbox SET next_attempt = max(next_attempt, ?2)"
		" WHERE game = ?1 AND kind = 'over' AND sent IS NULL"
		" AND dropped IS NULL AND attempts = 0",
	[SQL_OVER_RELEASE] =
		"UPDATE outbox SET next_attempt = ?2"
		" WHERE game = ?1 AND kind = 'over' AND sent IS NULL"
		" AND dropped IS NULL AND attempts = 0 AND next_attempt > ?2",
	/* store_limits.c: one budget for every email to an address, and
	 * a seat's own "no email"; store_outbox.c: a Subject of ours */
	[SQL_MAIL_BUDGET_COUNT] =
		"SELECT count(*) FROM outbox WHERE address = ?1"
		" AND created > ?2 AND dropped IS NULL",
	[SQL_MAIL_SEAT_NOTIFY] =
		"SELECT notify FROM seats WHERE game = ?1 AND seat = ?2",
	[SQL_MAILED_SUBJECT] =
		"SELECT EXISTS (SELECT 1 FROM outbox WHERE address = ?1"
		" AND game = ?2 AND seat = ?3 AND subject = ?4)",
	/* store_signin.c */
	[SQL_SIGNIN_ASKS_CLIENT] =
		"SELECT count(*) FROM signin_links WHERE client = ?1"
		" AND created > ?2",
	[SQL_SIGNIN_ASKS_ADDRESS] =
		"SELECT count(*) FROM signin_links WHERE address = ?1"
		" AND sent = 1 AND created > ?2",
	[SQL_SIGNIN_LINKS_PRUNE] =
		"DELETE FROM signin_links WHERE expires < ?1",
	[SQL_SIGNIN_LINK_ADD] =
		"INSERT INTO signin_links (hash, address, client, sent, created,"
		" expires) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[SQL_SIGNIN_LINK_GET] =
		"SELECT address, expires FROM signin_links WHERE hash = ?1"
		" AND sent = 1",
	[SQL_SIGNIN_LINK_USES] =
		"SELECT count(*) FROM signins WHERE link = ?1",
	[SQL_SIGNIN_ADD] =
		"INSERT INTO signins (hash, id, address, link, created,"
		" last_seen, agent) VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)",
	[SQL_SIGNIN_GET] =
		"SELECT id, address, link, created, last_seen, agent"
		" FROM signins WHERE hash = ?1",
	[SQL_SIGNIN_SEEN] =
		"UPDATE signins SET last_seen = ?2 WHERE hash = ?1",
	[SQL_SIGNIN_LIST] =
		"SELECT id, address, link, created, last_seen, agent"
		" FROM signins WHERE address = ?1 ORDER BY created DESC, id"
		" LIMIT ?2",
	[SQL_SIGNIN_DROP] =
		"DELETE FROM signins WHERE address = ?1 AND id = ?2",
	[SQL_SIGNIN_DROP_ALL] =
		"DELETE FROM signins WHERE address = ?1",
	[SQL_SIGNIN_IDLE] =
		"DELETE FROM signins WHERE last_seen < ?1",
	/* every seat of an address's key in any game, a person's; the
	 * newest games first */
	[SQL_SEATS_OF_ADDRESS] =
		"SELECT s.game, s.seat FROM seats AS s"
		" JOIN games AS g ON g.id = s.game"
		" WHERE s.email <> '' AND s.bot = ''"
		" AND address_key(s.email) = ?1"
		" ORDER BY g.updated DESC, s.game, s.seat LIMIT ?2",
	/* store_push.c */
	[SQL_PUSH_ADD] =
		"INSERT INTO push_subs (game, seat, endpoint, p256dh, auth,"
		" created) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
		" ON CONFLICT (game, seat, endpoint) DO UPDATE SET"
		" p256dh = excluded.p256dh, auth = excluded.auth,"
		" created = excluded.created",
	/* all but the seat's newest ?3 */
	[SQL_PUSH_TRIM] =
		"DELETE FROM push_subs WHERE game = ?1 AND seat = ?2"
		" AND endpoint NOT IN (SELECT endpoint FROM push_subs"
		" WHERE game = ?1 AND seat = ?2"
		" ORDER BY created DESC, endpoint LIMIT ?3)",
	[SQL_PUSH_REMOVE] =
		"DELETE FROM push_subs WHERE game = ?1 AND seat = ?2"
		" AND endpoint = ?3",
	[SQL_PUSH_REMOVE_ALL] =
		"DELETE FROM push_subs WHERE game = ?1 AND seat = ?2",
	[SQL_PUSH_LIST] =
		"SELECT endpoint, p256dh, auth, created FROM push_subs"
		" WHERE game = ?1 AND seat = ?2"
		" ORDER BY created DESC, endpoint LIMIT ?3",
	[SQL_PUSH_SEAT] =
		"SELECT 1 FROM seats WHERE game = ?1 AND seat = ?2",
	[SQL_PUSH_GET] =
		"SELECT p256dh, auth FROM push_subs WHERE game = ?1 AND seat = ?2"
		" AND endpoint = ?3",
	/* store_notice.c.  The CASTs are for PostgreSQL, which types a
	 * parameter of a SELECT list as text (SQLite takes them as they
	 * come): one text for both engines. */
	[SQL_NOTICE_PUSH_QUEUE] =
		"INSERT INTO notices (game, seat, kind, channel, target, round,"
		" risk, by_seat, result, move_seq, created, next_attempt)"
		" SELECT game, seat, CAST(?3 AS TEXT), 'push', endpoint,"
		" CAST(?4 AS INTEGER), CAST(?5 AS INTEGER), CAST(?6 AS INTEGER),"
		" CAST(?7 AS TEXT), CAST(?8 AS INTEGER), CAST(?9 AS BIGINT),"
		" CAST(?9 AS BIGINT) + CAST(?10 AS BIGINT)"
		" FROM push_subs WHERE game = ?1"
		" AND (CAST(?2 AS INTEGER) = 0 OR seat = CAST(?2 AS INTEGER))",
	/* ?11: why it is dropped at once (over a rate), or "" */
	[SQL_NOTICE_HOOK_QUEUE] =
		"INSERT INTO notices (game, seat, kind, channel, target, round,"
		" risk, by_seat, result, move_seq, created, next_attempt,"
		" dropped, last_error)"
		" SELECT game, CAST(?2 AS INTEGER), CAST(?3 AS TEXT), 'hook', url,"
		" CAST(?4 AS INTEGER), CAST(?5 AS INTEGER), CAST(?6 AS INTEGER),"
		" CAST(?7 AS TEXT), CAST(?8 AS INTEGER), CAST(?9 AS BIGINT),"
		" CAST(?9 AS BIGINT) + CAST(?10 AS BIGINT),"
		" CASE WHEN CAST(?11 AS TEXT) <> '' THEN CAST(?9 AS BIGINT) END,"
		" CAST(?11 AS TEXT) FROM game_hooks WHERE game = ?1",
	/* the game's and the server's messages since ?2 that count: all but
	 * those dropped before any attempt (over a rate, taken back) */
	[SQL_NOTICE_HOOK_COUNT] =
		"SELECT (SELECT count(*) FROM notices WHERE game = ?1"
		" AND channel = 'hook' AND created > ?2"
		" AND (dropped IS NULL OR attempts > 0)),"
		" (SELECT count(*) FROM notices WHERE channel = 'hook'"
		" AND created > ?2 AND (dropped IS NULL OR attempts > 0))",
	/* a move's first question, cheap when the game has neither */
	[SQL_NOTICE_CHANNELS] =
		"SELECT CASE WHEN EXISTS (SELECT 1 FROM push_subs WHERE game = ?1"
		" AND (CAST(?2 AS INTEGER) = 0 OR seat = CAST(?2 AS INTEGER)))"
		" THEN 1 ELSE 0 END,"
		" CASE WHEN EXISTS (SELECT 1 FROM game_hooks WHERE game = ?1)"
		" THEN 1 ELSE 0 END",
	[SQL_NOTICE_DUE] =
		"SELECT id, game, seat, kind, channel, target, round, risk,"
		" by_seat, result, move_seq, created, attempts, next_attempt,"
		" last_error, sent, dropped FROM notices"
		" WHERE sent IS NULL AND dropped IS NULL AND next_attempt <= ?1"
		" ORDER BY next_attempt, id LIMIT 1",
	[SQL_NOTICE_CLAIM] =
		"UPDATE notices SET attempts = attempts + 1, next_attempt = ?2"
		" WHERE id = ?1",
	[SQL_NOTICE_SENT] =
		"UPDATE notices SET sent = ?2, last_error = ''"
		" WHERE id = ?1 AND sent IS NULL AND dropped IS NULL",
	/* ?3: the time it is given up at, or 0 to retry */
	[SQL_NOTICE_FAILED] =
		"UPDATE notices SET last_error = ?2, dropped ="
		" CASE WHEN CAST(?3 AS BIGINT) > 0 THEN CAST(?3 AS BIGINT) END"
		" WHERE id = ?1 AND sent IS NULL AND dropped IS NULL",
	[SQL_NOTICE_NEXT] =
		"SELECT min(next_attempt) FROM notices"
		" WHERE sent IS NULL AND dropped IS NULL",
	[SQL_NOTICE_LIST] =
		"SELECT id, game, seat, kind, channel, target, round, risk,"
		" by_seat, result, move_seq, created, attempts, next_attempt,"
		" last_error, sent, dropped FROM notices"
		" ORDER BY id DESC LIMIT ?1",
	[SQL_NOTICE_TAKEBACK] =
		"UPDATE notices SET dropped = ?3,"
		" last_error = 'its move was taken back'"
		" WHERE game = ?1 AND move_seq = ?2 AND sent IS NULL"
		" AND dropped IS NULL",
	[SQL_NOTICE_END] =
		"UPDATE notices SET dropped = ?2, last_error = 'the game was ended'"
		" WHERE game = ?1 AND sent IS NULL AND dropped IS NULL"
		" AND kind IN ('turn', 'reminder', 'nudge')",
	/* store_hook.c */
	[SQL_HOOK_SET] =
		"INSERT INTO game_hooks (game, url, kind, secret, set_by, created)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (game) DO UPDATE SET"
		" url = excluded.url, kind = excluded.kind,"
		" secret = excluded.secret, set_by = excluded.set_by,"
		" created = excluded.created",
	[SQL_HOOK_GET] =
		"SELECT url, kind, secret, set_by, created FROM game_hooks"
		" WHERE game = ?1",
	[SQL_HOOK_REMOVE] =
		"DELETE FROM game_hooks WHERE game = ?1",
	/* ?3: why (the webhook was removed, or changed) */
	[SQL_HOOK_LAST] =
		"SELECT id, game, seat, kind, channel, target, round, risk,"
		" by_seat, result, move_seq, created, attempts, next_attempt,"
		" last_error, sent, dropped FROM notices"
		" WHERE game = ?1 AND channel = 'hook' AND target = ?2"
		" AND (attempts > 0 OR sent IS NOT NULL)"
		" ORDER BY id DESC LIMIT 1",
	[SQL_HOOK_DROP_QUEUED] =
		"UPDATE notices SET dropped = ?2, last_error = ?3"
		" WHERE game = ?1 AND channel = 'hook' AND sent IS NULL"
		" AND dropped IS NULL",
};

store_rc store_fail(store_error *err, store_rc rc, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		err->rc = rc;
		va_start(ap, fmt);
		vsnprintf(err->why, sizeof err->why, fmt, ap);
		va_end(ap);
	}
	return rc;
}

store_rc store_db_fail(store *s, int code, const char *what,
                       store_error *err)
{
	store_rc rc;

	switch (code) {
	case DB_BUSY:
		rc = STORE_BUSY;
		break;
	case DB_CORRUPT:
		rc = STORE_CORRUPT;
		break;
	case DB_FULL:    /* the transaction was rolled back whole */
		rc = STORE_FULL;
		break;
	default:
		rc = STORE_ERROR;
	}
	/* a statement that could not be prepared fails as DB_ERROR at its
	 * step: the connection knows why */
	if (code == DB_ERROR && s && s->db && db_errcode(s->db) == DB_GONE)
		code = DB_GONE;
	if (code == DB_GONE)   /* a server restarting: a retry may pass */
		return store_fail(err, STORE_BUSY, "%s: the database server "
		                  "cannot be reached (%s); try again", what,
		                  s && s->db ? db_errmsg(s->db) : "no database");
	if (rc == STORE_BUSY)
		return store_fail(err, rc, "%s: the database is locked by "
		                  "another writer; try again", what);
	return store_fail(err, rc, "%s: %s", what,
	                  s && s->db ? db_errmsg(s->db) : "no database");
}

const char *sql_text_of(enum sql_stmt which)
{
	return sql_text[which];
}

/* The spelling for the connection's engine. */
static const char *text_for(const store *s, enum sql_stmt which)
{
	if (s->db->engine == DB_POSTGRES && sql_pg_text[which])
		return sql_pg_text[which];
	return sql_text[which];
}

int sql_prepare_all(store *s)
{
	for (int i = 0; i < SQL__MAX; i++)
		if (!sql_get(s, (enum sql_stmt)i))
			return db_errcode(s->db);
	return DB_OK;
}

void sql_finalize_all(store *s)
{
	for (int i = 0; i < SQL__MAX; i++) {
		db_finalize(s->stmt[i]);
		s->stmt[i] = NULL;
	}
}

/* Statements are prepared when first used: a short-lived process (one
 * reply from the MTA) uses a handful of them, and preparing all of them
 * took most of its time.  NULL when preparing fails (the connection's
 * error says why); the driver refuses a NULL statement at its step, so
 * callers fail cleanly there. */
db_stmt *sql_get(store *s, enum sql_stmt which)
{
	db_stmt *st = s->stmt[which];

	if (!st) {
		st = db_prepare(s->db, text_for(s, which));
		s->stmt[which] = st;
		return st;
	}
	db_reset(st);
	return st;
}

int sql_run(store *s, enum sql_stmt which)
{
	/* Bound by the caller through sql_get, or (BEGIN, COMMIT) needing
	 * no values: prepared here on first use. */
	db_stmt *st = s->stmt[which] ? s->stmt[which] : sql_get(s, which);
	int rc = db_step(st);

	db_reset(st);
	return rc;
}

/*
 * PostgreSQL's side of BEGIN IMMEDIATE: every writer takes one lock for
 * its whole transaction, in one round trip with the BEGIN.  The store's
 * transactions read, then write what they read (the next chat line, a
 * limit's count, a claimed job) as SQLite's single writer lets them, so
 * writers on every host take turns here as they do on a file; the
 * transaction stays READ COMMITTED, so it reads what the writer before
 * it committed.  A lock held longer than the busy timeout is DB_BUSY.
 * An advisory lock belongs to the database: its second half is the
 * schema's, so that stores in two schemas of one database (another
 * instance, or the tests' schema each) do not wait for each other.
 */
const char sql_pg_begin_write[] =
	"BEGIN; SELECT pg_advisory_xact_lock(1112821553,"
	" hashtext(current_schema()))";

static store_rc pg_begin(store *s, store_error *err)
{
	db_code rc = db_exec(s->db, sql_pg_begin_write);

	if (rc == DB_OK)
		return STORE_OK;
	store_rc out = store_db_fail(s, rc, "begin", err);
	sql_rollback(s);
	return out;
}

store_rc sql_begin(store *s, store_error *err)
{
	if (s->db->engine == DB_POSTGRES)
		return pg_begin(s, err);
	/* A file deleted or moved away under the open connection still
	 * takes writes, which are lost: refuse every change until the file
	 * is back. */
	if (s->db->engine == DB_SQLITE && db_sqlite_moved(s->db))
		return store_fail(err, STORE_ERROR, "the database file was "
		                  "moved or deleted since it was opened");
	int rc = sql_run(s, SQL_BEGIN);
	return rc == DB_DONE ? STORE_OK : store_db_fail(s, rc, "begin", err);
}

store_rc sql_commit(store *s, store_error *err)
{
	int rc = sql_run(s, SQL_COMMIT);

	if (rc == DB_DONE)
		return STORE_OK;
	store_rc out = store_db_fail(s, rc, "commit", err);
	sql_rollback(s);
	return out;
}

void sql_rollback(store *s)
{
	if (!db_in_transaction(s->db))
		return;
	/* A server lost inside the transaction must hear no more of it
	 * until it is rolled back, and a ROLLBACK not yet prepared would
	 * need the server: said, not prepared, it needs none. */
	if (s->db->engine == DB_POSTGRES)
		db_exec(s->db, "ROLLBACK");
	else
		sql_run(s, SQL_ROLLBACK);
}

int sql_column_text(db_stmt *st, int col, char *buf, size_t cap)
{
	const char *t = db_column_text(st, col);
	size_t n = (size_t)db_column_bytes(st, col);

	if (!t)
		n = 0;
	if (n >= cap) {
		buf[0] = '\0';
		return -1;
	}
	if (n)
		memcpy(buf, t, n);
	buf[n] = '\0';
	return 0;
}
