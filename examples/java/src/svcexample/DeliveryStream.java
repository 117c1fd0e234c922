package svcexample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The emulator's live stream (GET /emulator/stream, Server-Sent Events), read on a thread.
 *
 * <p>The emulator records each webhook attempt (status code, the delivery's new status) once the
 * receiver has answered. A test that moves the clock to the retry must wait until the failed
 * attempt is recorded, not just until the receiver answered: the stream's {@code attempt}
 * message is that signal.
 */
final class DeliveryStream implements AutoCloseable {
    private record Message(String kind, Object data) {}

    private final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
    private final InputStream body;

    DeliveryStream(SvcClient svc, String types) throws IOException, InterruptedException {
        // from=start: replay what is already stored, so nothing recorded before we opened is missed.
        String query = "?from=start&types=" + URLEncoder.encode(types, StandardCharsets.UTF_8);
        HttpResponse<InputStream> res = svc.http.send(
                svc.controlHeaders(svc.request("/emulator/stream" + query)).timeout(Duration.ofDays(1)).header("Authorization", "Bearer " + svc.apiKey).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (res.statusCode() != 200) {
            String text = new String(res.body().readNBytes(300), StandardCharsets.UTF_8);
            res.body().close();
            throw new IllegalStateException("stream answered " + res.statusCode() + ": " + text);
        }
        body = res.body();
        // A daemon: it ends with the stream (closed, or the emulator stopped) or with the JVM.
        Thread reader = new Thread(this::read, "delivery-stream");
        reader.setDaemon(true);
        reader.start();
    }

    /** The first {@code attempt} message for this delivery and attempt number; fails after {@code timeout}. */
    Object waitForAttempt(Duration timeout, String deliveryId, long attempt) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            Message m = messages.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (m == null) throw new AssertionError("the emulator recorded no attempt " + attempt + " of " + deliveryId + " within " + timeout.toSeconds() + " s");
            if (m.kind().equals("attempt") && Objects.equals(Json.at(m.data(), "delivery_id"), deliveryId) && Objects.equals(Json.at(m.data(), "attempt"), attempt)) {
                return m.data();
            }
        }
    }

    @Override
    public void close() throws IOException {
        body.close();
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String kind = null;
            StringBuilder data = new StringBuilder();
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.startsWith("event:")) {
                    kind = line.substring(6).trim();
                } else if (line.startsWith("data:")) {
                    data.append(data.length() > 0 ? "\n" : "").append(line.substring(5).trim());
                } else if (line.isEmpty() && kind != null) {
                    messages.add(new Message(kind, Json.parse(data.toString())));
                    kind = null;
                    data.setLength(0);
                }
            }
        } catch (IOException e) {
            // the stream ended (closed by us, or the emulator stopped)
        }
    }
}
