package svcexample;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A webhook receiver on its own HTTP server (the JDK's com.sun.net.httpserver), the way a
 * merchant's app receives deliveries.
 *
 * <p>Every request is checked against the endpoint secret from the raw body bytes before anything
 * else; a delivery that does not verify is answered 400 and never parsed. Each request is put on
 * a queue (verified or not), so a test waits on the queue instead of sleeping.
 * {@code failFirstAttempts} makes it answer 500 to the first N verified attempts of each
 * delivery, which is how a test makes the sender retry.
 */
final class WebhookReceiver implements AutoCloseable {
    static final String PATH = "/webhooks";
    private static final int MAX_BODY_BYTES = 1024 * 1024;

    /** One request as received, with the verdict and the status answered. */
    record Received(String deliveryId, String eventType, String signature, byte[] body, boolean verified, String rejection, int answered, Object payload) {}

    /** Known only once the endpoint is registered (the API returns it once); set it then. */
    volatile String secret;

    private final int failFirstAttempts;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final Map<String, Integer> verifiedAttempts = new HashMap<>();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "webhook-receiver");
        t.setDaemon(true);
        return t;
    });

    WebhookReceiver(int failFirstAttempts) throws IOException {
        this.failFirstAttempts = failFirstAttempts;
        // Another host (the emulator in its own container) needs the receiver on a reachable
        // address: EXAMPLE_RECEIVER_BIND=0.0.0.0 EXAMPLE_RECEIVER_NAME=tests (its compose name).
        String bind = System.getenv("EXAMPLE_RECEIVER_BIND");
        int port = Integer.parseInt(System.getenv().getOrDefault("EXAMPLE_RECEIVER_PORT", "0"));
        server = HttpServer.create(bind == null ? new InetSocketAddress(InetAddress.getLoopbackAddress(), port) : new InetSocketAddress(bind, port), 0);
        server.createContext(PATH, this::handle);
        server.setExecutor(executor);
        server.start();
        System.err.println("webhook receiver listening on " + url());
    }

    String url() {
        InetSocketAddress a = server.getAddress();
        String name = System.getenv("EXAMPLE_RECEIVER_NAME");
        return "http://" + (name != null ? name : a.getAddress().getHostAddress()) + ":" + a.getPort() + PATH;
    }

    /** The next request received; fails the test after {@code timeout}. */
    Received next(Duration timeout) throws InterruptedException {
        Received r = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) throw new AssertionError("no webhook delivery arrived within " + timeout.toSeconds() + " s");
        return r;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().equals(PATH)) {
                answer(exchange, 404);
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readNBytes(MAX_BODY_BYTES + 1);
            }
            if (body.length > MAX_BODY_BYTES) {
                answer(exchange, 413);
                return;
            }
            Received r = judge(exchange.getRequestHeaders().getFirst("Svc-Delivery"), exchange.getRequestHeaders().getFirst("Svc-Event"),
                    exchange.getRequestHeaders().getFirst("Svc-Signature"), body);
            // Answer first, then report: the test may act on the report at once.
            answer(exchange, r.answered());
            received.add(r);
        }
    }

    private Received judge(String deliveryId, String eventType, String signature, byte[] body) {
        String key = secret;
        if (key == null) return new Received(deliveryId, eventType, signature, body, false, "no secret yet: the endpoint is not registered", 503, null);
        try {
            WebhookSignature.verify(key, signature, body);
        } catch (WebhookSignature.SignatureException e) {
            return new Received(deliveryId, eventType, signature, body, false, e.reason + ": " + e.getMessage(), 400, null);
        }
        // Only now is the body trusted enough to parse.
        Object payload = Json.parse(new String(body, StandardCharsets.UTF_8));
        int attempts;
        synchronized (verifiedAttempts) {
            attempts = verifiedAttempts.merge(deliveryId, 1, Integer::sum);
        }
        if (attempts <= failFirstAttempts) return new Received(deliveryId, eventType, signature, body, true, null, 500, payload);
        // A real app acts here, once per Svc-Delivery (delivery is at least once), then answers 2xx.
        return new Received(deliveryId, eventType, signature, body, true, null, 200, payload);
    }

    private static void answer(HttpExchange exchange, int status) throws IOException {
        byte[] text = (status < 300 ? "ok" : "rejected").getBytes(StandardCharsets.US_ASCII);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(status, text.length);
        exchange.getResponseBody().write(text);
    }
}
