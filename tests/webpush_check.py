#!/usr/bin/env python3
"""webpush_check.py - Web Push as a push service and a browser see it, in
Debian's python3-cryptography, independent of push/: decrypts an
aes128gcm body (RFC 8188, RFC 8291) with the browser's private key and
auth secret, and checks a VAPID Authorization header (RFC 8292): its JWT's
ES256 signature by the key it names, its audience and expiry.

Used by tests/webpush.sh:
  webpush_check.py keys                 -> prints "PRIVATE PUBLIC AUTH"
  webpush_check.py open PRIVATE AUTH BODY   -> prints the message
  webpush_check.py vapid HEADER ENDPOINT NOW -> prints the claims' sub
Exit 1, saying why, on anything wrong.
"""
import base64
import json
import sys

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from urllib.parse import urlsplit


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class CheckError(Exception):
    """What is wrong with a body or a header (push_service.py catches it)."""


def fail(why):
    print("webpush_check: " + why, file=sys.stderr)
    sys.exit(1)


def hkdf(salt, ikm, info, length):
    return HKDF(hashes.SHA256(), length, salt, info).derive(ikm)


def point(key):
    return key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def keys():
    key = ec.generate_private_key(ec.SECP256R1())
    d = key.private_numbers().private_value.to_bytes(32, "big")
    auth = b"\x07" * 8 + bytes(range(8))
    print(b64e(d), b64e(point(key)), b64e(auth))


def open_record(private, auth, data):
    """The message in data (the body's bytes), opened with the browser's
    PRIVATE key and AUTH secret (base64url); CheckError if it is wrong."""
    ua = ec.derive_private_key(int.from_bytes(b64d(private), "big"), ec.SECP256R1())
    salt, rs, idlen = data[:16], int.from_bytes(data[16:20], "big"), data[20]
    as_public = data[21:21 + idlen]
    records = data[21 + idlen:]
    if rs < 18 or idlen != 65 or len(records) > rs:
        raise CheckError(f"a header that is not one record of aes128gcm (rs {rs}, idlen {idlen})")
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_public)
    secret = ua.exchange(ec.ECDH(), sender)
    ikm = hkdf(b64d(auth), secret, b"WebPush: info\0" + point(ua) + as_public, 32)
    cek = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\0", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\0", 12)
    try:
        plain = AESGCM(cek).decrypt(nonce, records, None)
    except InvalidTag:
        raise CheckError("the body does not decrypt") from None
    plain = plain.rstrip(b"\0")
    if not plain.endswith(b"\x02"):
        raise CheckError("the record does not end as the last one (0x02)")
    return plain[:-1].decode("utf-8")


def open_body(private, auth, body):
    sys.stdout.write(open_record(private, auth, b64d(body)) + "\n")


def vapid_claims(header, endpoint, now):
    """The claims of a VAPID Authorization header once checked for
    endpoint at time now; CheckError if anything is wrong."""
    if not header.startswith("vapid t=") or ", k=" not in header:
        raise CheckError("not a vapid header: " + header[:40])
    token, key = header[len("vapid t="):].split(", k=", 1)
    parts = token.split(".")
    if len(parts) != 3:
        raise CheckError("the JWT has not three parts")
    head = json.loads(b64d(parts[0]))
    claims = json.loads(b64d(parts[1]))
    if head.get("alg") != "ES256" or head.get("typ") != "JWT":
        raise CheckError(f"the JWT's header: {head}")
    sig = b64d(parts[2])
    if len(sig) != 64:
        raise CheckError(f"an ES256 signature of {len(sig)} bytes")
    der = encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(key))
    try:
        public.verify(der, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise CheckError("the JWT's signature is not the key's") from None
    u = urlsplit(endpoint)
    if claims.get("aud") != f"{u.scheme}://{u.netloc}":
        raise CheckError(f"aud {claims.get('aud')} is not the endpoint's origin")
    exp = claims.get("exp")
    if not isinstance(exp, int) or not now < exp <= now + 86400:
        raise CheckError(f"exp {exp} is not within a day of {now}")
    return claims


def vapid(header, endpoint, now):
    print(vapid_claims(header, endpoint, now).get("sub", ""))


def main(argv):
    try:
        if argv[1:2] == ["keys"]:
            keys()
        elif argv[1:2] == ["open"] and len(argv) == 5:
            open_body(argv[2], argv[3], argv[4])
        elif argv[1:2] == ["vapid"] and len(argv) == 5:
            vapid(argv[2], argv[3], int(argv[4]))
        else:
            fail("usage: keys | open PRIVATE AUTH BODY | vapid HEADER ENDPOINT NOW")
    except CheckError as why:
        fail(str(why))


if __name__ == "__main__":
    main(sys.argv)
