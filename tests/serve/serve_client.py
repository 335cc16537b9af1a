"""
tests/serve/serve_client.py
A small client of `cairn serve` for the tests (stdlib only): starts the
server on a free loopback port with its console on a pipe, reads the seats'
links, and speaks HTTP to 127.0.0.1 only. Every wait is bounded in time.
"""
import http.client
import json
import os
import re
import socket
import subprocess
import threading
import time

HOST = "127.0.0.1"  # the tests talk to this machine's loopback only


class Server:
    def __init__(self, cairn, args, seats_expected, timeout=20.0):
        self.proc = subprocess.Popen([cairn, "serve"] + args + ["--port", "0", "--bind", HOST],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.out = []
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.links = {}
        deadline = time.time() + timeout
        while time.time() < deadline and len(self.links) < seats_expected:
            with self.lock:
                text = "".join(self.out)
            for m in re.finditer(r"Seat (\d+)[^\n]*?: (http://127\.0\.0\.1:(\d+)/s/([0-9a-f]{32}))", text):
                self.links[int(m.group(1))] = m.group(2)
                self.port = int(m.group(3))
            time.sleep(0.05)
        if len(self.links) < seats_expected:
            self.stop()
            raise AssertionError("cairn serve printed %d links, expected %d:\n%s" %
                                 (len(self.links), seats_expected, "".join(self.out)))

    def _read(self):
        for line in iter(self.proc.stdout.readline, b""):
            with self.lock:
                self.out.append(line.decode("utf-8", "replace"))

    def console(self, line):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def output(self):
        with self.lock:
            return "".join(self.out)

    def path(self, seat, rest=""):
        return "/s/" + self.links[seat].rsplit("/", 1)[1] + rest

    def request(self, method, path, body=None, headers=None, timeout=15.0):
        c = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        finally:
            c.close()

    def raw(self, data, timeout=5.0):
        """Sends bytes as they are (no client-side URL cleaning) and returns the answer."""
        s = socket.create_connection((HOST, self.port), timeout=timeout)
        try:
            s.sendall(data)
            chunks = []
            end = time.time() + timeout
            while time.time() < end:
                try:
                    b = s.recv(65536)
                except socket.timeout:
                    break
                if not b:
                    break
                chunks.append(b)
            return b"".join(chunks)
        finally:
            s.close()

    def state(self, seat, patient=False, cols=None):
        """The seat's state (the parsed JSON and its bytes). patient: wait out the
        per-token rate limit (429), for a check that polls while the seat's page polls
        too and shares the token's CAIRN_SERVE_RATE_PER_SECOND with it. cols: the
        width the page asks the board drawn at (`?cols=`, as the page sends it)."""
        rest = "/state" if cols is None else "/state?cols=" + str(cols)
        for _ in range(50 if patient else 1):
            st, _, body = self.request("GET", self.path(seat, rest))
            if st != 429 or not patient:
                break
            time.sleep(0.2)
        assert st == 200, "state of seat %d: HTTP %d %r" % (seat, st, body[:200])
        return json.loads(body), body

    def answer(self, seat, msg):
        st, _, body = self.request("POST", self.path(seat, "/answer"), json.dumps(msg).encode(),
                                   {"Content-Type": "application/json"})
        assert st == 200, "answer of seat %d: HTTP %d %r" % (seat, st, body[:200])
        return json.loads(body), body

    def stop(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)


class Events:
    """One seat's event stream, read on a thread for at most `seconds`."""

    def __init__(self, server, seat, seconds, last_id=None):
        self.events = []
        self.raw = []
        self.sock = socket.create_connection((HOST, server.port), timeout=1.0)
        hdr = "GET %s HTTP/1.0\r\nHost: %s\r\nAccept: text/event-stream\r\n" % (server.path(seat, "/events"), HOST)
        if last_id is not None:
            hdr += "Last-Event-ID: %s\r\n" % last_id
        self.sock.sendall((hdr + "\r\n").encode())
        self.until = time.time() + seconds
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        buf = b""
        while time.time() < self.until:
            try:
                b = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            if not b:
                break
            self.raw.append(b)
            buf += b
            while b"\n\n" in buf:
                ev, buf = buf.split(b"\n\n", 1)
                data = [l[6:] for l in ev.split(b"\n") if l.startswith(b"data: ")]
                ids = [l[4:] for l in ev.split(b"\n") if l.startswith(b"id: ")]
                if data:
                    self.events.append((ids[0].decode() if ids else None, b"\n".join(data)))

    def close(self):
        self.until = 0
        try:
            self.sock.close()
        except OSError:
            pass
        self.thread.join(timeout=3)
