-- 0025-notices: what goes beside email (db/store_notice.c, notify/):
-- a Web Push message to each browser a seat turned notifications on in,
-- and a message to the crew's chat, if the game names a webhook.  Each
-- notice is queued in the transaction of what caused it (a move, a
-- reminder, a nudge, the end), with the facts its words are made of at
-- send time, and is sent, retried and given up by the worker's notice
-- lane, apart from the emails so that a slow receiver never holds one up.
CREATE TABLE notices (
	id           INTEGER PRIMARY KEY,
	game         TEXT NOT NULL,
	seat         INTEGER NOT NULL,     -- push: the seat notified; hook:
	                                   -- whose turn (0 for the end)
	kind         TEXT NOT NULL,        -- turn, reminder, nudge, over
	channel      TEXT NOT NULL,        -- push or hook
	target       TEXT NOT NULL,        -- the endpoint, or the hook's URL
	round        INTEGER NOT NULL DEFAULT 0,
	risk         INTEGER NOT NULL DEFAULT -1,   -- percent; -1: none
	by_seat      INTEGER NOT NULL DEFAULT 0,    -- who nudged or ended
	result       TEXT NOT NULL DEFAULT '',      -- won, lost
	move_seq     INTEGER NOT NULL DEFAULT 0,
	created      INTEGER NOT NULL,
	attempts     INTEGER NOT NULL DEFAULT 0,
	next_attempt INTEGER NOT NULL,
	last_error   TEXT NOT NULL DEFAULT '',
	sent         INTEGER,
	dropped      INTEGER
);
CREATE INDEX notices_queued ON notices (next_attempt)
	WHERE sent IS NULL AND dropped IS NULL;
CREATE INDEX notices_by_game ON notices (game, channel, created);
CREATE INDEX notices_by_channel ON notices (channel, created);

-- The crew's chat: at most one webhook a game, set and removed by any
-- seat, shown to all.  secret signs the JSON kind's messages (HMAC).
CREATE TABLE game_hooks (
	game     TEXT PRIMARY KEY REFERENCES games (id),
	url      TEXT NOT NULL,
	kind     TEXT NOT NULL,            -- discord, slack, matrix, ntfy, json
	secret   TEXT NOT NULL,            -- 64 hex digits
	set_by   INTEGER NOT NULL,
	created  INTEGER NOT NULL
);
