-- 0024-push: the browsers a seat asked to be notified on (Web Push,
-- db/store_push.c): each its push service's endpoint and the keys its
-- messages are encrypted for (RFC 8291), as the browser gave them when
-- the seat turned notifications on from its settings page.
CREATE TABLE push_subs (
	game     TEXT NOT NULL REFERENCES games (id),
	seat     INTEGER NOT NULL,
	endpoint TEXT NOT NULL,
	p256dh   TEXT NOT NULL,            -- base64url of 65 bytes
	auth     TEXT NOT NULL,            -- base64url of 16 bytes
	created  INTEGER NOT NULL,
	PRIMARY KEY (game, seat, endpoint)
);
CREATE INDEX push_subs_by_endpoint ON push_subs (endpoint);
