package svcexample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * The merchant API and the emulator's control API over {@code java.net.http}.
 *
 * <p>{@code svc emulator exec} hands the suite SVC_BASE_URL and SVC_API_KEY (a test key with every
 * scope). Merchant calls carry {@code Authorization: Bearer <key>}; control calls
 * ({@code /_emulator/...}) carry no credentials on the emulator's own machine; from another host
 * (a container) they carry {@code Svc-Control-Token: $SVC_CONTROL_TOKEN}, which {@code exec} also
 * hands over when one is in force.
 */
final class SvcClient {
    static final Duration TIMEOUT = Duration.ofSeconds(15);

    final String baseUrl;
    final String apiKey;
    final String controlToken = System.getenv("SVC_CONTROL_TOKEN");
    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1) // plain http: no h2c upgrade attempt
            .connectTimeout(TIMEOUT)
            .build();

    SvcClient(String baseUrl, String apiKey) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.apiKey = apiKey;
    }

    static SvcClient fromEnv() {
        String base = System.getenv("SVC_BASE_URL");
        String key = System.getenv("SVC_API_KEY");
        if (base == null || key == null) {
            throw new IllegalStateException("SVC_BASE_URL and SVC_API_KEY not set: run the suite under `npx svc emulator exec --clock manual -- ...`");
        }
        return new SvcClient(base, key);
    }

    /** A non-2xx answer, with the error envelope's code. */
    static final class ApiException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;
        final String code;

        ApiException(int status, String code, String message) {
            super(status + " " + code + ": " + message);
            this.status = status;
            this.code = code;
        }
    }

    /** POST a merchant route; an idempotency key makes the call safe to repeat (null: none). */
    Map<String, Object> post(String path, Map<String, Object> body, String idempotencyKey) {
        HttpRequest.Builder req = request(path).header("Authorization", "Bearer " + apiKey);
        if (idempotencyKey != null) req.header("X-Idempotency-Key", idempotencyKey);
        return send(withBody(req, "POST", body));
    }

    Map<String, Object> post(String path, Map<String, Object> body) {
        return post(path, body, null);
    }

    Map<String, Object> get(String path) {
        return send(request(path).header("Authorization", "Bearer " + apiKey).GET());
    }

    /** A control API call, e.g. {@code control("GET", "/clock", null)}. */
    Map<String, Object> control(String method, String path, Map<String, Object> body) {
        HttpRequest.Builder req = controlHeaders(request("/_emulator" + path));
        return send(body == null ? req.method(method, HttpRequest.BodyPublishers.noBody()) : withBody(req, method, body));
    }

    Map<String, Object> createPaymentLink(Map<String, Object> fields) {
        // A fresh key per logical request; a retry of that request would reuse it.
        return post("/v1/api/payment-links", fields, UUID.randomUUID().toString());
    }

    /** What the control surfaces (control API, live stream) ask of a caller on another host. */
    HttpRequest.Builder controlHeaders(HttpRequest.Builder req) {
        return controlToken == null || controlToken.isEmpty() ? req : req.header("Svc-Control-Token", controlToken);
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT);
    }

    private static HttpRequest.Builder withBody(HttpRequest.Builder req, String method, Map<String, Object> body) {
        return req.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(Json.write(body)));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> send(HttpRequest.Builder req) {
        HttpResponse<String> res;
        try {
            res = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new RuntimeException("cannot reach " + baseUrl + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
        Object json;
        try {
            json = Json.parse(res.body());
        } catch (RuntimeException e) {
            throw new ApiException(res.statusCode(), "HTTP_" + res.statusCode(), res.body());
        }
        if (res.statusCode() / 100 != 2) {
            Object error = Json.at(json, "error");
            throw new ApiException(res.statusCode(), Json.string(error, "code"), Json.string(error, "message"));
        }
        return (Map<String, Object>) Json.at(json, "data");
    }
}
