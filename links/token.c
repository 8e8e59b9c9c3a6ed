/*
 * token.c - the server key, seat link tokens and CSRF tokens.
 *
 * Both token kinds MAC the same 26-byte message, with different keys:
 *   [0] version (1)  [1..16] game id, raw  [17] seat  [18..25] gen, BE
 * A seat token is base64url(message || MAC); a CSRF token base64url(MAC).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "token.h"

#define B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

enum {
	VERSION = 1,
	ID_RAW = 16,
	MSG_LEN = 1 + ID_RAW + 1 + 8,
	MAC_LEN = crypto_auth_BYTES,
	TOK_RAW = MSG_LEN + MAC_LEN,
	SUBKEY_SEAT = 1,
	SUBKEY_CSRF = 2,
	SUBKEY_LINK = 3,     /* + token_kind */
	SUBKEY_BLOCK = 64,   /* past any token_kind the links may add */
	SUBKEY_REPLY = 65    /* reply.h */
};

_Static_assert(TOKEN_KEY_BYTES == crypto_kdf_KEYBYTES, "kdf key size");
_Static_assert(TOKEN_KEY_BYTES == crypto_auth_KEYBYTES, "auth key size");
_Static_assert(TOKEN_TEXT_SIZE == sodium_base64_ENCODED_LEN(TOK_RAW, B64),
               "seat token size");
_Static_assert(CSRF_TEXT_SIZE == sodium_base64_ENCODED_LEN(MAC_LEN, B64),
               "csrf token size");
_Static_assert(TOKEN_GAME_ID_LEN + 1 == sodium_base64_ENCODED_LEN(ID_RAW, B64),
               "game id size");

static const char *const rc_text[] = {
	[TOKEN_OK] = "ok",
	[TOKEN_MALFORMED] = "malformed token",
	[TOKEN_BAD_MAC] = "token not issued by this server",
	[TOKEN_INVALID] = "invalid argument",
	[TOKEN_KEY_IO] = "cannot read or create the key file",
	[TOKEN_KEY_SIZE] = "key file has the wrong size",
	[TOKEN_KEY_MODE] = "key file is accessible to others",
};

const char *token_rc_text(token_rc rc)
{
	if ((unsigned)rc >= sizeof rc_text / sizeof rc_text[0])
		return "unknown error";
	return rc_text[rc];
}

void token_keys_derive(const unsigned char master[TOKEN_KEY_BYTES],
                       token_keys *k)
{
	/* separate subkeys: a seat MAC is never a valid CSRF MAC */
	crypto_kdf_derive_from_key(k->seat, sizeof k->seat, SUBKEY_SEAT,
	                           "btseat__", master);
	crypto_kdf_derive_from_key(k->csrf, sizeof k->csrf, SUBKEY_CSRF,
	                           "btcsrf__", master);
	for (int kind = 0; kind < TOKEN_KIND__MAX; kind++)
		crypto_kdf_derive_from_key(k->link[kind], sizeof k->link[kind],
		                           SUBKEY_LINK + (uint64_t)kind,
		                           "btlink__", master);
	crypto_kdf_derive_from_key(k->block, sizeof k->block, SUBKEY_BLOCK,
	                           "btblock_", master);
	crypto_kdf_derive_from_key(k->reply, sizeof k->reply, SUBKEY_REPLY,
	                           "btreply_", master);
}

void token_keys_wipe(token_keys *k)
{
	sodium_memzero(k, sizeof *k);
}

static token_rc key_fail(token_rc rc, char *why, size_t cap,
                         const char *path, const char *what)
{
	if (why && cap)
		snprintf(why, cap, "%s: %s", path, what);
	return rc;
}

/* Creates path with a fresh random key in master.  *lost is set if the
 * file appeared meanwhile (another process created it first). */
static token_rc key_create(const char *path, unsigned char *master,
                           char *why, size_t cap, int *lost)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	              0600);
	ssize_t n;

	*lost = fd < 0 && errno == EEXIST;
	if (fd < 0)
		return key_fail(TOKEN_KEY_IO, why, cap, path, strerror(errno));
	randombytes_buf(master, TOKEN_KEY_BYTES);
	/* the umask may only take bits away; make sure we can read it back */
	n = fchmod(fd, 0600) == 0 ? write(fd, master, TOKEN_KEY_BYTES) : -1;
	if (n != TOKEN_KEY_BYTES || fsync(fd) != 0) {
		int e = n < 0 ? errno : EIO;
		close(fd);
		unlink(path);   /* a short file would be refused forever */
		sodium_memzero(master, TOKEN_KEY_BYTES);
		return key_fail(TOKEN_KEY_IO, why, cap, path, strerror(e));
	}
	if (close(fd) != 0)
		return key_fail(TOKEN_KEY_IO, why, cap, path, strerror(errno));
	return TOKEN_OK;
}

/* Reads an existing key file into master after checking what it is. */
static token_rc key_read(int fd, const char *path, unsigned char *master,
                         char *why, size_t cap)
{
	struct stat st;
	char msg[160];
	ssize_t n;

	if (fstat(fd, &st) != 0)
		return key_fail(TOKEN_KEY_IO, why, cap, path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return key_fail(TOKEN_KEY_IO, why, cap, path,
		                "not a regular file");
	if (st.st_mode & 077) {
		snprintf(msg, sizeof msg, "mode %04o gives group or others "
		         "access; run chmod 600 on it",
		         (unsigned)(st.st_mode & 07777));
		return key_fail(TOKEN_KEY_MODE, why, cap, path, msg);
	}
	if (st.st_size != TOKEN_KEY_BYTES) {
		snprintf(msg, sizeof msg, "%lld bytes, expected %d",
		         (long long)st.st_size, TOKEN_KEY_BYTES);
		return key_fail(TOKEN_KEY_SIZE, why, cap, path, msg);
	}
	n = read(fd, master, TOKEN_KEY_BYTES);
	if (n != TOKEN_KEY_BYTES)
		return key_fail(TOKEN_KEY_IO, why, cap, path,
		                n < 0 ? strerror(errno) : "short read");
	return TOKEN_OK;
}

token_rc token_keys_load(const char *path, token_keys *k, char *why,
                         size_t cap)
{
	unsigned char master[TOKEN_KEY_BYTES];
	token_rc rc = TOKEN_KEY_IO;
	int fd, tries, lost = 0;

	if (why && cap)
		why[0] = '\0';
	sodium_memzero(k, sizeof *k);
	if (path == NULL)
		return TOKEN_INVALID;
	/* two tries: a second process may create the file between ours */
	for (tries = 0; tries < 2; tries++) {
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			rc = key_read(fd, path, master, why, cap);
			close(fd);
			break;
		}
		if (errno != ENOENT)
			return key_fail(TOKEN_KEY_IO, why, cap, path,
			                strerror(errno));
		rc = key_create(path, master, why, cap, &lost);
		if (!lost)
			break;
	}
	if (rc == TOKEN_OK)
		token_keys_derive(master, k);
	sodium_memzero(master, sizeof master);
	return rc;
}

/* Packs the MACed message; TOKEN_INVALID for a bad id, seat or gen. */
static token_rc pack_any(unsigned char msg[MSG_LEN], const char *game_id,
                         int seat, int min_seat, int64_t gen)
{
	char again[TOKEN_GAME_ID_LEN + 1];
	const char *end;
	size_t len;
	int i;

	if (game_id == NULL || seat < min_seat || seat > TOKEN_SEAT_MAX ||
	    gen < 0 ||
	    strnlen(game_id, TOKEN_GAME_ID_LEN + 1) != TOKEN_GAME_ID_LEN)
		return TOKEN_INVALID;
	if (sodium_base642bin(msg + 1, ID_RAW, game_id, TOKEN_GAME_ID_LEN,
	                      NULL, &len, &end, B64) != 0 || len != ID_RAW ||
	    end != game_id + TOKEN_GAME_ID_LEN)
		return TOKEN_INVALID;
	/* one id, one spelling: otherwise two tokens could name one game */
	sodium_bin2base64(again, sizeof again, msg + 1, ID_RAW, B64);
	if (strcmp(again, game_id) != 0)
		return TOKEN_INVALID;
	msg[0] = VERSION;
	msg[1 + ID_RAW] = (unsigned char)seat;
	for (i = 0; i < 8; i++)
		msg[MSG_LEN - 1 - i] = (unsigned char)((uint64_t)gen >> (8 * i));
	return TOKEN_OK;
}

static token_rc pack(unsigned char msg[MSG_LEN], const char *game_id,
                     int seat, int64_t gen)
{
	return pack_any(msg, game_id, seat, 1, gen);
}

token_rc token_make(const token_keys *k, const char *game_id, int seat,
                    int64_t gen, char *dst, size_t cap)
{
	unsigned char raw[TOK_RAW];

	if (dst && cap)
		dst[0] = '\0';
	if (dst == NULL || cap < TOKEN_TEXT_SIZE ||
	    pack(raw, game_id, seat, gen) != TOKEN_OK)
		return TOKEN_INVALID;
	crypto_auth(raw + MSG_LEN, raw, MSG_LEN, k->seat);
	sodium_bin2base64(dst, cap, raw, sizeof raw, B64);
	return TOKEN_OK;
}

/* Decodes exactly text_len characters of base64url into exactly n bytes. */
/* 1 if c is of the base64url alphabet.  Only those: Debian 12's
 * libsodium 1.0.18 reads every byte 0x80-0xFF as '_', so without this a
 * secret would have many spellings. */
static int b64url_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static int unb64(unsigned char *bin, size_t n, const char *s,
                 size_t text_len)
{
	const char *end;
	size_t len;

	if (s == NULL || strnlen(s, text_len + 1) != text_len)
		return -1;
	for (size_t i = 0; i < text_len; i++)
		if (!b64url_char(s[i]))
			return -1;
	if (sodium_base642bin(bin, n, s, text_len, NULL, &len, &end, B64) != 0)
		return -1;
	return len == n && end == s + text_len ? 0 : -1;
}

token_rc token_check(const token_keys *k, const char *tok,
                     char game_id[TOKEN_GAME_ID_LEN + 1], int *seat,
                     int64_t *gen)
{
	unsigned char raw[TOK_RAW];
	uint64_t g = 0;
	int i;

	game_id[0] = '\0';
	*seat = 0;
	*gen = 0;
	if (unb64(raw, sizeof raw, tok, TOKEN_TEXT_LEN) != 0 ||
	    raw[0] != VERSION)
		return TOKEN_MALFORMED;
	if (crypto_auth_verify(raw + MSG_LEN, raw, MSG_LEN, k->seat) != 0)
		return TOKEN_BAD_MAC;
	for (i = 0; i < 8; i++)
		g = g << 8 | raw[1 + ID_RAW + 1 + i];
	/* only reachable with our key, i.e. never; checked all the same */
	if (raw[1 + ID_RAW] < 1 || raw[1 + ID_RAW] > TOKEN_SEAT_MAX ||
	    g > INT64_MAX)
		return TOKEN_MALFORMED;
	sodium_bin2base64(game_id, TOKEN_GAME_ID_LEN + 1, raw + 1, ID_RAW, B64);
	*seat = raw[1 + ID_RAW];
	*gen = (int64_t)g;
	return TOKEN_OK;
}

token_rc csrf_make(const token_keys *k, const char *game_id, int seat,
                   int64_t gen, char *dst, size_t cap)
{
	unsigned char msg[MSG_LEN], mac[MAC_LEN];

	if (dst && cap)
		dst[0] = '\0';
	if (dst == NULL || cap < CSRF_TEXT_SIZE ||
	    pack(msg, game_id, seat, gen) != TOKEN_OK)
		return TOKEN_INVALID;
	crypto_auth(mac, msg, MSG_LEN, k->csrf);
	sodium_bin2base64(dst, cap, mac, sizeof mac, B64);
	return TOKEN_OK;
}

token_rc csrf_check(const token_keys *k, const char *game_id, int seat,
                    int64_t gen, const char *tok)
{
	unsigned char msg[MSG_LEN], mac[MAC_LEN];

	if (unb64(mac, sizeof mac, tok, CSRF_TEXT_LEN) != 0)
		return TOKEN_MALFORMED;
	if (pack(msg, game_id, seat, gen) != TOKEN_OK)
		return TOKEN_MALFORMED;
	if (crypto_auth_verify(mac, msg, MSG_LEN, k->csrf) != 0)
		return TOKEN_BAD_MAC;
	return TOKEN_OK;
}

/* The message of a link key: a spectator's names no seat; the others
 * name one. */
static token_rc pack_link(unsigned char msg[MSG_LEN], token_kind kind,
                          const char *game_id, int seat, int64_t gen)
{
	if ((unsigned)kind >= TOKEN_KIND__MAX ||
	    (kind == TOKEN_WATCH) != (seat == 0))
		return TOKEN_INVALID;
	return pack_any(msg, game_id, seat, 0, gen);
}

token_rc link_key_make(const token_keys *k, token_kind kind,
                       const char *game_id, int seat, int64_t gen,
                       char *dst, size_t cap)
{
	unsigned char msg[MSG_LEN], mac[MAC_LEN];

	if (dst && cap)
		dst[0] = '\0';
	if (dst == NULL || cap < CSRF_TEXT_SIZE ||
	    pack_link(msg, kind, game_id, seat, gen) != TOKEN_OK)
		return TOKEN_INVALID;
	crypto_auth(mac, msg, MSG_LEN, k->link[kind]);
	sodium_bin2base64(dst, cap, mac, sizeof mac, B64);
	return TOKEN_OK;
}

token_rc link_key_check(const token_keys *k, token_kind kind,
                        const char *game_id, int seat, int64_t gen,
                        const char *tok)
{
	unsigned char msg[MSG_LEN], mac[MAC_LEN];

	if (unb64(mac, sizeof mac, tok, CSRF_TEXT_LEN) != 0 ||
	    pack_link(msg, kind, game_id, seat, gen) != TOKEN_OK)
		return TOKEN_MALFORMED;
	if (crypto_auth_verify(mac, msg, MSG_LEN, k->link[kind]) != 0)
		return TOKEN_BAD_MAC;
	return TOKEN_OK;
}

/* 0 if address_key is something a block key may name. */
static int address_ok(const char *address_key)
{
	size_t n = address_key ? strnlen(address_key, TOKEN_ADDRESS_MAX + 1)
	                       : 0;
	return n >= 1 && n <= TOKEN_ADDRESS_MAX ? 0 : -1;
}

token_rc block_key_make(const token_keys *k, const char *address_key,
                        char *dst, size_t cap)
{
	unsigned char mac[MAC_LEN];

	if (dst && cap)
		dst[0] = '\0';
	if (dst == NULL || cap < CSRF_TEXT_SIZE || address_ok(address_key))
		return TOKEN_INVALID;
	crypto_auth(mac, (const unsigned char *)address_key,
	            strlen(address_key), k->block);
	sodium_bin2base64(dst, cap, mac, sizeof mac, B64);
	return TOKEN_OK;
}

token_rc block_key_check(const token_keys *k, const char *address_key,
                         const char *tok)
{
	unsigned char mac[MAC_LEN];

	if (unb64(mac, sizeof mac, tok, CSRF_TEXT_LEN) != 0 ||
	    address_ok(address_key))
		return TOKEN_MALFORMED;
	if (crypto_auth_verify(mac, (const unsigned char *)address_key,
	                       strlen(address_key), k->block) != 0)
		return TOKEN_BAD_MAC;
	return TOKEN_OK;
}
