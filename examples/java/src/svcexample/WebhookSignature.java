package svcexample;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifying the Svc-Signature header of a webhook delivery.
 *
 * <p>The header is {@code t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>}. The signed string is
 * {@code <t>.<raw body>}, keyed by the endpoint secret's UTF-8 bytes. A header may carry several
 * {@code v1} entries (a sender rotating secrets signs with each): any one matching is enough.
 * Unknown schemes ({@code v0}, {@code v2}...) are ignored so a future scheme does not break this.
 */
final class WebhookSignature {
    static final long DEFAULT_TOLERANCE_SECONDS = 300;
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{1,12}");
    private static final Pattern V1 = Pattern.compile("[0-9a-f]{64}");

    private WebhookSignature() {}

    /** The delivery must be rejected: {@code reason} is a stable word, the message says why. */
    static final class SignatureException extends Exception {
        private static final long serialVersionUID = 1L;
        final String reason;

        SignatureException(String reason, String message) {
            super(message);
            this.reason = reason;
        }
    }

    /** The header value for {@code body} signed at {@code timestamp}: what the sender computes. */
    static String sign(String secret, byte[] body, long timestamp) {
        return "t=" + timestamp + ",v1=" + hmacHex(secret, timestamp, body);
    }

    /**
     * Checks the header against the raw body bytes, against this machine's clock (the emulator
     * signs with wall-clock seconds even when its own clock is moved); returns the timestamp.
     */
    static long verify(String secret, String header, byte[] body) throws SignatureException {
        return verify(secret, header, body, DEFAULT_TOLERANCE_SECONDS, Instant.now().getEpochSecond());
    }

    static long verify(String secret, String header, byte[] body, long toleranceSeconds, long now) throws SignatureException {
        if (header == null || header.isEmpty()) throw new SignatureException("missing_header", "no Svc-Signature header");
        Long timestamp = null;
        List<String> candidates = new ArrayList<>();
        for (String part : header.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq < 0) throw new SignatureException("bad_format", "\"" + part.trim() + "\" is not key=value");
            String key = part.substring(0, eq).trim();
            String value = part.substring(eq + 1).trim();
            if (key.equals("t")) {
                if (!TIMESTAMP.matcher(value).matches()) throw new SignatureException("bad_format", "t= must be unix seconds");
                timestamp = Long.parseLong(value);
            } else if (key.equals("v1")) {
                if (!V1.matcher(value).matches()) throw new SignatureException("bad_format", "v1= must be 64 lowercase hex characters");
                candidates.add(value);
            }
        }
        if (timestamp == null) throw new SignatureException("bad_format", "no t= timestamp");
        if (candidates.isEmpty()) throw new SignatureException("bad_format", "no v1= signature");

        byte[] expected = hmacHex(secret, timestamp, body).getBytes(StandardCharsets.US_ASCII);
        boolean matched = false;
        for (String candidate : candidates) {
            // isEqual takes the same time wherever the bytes differ; every candidate is compared.
            matched |= MessageDigest.isEqual(candidate.getBytes(StandardCharsets.US_ASCII), expected);
        }
        if (!matched) throw new SignatureException("no_matching_signature", "no v1 signature matches this secret and body");

        if (timestamp < now - toleranceSeconds) {
            throw new SignatureException("too_old", "signed " + (now - timestamp) + " s ago; tolerance is " + toleranceSeconds + " s");
        }
        if (timestamp > now + toleranceSeconds) {
            throw new SignatureException("too_new", "signed " + (timestamp - now) + " s in the future; tolerance is " + toleranceSeconds + " s");
        }
        return timestamp;
    }

    private static String hmacHex(String secret, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
