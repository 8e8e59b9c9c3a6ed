-- 0022-address-key: address_key() (0005-mail-limits) as one expression,
-- with no FROM and not STRICT, so that the planner inlines it where a
-- statement calls it.  Until now each call ran the SQL-function
-- executor: the seats of a table page, each checked against blocked,
-- cost that page 0.1 to 0.5 ms on the server.  The same rule, the same
-- results: with r the place of the last '@' counted from the end,
--  - an '@' neither first nor last (1 < r < length): else NULL;
--  - the local part (before it), cut at its first '+', neither empty
--    nor starting with '@' (the key would start with '@'): else NULL;
--  - the key (that part, then '@' and the domain) at most 254 bytes
--    (STORE_EMAIL_MAX): else NULL;
--  - A-Z made a-z, nothing else.
-- NULL gives NULL, as the STRICT function did.  Checked against the
-- function it replaces on the addresses listed in 0005-mail-limits and
-- 480,000 random strings over "aZ+@.é" (up to 12 characters, 240 to
-- 260, and addresses of 200 to 260 bytes with and without a tag): the
-- same result for each.
CREATE OR REPLACE FUNCTION address_key(addr text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE
	WHEN strpos(reverse(addr), '@') > 1
	 AND strpos(reverse(addr), '@') < length(addr)
	 AND left(split_part(left(addr, length(addr)
	                               - strpos(reverse(addr), '@')),
	                     '+', 1), 1) NOT IN ('', '@')
	 AND octet_length(split_part(left(addr, length(addr)
	                                        - strpos(reverse(addr), '@')),
	                             '+', 1))
	     + octet_length(right(addr, strpos(reverse(addr), '@'))) <= 254
	THEN translate(split_part(left(addr, length(addr)
	                                     - strpos(reverse(addr), '@')),
	                          '+', 1)
	               || right(addr, strpos(reverse(addr), '@')),
	               'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
	               'abcdefghijklmnopqrstuvwxyz')
END
$$;
