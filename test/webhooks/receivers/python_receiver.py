"""The Python example's webhook receiver (examples/python/webhook_receiver.py) on its own, for
`svc webhooks check` to grade: the secret from WEBHOOK_SECRET, the address printed on stdout,
and it runs until stdin closes (the test closes it, or its own exit does)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples", "python"))

from webhook_receiver import WebhookReceiver  # noqa: E402

receiver = WebhookReceiver()
receiver.secret = os.environ["WEBHOOK_SECRET"]
receiver.start()
print(receiver.url, flush=True)
sys.stdin.read()
receiver.stop()
