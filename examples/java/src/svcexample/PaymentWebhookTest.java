package svcexample;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A paid payment link, its signed webhook, and a retry fired by moving the manual clock.
 * Needs {@code svc emulator exec --clock manual}: nothing is delivered until the test moves it.
 */
final class PaymentWebhookTest {
    /** Every wait is bounded: a delivery that never comes fails the test instead of hanging it. */
    static final Duration WAIT = Duration.ofSeconds(15);

    private final SvcClient svc = SvcClient.fromEnv();

    @Test
    void paidLinkSendsASignedWebhookAndRetriesAfterA500() throws Exception {
        Check.equal("manual", svc.control("GET", "/clock", null).get("mode"), "the emulator's clock mode (start it with --clock manual, or SVC_CLOCK=manual in a container: this test moves the clock itself)");
        // Answer 500 to the first attempt of each delivery, so the service has to retry.
        try (WebhookReceiver receiver = new WebhookReceiver(1);
             DeliveryStream stream = new DeliveryStream(svc, "payment.completed")) {
            // EXAMPLE_WEBHOOK_URL: the address the service should call when something (a tunnel,
            // a reverse proxy) forwards to this receiver; by default the receiver's own address.
            String url = System.getenv().getOrDefault("EXAMPLE_WEBHOOK_URL", receiver.url());
            Map<String, Object> created = svc.post("/v1/api/webhook-endpoints", Map.of("url", url, "events", List.of("payment.completed")));
            receiver.secret = Json.string(created, "secret"); // returned once: keep it where the receiver reads it

            Map<String, Object> link = svc.createPaymentLink(Map.of("title", "Order 1042", "amount", 1250, "currency", "USD"));
            Check.equal("pending", link.get("status"), "new link status");
            // The sandbox's way to pay a link: settles a payment and fires a real webhook.
            Map<String, Object> payment = svc.post("/v1/api/payment-links/" + link.get("id") + "/simulate", Map.of("outcome", "completed"));
            Check.equal("completed", payment.get("status"), "simulated payment status");

            // The spec's delays are 1 s, 5 s, 25 s...: the first attempt goes out 1 s after the event.
            svc.control("POST", "/clock/advance", Map.of("by", "1s"));
            WebhookReceiver.Received first = receiver.next(WAIT);
            assertSignatureVerified(first);
            Check.equal(500, first.answered(), "status answered to the first attempt");
            Check.equal("payment.completed", first.eventType(), "Svc-Event");
            Check.equal("payment.completed", Json.at(first.payload(), "type"), "envelope type");
            Check.equal(payment.get("id"), Json.at(first.payload(), "data", "payment", "id"), "data.payment.id");
            Check.equal(link.get("id"), Json.at(first.payload(), "data", "link", "id"), "data.link.id");

            // Wait until the emulator has recorded the failed attempt: only then is the retry scheduled.
            Object failed = stream.waitForAttempt(WAIT, first.deliveryId(), 1);
            Check.equal(500L, Json.at(failed, "status_code"), "recorded status of attempt 1");
            Check.equal("failed", Json.at(failed, "delivery_status"), "delivery status after attempt 1");

            // The second attempt is due 5 s after the first one failed.
            svc.control("POST", "/clock/advance", Map.of("by", "5s"));
            WebhookReceiver.Received second = receiver.next(WAIT);
            assertSignatureVerified(second); // signed again for this attempt
            Check.equal(first.deliveryId(), second.deliveryId(), "Svc-Delivery across retries");
            Check.isTrue(Arrays.equals(first.body(), second.body()), "the retry carries the same body, byte for byte");
            Check.equal(200, second.answered(), "status answered to the retry");
            Object succeeded = stream.waitForAttempt(WAIT, first.deliveryId(), 2);
            Check.equal(200L, Json.at(succeeded, "status_code"), "recorded status of attempt 2");
            Check.equal("succeeded", Json.at(succeeded, "delivery_status"), "delivery status after attempt 2");

            // The read endpoint agrees with the webhook (reconciliation after a missed event).
            Check.equal("completed", svc.get("/v1/api/payments/" + payment.get("id")).get("status"), "payment read back");
        }
    }

    private static void assertSignatureVerified(WebhookReceiver.Received delivery) {
        Check.isTrue(delivery.verified(), "Svc-Signature did not verify (" + delivery.rejection() + "): " + delivery.signature());
    }
}
