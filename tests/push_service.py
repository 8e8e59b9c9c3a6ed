#!/usr/bin/env python3
"""push_service.py - a Web Push service on loopback for the integration
tests: it takes what the server under test pushes to a browser, checks it
as a real push service and the browser would (RFC 8030 headers, the VAPID
header of RFC 8292, the aes128gcm body of RFC 8291) with
tests/webpush_check.py, and writes what came to a log a test can read.

  push_service.py keys DIR NAME   makes browser NAME's key pair and auth
                                  secret, keeps "PRIVATE AUTH" in
                                  DIR/keys/NAME, prints "P256DH AUTH" (as a
                                  browser's subscription gives them)
  push_service.py DIR             serves on 127.0.0.1, a port the system
                                  chooses, written to DIR/port once
                                  listening; until SIGTERM (exit 0)

Endpoints (NAME: [A-Za-z0-9_-]{1,40}), each request's body read first:
  POST /push/NAME     201 and Location: /msg/N if it checks out, else 400
                      and one line saying why; DIR/NAME.log gets
                      {"n", "ttl", "urgency", "topic", "sub", "message"}
                      or {"error": why}
  POST /slow/NAME     the same after 6 seconds
  POST /gone/NAME     410 ({"answered": 410, "gone": true})
  POST /missing/NAME  404, /busy/NAME 429 (Retry-After: 1), /fail/NAME 500
                      ({"answered": STATUS})
  anything else       404; a body over 64 KiB 413
"""
import json
import os
import re
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webpush_check as wp  # noqa: E402
from loopback_http import append, serve  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

NAME = r"[A-Za-z0-9_-]{1,40}"
ROUTE = re.compile(r"/(push|slow|gone|missing|busy|fail)/(" + NAME + r")")
BODY_MAX = 65536            # bytes of a request read at all
PUSH_MAX = 4096             # bytes of a push message's body (RFC 8030)
SLOW_S = 6
CANNED = {"gone": 410, "missing": 404, "busy": 429, "fail": 500}

count_lock = threading.Lock()
count = 0


class Refused(Exception):
    """A request answered with an error status; str() is why."""

    def __init__(self, status, why):
        super().__init__(why)
        self.status = status


def one_line(text):
    return " ".join(str(text).split())



def next_n():
    global count
    with count_lock:
        count += 1
        return count


def make_keys(directory, name):
    if not re.fullmatch(NAME, name):
        sys.exit(f"push_service: a name is {NAME}: {name}")
    key = ec.generate_private_key(ec.SECP256R1())
    private = wp.b64e(key.private_numbers().private_value.to_bytes(32, "big"))
    auth = wp.b64e(os.urandom(16))
    os.makedirs(os.path.join(directory, "keys"), exist_ok=True)
    with open(os.path.join(directory, "keys", name), "w") as f:
        f.write(f"{private} {auth}\n")
    print(wp.b64e(wp.point(key)), auth)


def read_keys(directory, name):
    try:
        with open(os.path.join(directory, "keys", name)) as f:
            private, auth = f.read().split()
    except (OSError, ValueError):
        raise wp.CheckError(f"no keys for browser {name} (push_service.py keys)") from None
    return private, auth


def check_headers(headers):
    """The TTL, once Content-Encoding and TTL are checked."""
    coding = headers.get("Content-Encoding")
    if coding is None or coding.strip().lower() != "aes128gcm":
        raise wp.CheckError(f"Content-Encoding is not aes128gcm: {coding}")
    ttl = headers.get("TTL")
    if ttl is None or not re.fullmatch(r"[0-9]+", ttl.strip()):
        raise wp.CheckError(f"TTL is not an integer >= 0: {ttl}")
    return int(ttl)


def step(what, work, *args):
    """work(*args), any exception but CheckError made one saying what."""
    try:
        return work(*args)
    except wp.CheckError:
        raise
    except Exception as why:
        raise wp.CheckError(f"{what}: {type(why).__name__}: {why}") from None


def check_push(headers, body, directory, origin, name):
    """The log entry of a push (without its n); CheckError if anything
    in it is wrong."""
    ttl = check_headers(headers)
    if headers.get("Authorization") is None:
        raise wp.CheckError("no Authorization header")
    claims = step("a VAPID header that does not parse", wp.vapid_claims,
                  headers["Authorization"], f"{origin}/push/{name}", int(time.time()))
    if len(body) > PUSH_MAX:
        raise wp.CheckError(f"a body of {len(body)} bytes, over {PUSH_MAX}")
    private, auth = read_keys(directory, name)
    message = step("a body that is not aes128gcm", wp.open_record, private, auth, body)
    return {"ttl": ttl, "urgency": headers.get("Urgency"),
            "topic": headers.get("Topic"), "sub": claims.get("sub"),
            "message": message}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.guarded(self.post)

    def do_GET(self):
        self.guarded(lambda: self.answer(404, "not found"))

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
                self.answer(500, "internal error")
            except OSError:
                pass

    def answer(self, status, text="", headers=()):
        data = (text + "\n").encode() if text else b""
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if data:
            self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            raise Refused(411, "a chunked body: send Content-Length")
        length = self.headers.get("Content-Length", "0").strip()
        if not length.isdigit():
            raise Refused(400, f"Content-Length is not a number: {length}")
        if int(length) > BODY_MAX:
            raise Refused(413, f"a body of {length} bytes, over {BODY_MAX}")
        return self.rfile.read(int(length))

    def log_path(self, name):
        return os.path.join(self.server.directory, name + ".log")

    def post(self):
        route = ROUTE.fullmatch(self.path)
        try:
            body = self.read_body()
        except Refused as why:
            self.close_connection = True
            if route:
                append(self.log_path(route[2]), {"error": str(why), "answered": why.status})
            self.answer(why.status, str(why))
            return
        if not route:
            self.answer(404, "not found")
        elif route[1] in CANNED:
            self.canned(route[1], route[2])
        else:
            if route[1] == "slow":
                time.sleep(SLOW_S)
            self.push(route[2], body)

    def canned(self, kind, name):
        status = CANNED[kind]
        entry = {"answered": status}
        if kind == "gone":
            entry["gone"] = True
        append(self.log_path(name), entry)
        headers = [("Retry-After", "1")] if status == 429 else []
        self.answer(status, self.responses[status][0], headers)

    def push(self, name, body):
        origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        try:
            entry = check_push(self.headers, body, self.server.directory, origin, name)
        except wp.CheckError as why:
            reason = one_line(why)
            append(self.log_path(name), {"error": reason})
            self.answer(400, reason)
            return
        n = next_n()
        append(self.log_path(name), {"n": n, **entry})
        self.answer(201, headers=[("Location", f"/msg/{n}")])


def main(argv):
    if argv[1:2] == ["keys"] and len(argv) == 4:
        make_keys(argv[2], argv[3])
    elif len(argv) == 2:
        serve(argv[1], Handler)
    else:
        sys.exit("usage: push_service.py DIR | push_service.py keys DIR NAME")


if __name__ == "__main__":
    main(sys.argv)
