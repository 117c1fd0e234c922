"""The emulator's live stream (GET /emulator/stream, Server-Sent Events), read on a thread.

The emulator records each webhook attempt (status code, the delivery's new status) once the
receiver has answered. A test that wants to move the clock to the retry must wait until the
failed attempt is recorded, not just until the receiver answered: the stream's ``attempt``
message is that signal.
"""

import http.client
import json
import queue
import socket
import threading
import time
import urllib.parse


class DeliveryStream:
    def __init__(self, base_url, api_key, types, extra_headers=None):
        url = urllib.parse.urlsplit(base_url)
        self._conn = http.client.HTTPConnection(url.hostname, url.port, timeout=15)
        # from=start: replay what is already stored, so nothing recorded before we opened is missed.
        query = urllib.parse.urlencode({"from": "start", "types": ",".join(types)})
        self._conn.request("GET", "/emulator/stream?" + query, headers=dict(extra_headers or {}, Authorization="Bearer " + api_key))
        response = self._conn.getresponse()
        if response.status != 200:
            raise RuntimeError("stream answered %d: %s" % (response.status, response.read()[:200]))
        self._conn.sock.settimeout(None)  # the stream is quiet between messages; the waits have timeouts
        self._response = response
        self.messages = queue.Queue()
        self._thread = threading.Thread(target=self._read, name="delivery-stream", daemon=True)
        self._thread.start()

    def wait_for_attempt(self, timeout, **expected):
        """The first ``attempt`` message whose data has every ``expected`` field; fails after ``timeout`` s."""
        deadline = _Deadline(timeout)
        while True:
            kind, data = self.messages.get(timeout=deadline.left())
            if kind == "attempt" and all(data.get(k) == v for k, v in expected.items()):
                return data

    def close(self):
        # Shut the socket so the reader's blocked readline returns, let the reader end, then close.
        try:
            self._conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._thread.join(timeout=5)
        self._conn.close()

    def _read(self):
        kind, data = None, []
        try:
            while True:
                line = self._response.readline()
                if not line:
                    return
                line = line.decode("utf-8").rstrip("\r\n")
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line == "" and kind is not None:
                    self.messages.put((kind, json.loads("\n".join(data))))
                    kind, data = None, []
        except (OSError, ValueError, http.client.HTTPException):
            return  # the stream ended (closed by us, or the emulator stopped)


class _Deadline:
    def __init__(self, seconds):
        self._end = time.monotonic() + seconds

    def left(self):
        left = self._end - time.monotonic()
        if left <= 0:
            raise queue.Empty
        return left
