#!/usr/bin/env python3
"""Requests wrk cannot make, sent beside it for the length of a load run: bodies streamed past
the upload cap (chunked, and announced by Content-Length), and slow senders of a request body and
of a request head, which the server must cut within its timeout. Loopback only.

usage: abuse.py HOST:PORT SECONDS TIMEOUT_MS LIMIT_BYTES   (prints one LOAD_ABUSE JSON line)
"""
import json
import socket
import sys
import threading
import time

HOST, PORT = sys.argv[1].rsplit(":", 1)
PORT = int(PORT)
SECONDS = float(sys.argv[2])
TIMEOUT = int(sys.argv[3]) / 1000.0
LIMIT = int(sys.argv[4])
# A cut may come this much later than the timeout (scheduling on a loaded machine).
SLACK = 2.0
if HOST not in ("127.0.0.1", "localhost", "::1"):
    sys.exit("abuse.py talks to loopback only")

lock = threading.Lock()
result = {"oversized_chunked": 0, "oversized_declared": 0, "slow_body": 0, "slow_head": 0,
          "status": {}, "uncut": 0, "slowest_cut_ms": 0, "failures": []}


def record(kind, status=None, cut_after=None, failure=None):
    with lock:
        result[kind] += 1
        if status is not None:
            key = str(status)
            result["status"][key] = result["status"].get(key, 0) + 1
        if cut_after is not None:
            result["slowest_cut_ms"] = max(result["slowest_cut_ms"], int(cut_after * 1000))
        if failure and len(result["failures"]) < 20:
            result["failures"].append(f"{kind}: {failure}")


def connect():
    s = socket.create_connection((HOST, PORT), timeout=TIMEOUT + SLACK + 30)
    return s


def read_status(s, deadline):
    """The status of the answer, or None when the server closed without one."""
    data = b""
    s.settimeout(max(0.1, deadline - time.monotonic()))
    try:
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                return None
            data += chunk
    except (ConnectionResetError, BrokenPipeError):
        return None
    return int(data.split(b" ", 2)[1])


HEAD = ("PUT /api/channels/12/voice-status HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bot bot-token\r\n"
        "Content-Type: application/json\r\n{extra}\r\n")


def oversized_chunked():
    s = connect()
    try:
        s.sendall(HEAD.format(host=HOST, extra="Transfer-Encoding: chunked\r\n").encode())
        chunk = b" " * (1 << 20)
        sent = 0
        try:
            while sent <= LIMIT + (1 << 20):
                s.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                sent += len(chunk)
            s.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered and closed before the end: that is the point
        status = read_status(s, time.monotonic() + 30)
        record("oversized_chunked", status, failure=None if status == 413 else f"answered {status}, not 413")
    finally:
        s.close()


def oversized_declared():
    s = connect()
    try:
        s.sendall(HEAD.format(host=HOST, extra=f"Content-Length: {LIMIT + 1}\r\n").encode())
        status = read_status(s, time.monotonic() + 30)
        record("oversized_declared", status, failure=None if status == 413 else f"answered {status}, not 413")
    finally:
        s.close()


def slow(kind, head, trickle):
    """Sends `head`, then `trickle` a byte every 100 ms; the server must answer or close within
    the timeout (plus slack)."""
    s = connect()
    start = time.monotonic()
    try:
        s.sendall(head)
        s.setblocking(False)
        cut = None
        for byte in trickle:
            if time.monotonic() - start > TIMEOUT + SLACK:
                break
            try:
                if s.recv(4096, socket.MSG_PEEK) is not None:
                    cut = time.monotonic() - start
                    break
            except BlockingIOError:
                pass
            except (ConnectionResetError, BrokenPipeError):
                cut = time.monotonic() - start
                break
            try:
                s.send(bytes([byte]))
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                cut = time.monotonic() - start
                break
            time.sleep(0.1)
        s.setblocking(True)
        status = read_status(s, time.monotonic() + 1) if cut is not None else None
        if cut is None:
            record(kind, failure=f"not cut within {TIMEOUT + SLACK:.1f} s")
            with lock:
                result["uncut"] += 1
        else:
            bad = status is not None and status >= 500
            record(kind, status, cut, failure=f"answered {status}" if bad else None)
    finally:
        s.close()


def slow_body():
    body = b'{"status": "' + b"x" * 4000 + b'"}'
    slow("slow_body", HEAD.format(host=HOST, extra=f"Content-Length: {len(body)}\r\n").encode(), body)


def slow_head():
    head = f"GET /api/users/@me/connections HTTP/1.1\r\nHost: {HOST}\r\n".encode()
    slow("slow_head", head, b"X-Slow: " + b"a" * 4000)


def worker(jobs):
    end = time.monotonic() + SECONDS
    i = 0
    while time.monotonic() < end:
        try:
            jobs[i % len(jobs)]()
        except OSError as e:
            record(jobs[i % len(jobs)].__name__, failure=f"connection error: {e}")
        i += 1
        # A mix, not a flood: a few oversized uploads a second beside wrk's requests.
        time.sleep(0.1)


threads = [threading.Thread(target=worker, args=([oversized_chunked, oversized_declared],)),
           threading.Thread(target=worker, args=([slow_body, slow_head],))]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("LOAD_ABUSE " + json.dumps(result, sort_keys=True))
