-- 0019-mail-budget: every email to one address counts toward one budget
-- an hour and a day (store_limits), whatever its kind: the outbox keeps
-- each email's address key (store_address_key: lower case, without a
-- "+tag") beside it, indexed, so counting an address's emails of the
-- last day reads that address's rows only.  Those over the budget are
-- kept, dropped, with why.
-- (PostgreSQL spelling of db/schema/0019-mail-budget.sql.)
ALTER TABLE outbox ADD COLUMN address TEXT NOT NULL DEFAULT '';

-- The key of the last day's emails, as the SQLite migration makes it
-- (its own rule, not address_key(): the program's function is not
-- there while SQLite migrates); older ones count for nothing and keep
-- ''.  SQLite's lower() folds A-Z only: so does translate() here, where
-- lower() would fold other letters too; instr() is strpos().
UPDATE outbox SET address =
	CASE WHEN strpos(recipient, '+') > 0
	      AND strpos(recipient, '+') < strpos(recipient, '@')
	THEN translate(substr(recipient, 1, strpos(recipient, '+') - 1)
	               || substr(recipient, strpos(recipient, '@')),
	               'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
	               'abcdefghijklmnopqrstuvwxyz')
	ELSE translate(recipient, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
	               'abcdefghijklmnopqrstuvwxyz') END
	WHERE created > CAST(floor(extract(epoch FROM now())) AS BIGINT) - 86400;

CREATE INDEX outbox_by_address ON outbox (address, created);
