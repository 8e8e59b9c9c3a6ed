-- 0019-mail-budget: every email to one address counts toward one budget
-- an hour and a day (store_limits), whatever its kind: the outbox keeps
-- each email's address key (store_address_key: lower case, without a
-- "+tag") beside it, indexed, so counting an address's emails of the
-- last day reads that address's rows only.  Those over the budget are
-- kept, dropped, with why.
ALTER TABLE outbox ADD COLUMN address TEXT NOT NULL DEFAULT '';

-- The key of the last day's emails, as store_address_key makes it (the
-- program's address_key() is not there while migrating); older ones
-- count for nothing and keep ''.
UPDATE outbox SET address =
	CASE WHEN instr(lower(recipient), '+') > 0
	      AND instr(lower(recipient), '+') < instr(lower(recipient), '@')
	THEN substr(lower(recipient), 1, instr(lower(recipient), '+') - 1)
	     || substr(lower(recipient), instr(lower(recipient), '@'))
	ELSE lower(recipient) END
	WHERE created > CAST(strftime('%s', 'now') AS INTEGER) - 86400;

CREATE INDEX outbox_by_address ON outbox (address, created);
