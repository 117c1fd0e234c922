"""A webhook receiver on its own HTTP server, the way a merchant's app receives deliveries.

Every request is checked against the endpoint secret from the raw body bytes before anything
else; a delivery that does not verify is answered 400 and never parsed. Each request the
receiver saw is put on ``received`` (verified or not), so a test waits on that queue instead of
sleeping. ``fail_first_attempts`` makes the receiver answer 500 to the first N verified attempts
of each delivery, which is how a test makes the sender retry.
"""

import json
import os
import queue
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional

from webhook_signature import SignatureError, verify_signature

PATH = "/webhooks"
MAX_BODY_BYTES = 1024 * 1024


@dataclass
class ReceivedDelivery:
    delivery_id: Optional[str]
    event_type: Optional[str]
    signature: Optional[str]
    body: bytes
    verified: bool
    # Why the signature was rejected (None when it verified).
    rejection: Optional[str]
    # The status this receiver answered.
    answered: int
    payload: Optional[dict] = field(default=None)


class WebhookReceiver:
    def __init__(self, fail_first_attempts=0):
        # Known only once the endpoint is registered (the API returns it once); set it then.
        self.secret = None
        self.fail_first_attempts = fail_first_attempts
        self.received = queue.Queue()
        self._lock = threading.Lock()
        self._verified_attempts = {}
        # Another host (the emulator in its own container) needs the receiver on a reachable
        # address: EXAMPLE_RECEIVER_BIND=0.0.0.0 EXAMPLE_RECEIVER_NAME=tests (its compose name).
        self._bind = os.environ.get("EXAMPLE_RECEIVER_BIND", "127.0.0.1")
        self._name = os.environ.get("EXAMPLE_RECEIVER_NAME")
        self._server = ThreadingHTTPServer((self._bind, int(os.environ.get("EXAMPLE_RECEIVER_PORT", "0"))), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="webhook-receiver", daemon=True)

    @property
    def url(self):
        host, port = self._server.server_address[:2]
        return "http://%s:%d%s" % (self._name or host, port, PATH)

    def start(self):
        self._thread.start()
        print("webhook receiver listening on %s" % self.url, file=sys.stderr, flush=True)
        return self

    def stop(self):
        self._server.shutdown()
        self._server.server_close()

    def next_delivery(self, timeout):
        """The next request received; fails (queue.Empty) after ``timeout`` seconds."""
        return self.received.get(timeout=timeout)

    def _handle(self, headers, body):
        """Returns the status to answer and what was received."""
        delivery_id = headers.get("Svc-Delivery")
        event_type = headers.get("Svc-Event")
        signature = headers.get("Svc-Signature")

        def record(status, verified, rejection=None, payload=None):
            return status, ReceivedDelivery(delivery_id, event_type, signature, body, verified, rejection, status, payload)

        if self.secret is None:
            return record(503, False, "no secret yet: the endpoint is not registered")
        try:
            verify_signature(self.secret, signature, body)
        except SignatureError as err:
            return record(400, False, "%s: %s" % (err.reason, err))
        # Only now is the body trusted enough to parse.
        payload = json.loads(body)
        with self._lock:
            attempts = self._verified_attempts.get(delivery_id, 0) + 1
            self._verified_attempts[delivery_id] = attempts
            if attempts <= self.fail_first_attempts:
                return record(500, True, payload=payload)
        # A real app acts here, once per Svc-Delivery (delivery is at least once), then answers 2xx.
        return record(200, True, payload=payload)

    def _handler_class(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = self.headers.get("Content-Length")
                if self.path != PATH:
                    return self._answer(404)
                if length is None or not length.isdigit() or int(length) > MAX_BODY_BYTES:
                    return self._answer(411 if length is None else 413)
                body = self.rfile.read(int(length))
                status, delivery = receiver._handle(self.headers, body)
                # Answer first, then report: the test may act on the report at once.
                self._answer(status)
                receiver.received.put(delivery)

            def _answer(self, status):
                text = b"ok" if status < 300 else b"rejected"
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

            def log_message(self, format, *args):
                pass  # quiet: the test output says what matters

        return Handler
