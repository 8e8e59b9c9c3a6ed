/*
 * token.h - seat links and CSRF tokens, MACed with the server key.
 *
 * A seat link token names a game, a seat and the seat's token generation
 * (store_seat.token_gen), and carries a MAC over them: whoever holds it
 * plays that seat.  token_check() verifies the MAC only; the caller then
 * loads the seat and refuses the token unless gen == seat.token_gen
 * (revoking a link bumps token_gen, killing every older token).
 *
 * A CSRF token is a MAC over (game, seat, gen) with a separate key: forms
 * carry it in a hidden field and the POST handler checks it against the
 * seat the request is authenticated as.  Revoking kills old forms too.
 *
 * Both are base64url without padding: safe in URLs, cookies and HTML
 * attributes without escaping.  Seat and CSRF keys are derived from one
 * 32-byte server key file with crypto_kdf, so a MAC of one kind is never
 * valid as the other.  Call sodium_init() before anything here.
 */
#ifndef BT_TOKEN_H
#define BT_TOKEN_H

#include <stddef.h>
#include <stdint.h>

enum {
	TOKEN_KEY_BYTES = 32,        /* the key file; each derived key */
	TOKEN_GAME_ID_LEN = 22,      /* base64url of 16 bytes, as STORE_ID_LEN */
	TOKEN_SEAT_MAX = 6,          /* seats are 1..TOKEN_SEAT_MAX */
	/* version 1, game id 16, seat 1, gen 8, MAC 32 = 58 bytes */
	TOKEN_TEXT_LEN = 78,         /* characters of a seat token */
	TOKEN_TEXT_SIZE = TOKEN_TEXT_LEN + 1,
	CSRF_TEXT_LEN = 43,          /* characters of a CSRF token (32 bytes) */
	CSRF_TEXT_SIZE = CSRF_TEXT_LEN + 1,
	TOKEN_TEXT_MAX = TOKEN_TEXT_SIZE   /* buffer size for any token */
};

typedef enum token_rc {
	TOKEN_OK = 0,
	TOKEN_MALFORMED,    /* wrong length, alphabet, version or fields */
	TOKEN_BAD_MAC,      /* well formed but not ours (forged or other key) */
	TOKEN_INVALID,      /* a bad argument to make (id, seat, gen, cap) */
	TOKEN_KEY_IO,       /* key file: cannot open, create, read or write */
	TOKEN_KEY_SIZE,     /* key file: not exactly TOKEN_KEY_BYTES bytes */
	TOKEN_KEY_MODE      /* key file: readable or writable by others */
} token_rc;

/* The derived keys.  Secret: wipe with token_keys_wipe when done. */
/*
 * Read-only link keys: a URL that must work without the seat's cookie
 * but must not play the seat (an Atom feed, an unsubscribe link, a
 * spectator's view) carries a MAC over (game, seat, gen) with a key of
 * its own kind, CSRF_TEXT_LEN characters.  A spectator key has seat 0
 * and gen 0; the others die with the seat's generation, like its link.
 */
typedef enum token_kind {
	TOKEN_FEED,          /* PREFIX g/ID/feed?s=SEAT&k=KEY */
	TOKEN_UNSUB,         /* PREFIX g/ID/unsubscribe?s=SEAT&k=KEY */
	TOKEN_WATCH,         /* PREFIX g/ID/watch?k=KEY (seat 0, gen 0) */
	TOKEN_KIND__MAX
} token_kind;

typedef struct token_keys {
	unsigned char seat[TOKEN_KEY_BYTES];
	unsigned char csrf[TOKEN_KEY_BYTES];
	unsigned char link[TOKEN_KIND__MAX][TOKEN_KEY_BYTES];
	unsigned char block[TOKEN_KEY_BYTES];   /* block_key_make */
	unsigned char reply[TOKEN_KEY_BYTES];   /* reply.h: reply addresses */
} token_keys;

/* Loads the server key from path, or, if no file exists there, creates it
 * (O_CREAT|O_EXCL, mode 0600) with 32 random bytes.  Refuses a file that
 * is not a regular file, has the wrong size, or whose mode gives group or
 * others any access (TOKEN_KEY_MODE: "chmod 600" fixes it).  Derives k.
 * The key itself is never logged nor put in why (cap bytes, may be NULL),
 * which names the path and the problem.  A symbolic link is refused.
 * Call it once, in the process that starts the workers: two processes
 * creating the file at the same instant may see a half-written one. */
token_rc token_keys_load(const char *path, token_keys *k, char *why,
                         size_t cap);

/* Derives k from a 32-byte master key (what token_keys_load does after
 * reading the file; for tests and tools). */
void token_keys_derive(const unsigned char master[TOKEN_KEY_BYTES],
                       token_keys *k);

/* Overwrites k with zeros. */
void token_keys_wipe(token_keys *k);

/* Writes the seat link token for (game_id, seat, gen) into dst (cap >=
 * TOKEN_TEXT_SIZE).  game_id must be a canonical 22-character base64url
 * id, seat 1..TOKEN_SEAT_MAX, gen >= 0.  Returns TOKEN_OK or
 * TOKEN_INVALID (dst then holds "" if cap > 0). */
token_rc token_make(const token_keys *k, const char *game_id, int seat,
                    int64_t gen, char *dst, size_t cap);

/* Checks tok (NUL-terminated, any content) and on TOKEN_OK fills
 * game_id, *seat and *gen.  The MAC is compared in constant time.  Does
 * not look at the store: the caller must still compare *gen with the
 * seat's token_gen.  On error the outputs are zeroed / "". */
token_rc token_check(const token_keys *k, const char *tok,
                     char game_id[TOKEN_GAME_ID_LEN + 1], int *seat,
                     int64_t *gen);

/* Writes the CSRF token for (game_id, seat, gen) into dst (cap >=
 * CSRF_TEXT_SIZE); arguments as for token_make. */
token_rc csrf_make(const token_keys *k, const char *game_id, int seat,
                   int64_t gen, char *dst, size_t cap);

/* TOKEN_OK if tok is the CSRF token for (game_id, seat, gen), compared in
 * constant time; TOKEN_MALFORMED or TOKEN_BAD_MAC otherwise (a NULL tok
 * is malformed). */
token_rc csrf_check(const token_keys *k, const char *game_id, int seat,
                    int64_t gen, const char *tok);

/* Writes the link key of kind for (game_id, seat, gen) into dst (cap >=
 * CSRF_TEXT_SIZE).  seat is 0..TOKEN_SEAT_MAX (0 only for TOKEN_WATCH). */
token_rc link_key_make(const token_keys *k, token_kind kind,
                       const char *game_id, int seat, int64_t gen,
                       char *dst, size_t cap);

/* TOKEN_OK if tok is the link key of kind for (game_id, seat, gen). */
token_rc link_key_check(const token_keys *k, token_kind kind,
                        const char *game_id, int seat, int64_t gen,
                        const char *tok);

/*
 * The key of a "never email me again" link (PREFIX mail/block?a=ADDRESS
 * &k=KEY): a MAC over an address key (store_address_key: the caller
 * makes it, 1..TOKEN_ADDRESS_MAX bytes) with a key of its own, so it
 * names no game and no seat, and never dies: an address may always say
 * no.  CSRF_TEXT_LEN characters of base64url, compared in constant time.
 */
enum { TOKEN_ADDRESS_MAX = 254 };
token_rc block_key_make(const token_keys *k, const char *address_key,
                        char *dst, size_t cap);
token_rc block_key_check(const token_keys *k, const char *address_key,
                         const char *tok);

/* A short constant description of rc, for logs. */
const char *token_rc_text(token_rc rc);

#endif
