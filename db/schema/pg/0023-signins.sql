-- 0023-signins: "Email me my games" (db/store_signin.c).  A person asks
-- for a sign-in link by address; each ask is a row of signin_links, sent
-- or not (an address that holds no seat gets nothing, but the ask counts
-- toward its client's limit all the same).  The email carries the link's
-- secret; the row keeps only its hash, so the table alone opens nothing.
-- A browser that uses a link becomes a row of signins: its cookie holds
-- a secret of its own, the row its hash, the address key whose seats it
-- holds, and a public id that sign-out forms name.
CREATE TABLE signin_links (
	hash     TEXT PRIMARY KEY,
	address  TEXT NOT NULL,            -- store_address_key of the address
	client   TEXT NOT NULL,            -- who asked (the client's address)
	sent     INTEGER NOT NULL DEFAULT 0,
	created  BIGINT NOT NULL,
	expires  BIGINT NOT NULL
);
CREATE INDEX signin_links_by_address ON signin_links (address, created);
CREATE INDEX signin_links_by_client ON signin_links (client, created);

CREATE TABLE signins (
	hash      TEXT PRIMARY KEY,
	id        TEXT NOT NULL UNIQUE,
	address   TEXT NOT NULL,
	link      TEXT NOT NULL,           -- the hash of the link it came by
	created   BIGINT NOT NULL,
	last_seen BIGINT NOT NULL,
	agent     TEXT NOT NULL DEFAULT '' -- "Firefox on Android": the list
);
CREATE INDEX signins_by_address ON signins (address, created);
CREATE INDEX signins_by_link ON signins (link);
