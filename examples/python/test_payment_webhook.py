"""A paid payment link, its signed webhook, and a retry fired by moving the manual clock.

Run under the emulator with a manual clock (nothing is delivered until the suite moves it):
    npx svc emulator exec --clock manual -- python3 -m unittest discover -s examples/python
"""

import os
import queue
import unittest

from delivery_stream import DeliveryStream
from svc_client import SvcClient
from webhook_receiver import WebhookReceiver

# Every wait is bounded: a delivery that never comes fails the test instead of hanging it.
WAIT_SECONDS = 15


class PaymentWebhookTest(unittest.TestCase):
    def setUp(self):
        self.svc = SvcClient.from_env()
        clock = self.svc.control("GET", "/clock")
        self.assertEqual(clock["mode"], "manual", "start the emulator with --clock manual (SVC_CLOCK=manual in a container): this test moves the clock itself")
        # Answer 500 to the first attempt of each delivery, so the service has to retry.
        self.receiver = WebhookReceiver(fail_first_attempts=1).start()
        self.addCleanup(self.receiver.stop)
        self.stream = DeliveryStream(self.svc.base_url, self.svc.api_key, ["payment.completed"], self.svc.control_headers())
        self.addCleanup(self.stream.close)

    def test_paid_link_sends_a_signed_webhook_and_retries_after_a_500(self):
        # EXAMPLE_WEBHOOK_URL: the address the service should call when something (a tunnel,
        # a reverse proxy) forwards to this receiver; by default the receiver's own address.
        url = os.environ.get("EXAMPLE_WEBHOOK_URL") or self.receiver.url
        created = self.svc.post("/v1/api/webhook-endpoints", {"url": url, "events": ["payment.completed"]})
        self.receiver.secret = created["secret"]  # returned once: keep it where the receiver reads it

        link = self.svc.create_payment_link(title="Order 1042", amount=1250, currency="USD")
        self.assertEqual(link["status"], "pending")
        # The sandbox's way to pay a link: settles a payment and fires a real webhook.
        payment = self.svc.post("/v1/api/payment-links/%s/simulate" % link["id"], {"outcome": "completed"})
        self.assertEqual(payment["status"], "completed")

        # The spec's delays are 1 s, 5 s, 25 s...: the first attempt goes out 1 s after the event.
        self.svc.control("POST", "/clock/advance", {"by": "1s"})
        first = self._next_delivery()
        self.assert_signature_verified(first)
        self.assertEqual(first.answered, 500)
        self.assertEqual(first.event_type, "payment.completed")
        self.assertEqual(first.payload["type"], "payment.completed")
        self.assertEqual(first.payload["data"]["payment"]["id"], payment["id"])
        self.assertEqual(first.payload["data"]["link"]["id"], link["id"])

        # Wait until the emulator has recorded the failed attempt: only then is the retry scheduled.
        failed = self.stream.wait_for_attempt(WAIT_SECONDS, delivery_id=first.delivery_id, attempt=1)
        self.assertEqual((failed["status_code"], failed["delivery_status"]), (500, "failed"))

        # The second attempt is due 5 s after the first one failed.
        self.svc.control("POST", "/clock/advance", {"by": "5s"})
        second = self._next_delivery()
        self.assert_signature_verified(second)  # signed again for this attempt
        self.assertEqual(second.delivery_id, first.delivery_id)  # same Svc-Delivery across retries
        self.assertEqual(second.body, first.body)  # byte for byte the same event
        self.assertEqual(second.answered, 200)
        succeeded = self.stream.wait_for_attempt(WAIT_SECONDS, delivery_id=first.delivery_id, attempt=2)
        self.assertEqual((succeeded["status_code"], succeeded["delivery_status"]), (200, "succeeded"))

        # The read endpoint agrees with the webhook (reconciliation after a missed event).
        self.assertEqual(self.svc.get("/v1/api/payments/%s" % payment["id"])["status"], "completed")

    def assert_signature_verified(self, delivery):
        self.assertTrue(delivery.verified, "Svc-Signature did not verify (%s): %s" % (delivery.rejection, delivery.signature))

    def _next_delivery(self):
        try:
            return self.receiver.next_delivery(WAIT_SECONDS)
        except queue.Empty:
            self.fail("no webhook delivery arrived within %d s" % WAIT_SECONDS)


if __name__ == "__main__":
    unittest.main()
