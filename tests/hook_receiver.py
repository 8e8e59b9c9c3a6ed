#!/usr/bin/env python3
"""hook_receiver.py - a crew's chat webhook on loopback for the
integration tests: it takes what the server under test posts to a chat
(Discord, Slack, a JSON receiver of one's own), answers as those do or
as a broken one would, and writes each request to a log a test can read.

  hook_receiver.py DIR   serves on 127.0.0.1, a port the system chooses,
                         written to DIR/port once listening; until SIGTERM
                         (exit 0)

Each POST appends one JSON line to DIR/requests.log, on arrival: {"path",
"ctype", "headers" (names lower-cased), "body" (as UTF-8 text),
"valid_json" (null unless Content-Type is application/json), "t" (when it
came), "status" (the answer)}.  By the path:
  /ok/slack...   200 "ok" (Slack's answer)
  /ok/...        204 (Discord's)
  /json/...      204 if X-BufferTime-Signature is "sha256=" and the hex of
                 HMAC-SHA256(KEY, X-BufferTime-Timestamp + "." + body),
                 KEY the 32 bytes whose hex is in DIR/secret (read at each
                 request); else 401.  The line gets "signature_ok" (and
                 "signature_why" when false)
  /slow/...      204 after 12 seconds (the line is written at once)
  /fail/...      500;  /gone/... 410;  /big/... 200 and 1 MiB of answer
  anything else  404
"""
import hashlib
import hmac
import json
import os
import sys
import time
import traceback
from http.server import BaseHTTPRequestHandler

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loopback_http import append, serve  # noqa: E402

BODY_MAX = 1 << 20          # bytes of a request read at all
BIG = 1 << 20               # bytes of /big/'s answer
CHUNK = 1 << 16
SLOW_S = 12
STATUS = {"fail": 500, "gone": 410, "big": 200, "slow": 204, "ok": 204}




def media_type(ctype):
    return (ctype or "").split(";", 1)[0].strip().lower()


def valid_json(ctype, body):
    if media_type(ctype) != "application/json":
        return None
    try:
        json.loads(body.decode("utf-8"))
    except ValueError:
        return False
    return True


def hmac_hex(key, stamp, body):
    """As bytes; stamp as it came (http.server reads headers as Latin-1)."""
    mac = hmac.new(key, stamp.encode("latin-1") + b"." + body, hashlib.sha256)
    return mac.hexdigest().encode()


def read_secret(directory):
    """The key in DIR/secret as bytes and as its hex text, or None."""
    try:
        with open(os.path.join(directory, "secret")) as f:
            secret = f.read().strip()
        return bytes.fromhex(secret), secret.encode()
    except (OSError, ValueError) as why:
        print(f"hook_receiver: {directory}/secret: {why}", file=sys.stderr)
        return None


def check_signature(headers, body, directory):
    """(True, None) if the request is signed with DIR/secret, else
    (False, why)."""
    stamp = headers.get("X-BufferTime-Timestamp")
    sig = headers.get("X-BufferTime-Signature")
    if stamp is None or sig is None:
        return False, "no X-BufferTime-Timestamp or X-BufferTime-Signature"
    if not sig.startswith("sha256="):
        return False, "the signature does not start with sha256="
    keys = read_secret(directory)
    if keys is None:
        return False, "DIR/secret is missing or not hex"
    given = sig[len("sha256="):].strip().lower().encode("latin-1")
    if hmac.compare_digest(hmac_hex(keys[0], stamp, body), given):
        return True, None
    if hmac.compare_digest(hmac_hex(keys[1], stamp, body), given):
        return False, "signed with the hex text as the key, not the 32 bytes it spells"
    return False, "the signature does not match"


def kind_of(path):
    """ok, slack, json, slow, fail, gone, big, or None (404)."""
    parts = path.split("?", 1)[0].split("/")
    if len(parts) < 3 or parts[0] != "":
        return None
    if parts[1] == "ok" and parts[2].startswith("slack"):
        return "slack"
    return parts[1] if parts[1] in STATUS or parts[1] == "json" else None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.guarded(self.post)

    def do_GET(self):
        self.guarded(lambda: self.answer(404, b"not found\n"))

    do_HEAD = do_PUT = do_DELETE = do_PATCH = do_GET

    def guarded(self, work):
        try:
            work()
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception:
            traceback.print_exc()
            self.close_connection = True
            try:
                self.answer(500, b"internal error\n")
            except OSError:
                pass

    def answer(self, status, data=b"", length=None):
        self.send_response(status)
        if data or length:
            self.send_header("Content-Type", "text/plain; charset=utf-8")
        if status != 204:
            self.send_header("Content-Length", str(len(data) if length is None else length))
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)

    def read_body(self):
        """The body, or None once answered 400, 411 or 413."""
        length = self.headers.get("Content-Length", "0").strip()
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            status = 411
        elif not length.isdigit():
            status = 400
        elif int(length) > BODY_MAX:
            status = 413
        else:
            return self.rfile.read(int(length))
        self.close_connection = True
        self.answer(status, b"bad Content-Length\n")
        return None

    def entry(self, arrived, body):
        headers = {}
        for name, value in self.headers.items():
            name = name.lower()
            headers[name] = headers[name] + ", " + value if name in headers else value
        ctype = self.headers.get("Content-Type")
        return {"path": self.path, "ctype": ctype, "headers": headers,
                "body": body.decode("utf-8", errors="replace"),
                "valid_json": valid_json(ctype, body), "t": arrived}

    def post(self):
        arrived = time.time()
        body = self.read_body()
        if body is None:
            return
        kind = kind_of(self.path)
        entry = self.entry(arrived, body)
        if kind == "json":
            ok, why = check_signature(self.headers, body, self.server.directory)
            entry["signature_ok"] = ok
            if why:
                entry["signature_why"] = why
            status = 204 if ok else 401
        else:
            status = 200 if kind == "slack" else STATUS.get(kind, 404)
        entry["status"] = status
        append(os.path.join(self.server.directory, "requests.log"), entry)
        self.respond(kind, status)

    def respond(self, kind, status):
        if kind == "slow":
            time.sleep(SLOW_S)
        if kind == "slack":
            self.answer(200, b"ok")
        elif kind == "big":
            self.answer_big()
        elif status == 204:
            self.answer(204)
        else:
            self.answer(status, (self.responses[status][0] + "\n").encode())

    def answer_big(self):
        self.close_connection = True
        self.answer(200, length=BIG)
        chunk = b"x" * (CHUNK - 1) + b"\n"
        for _ in range(BIG // CHUNK):
            self.wfile.write(chunk)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: hook_receiver.py DIR")
    serve(argv[1], Handler)


if __name__ == "__main__":
    main(sys.argv)
