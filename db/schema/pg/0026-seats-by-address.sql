-- 0026-seats-by-address: the seats by their address's key (address_key,
-- 0022: one expression, immutable), for "Email me my games" and a
-- signed-in browser's My games (SQL_SEATS_OF_ADDRESS), which otherwise
-- read every seat of the server.  Only the seats that statement asks
-- for: a person's, with an address.
CREATE INDEX seats_by_address ON seats (address_key(email))
	WHERE email <> '' AND bot = '';
