"""loopback_http.py - what the tests' little HTTP servers on loopback
share (push_service.py, hook_receiver.py): one JSON line appended to a
log per request, and serving on a port the system chooses, written to
DIR/port once listening, until SIGTERM or SIGINT (exit 0)."""
import json
import os
import signal
import sys
import threading
from http.server import ThreadingHTTPServer

_write_lock = threading.Lock()


def append(path, entry):
    """entry as one JSON line at the end of path, in one write()."""
    data = (json.dumps(entry, ensure_ascii=False) + "\n").encode()
    with _write_lock:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """Quiet when a client hangs up between requests."""
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def _stop(signum, frame):
    sys.exit(0)


def _write_port(directory, port):
    tmp = os.path.join(directory, "port.tmp")
    with open(tmp, "w") as f:
        f.write(f"{port}\n")
    os.replace(tmp, os.path.join(directory, "port"))


def serve(directory, handler):
    """Serves handler (a BaseHTTPRequestHandler class) on 127.0.0.1; the
    server's .directory is directory."""
    try:
        os.remove(os.path.join(directory, "port"))
    except FileNotFoundError:
        pass
    server = Server(("127.0.0.1", 0), handler)
    server.directory = directory
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    _write_port(directory, server.server_address[1])
    try:
        server.serve_forever()
    finally:
        server.server_close()
