package svcexample;

import java.nio.charset.StandardCharsets;

/** The signature rule at its boundaries, without the emulator. */
final class SignatureRuleTest {
    static final String SECRET = "whsec-example-0123456789abcdefghijklmnopqrstuv";
    static final byte[] BODY = "{\"type\":\"payment.completed\",\"createdAt\":\"2026-01-01T00:00:00Z\",\"data\":{}}".getBytes(StandardCharsets.UTF_8);
    static final long NOW = 1_800_000_000L;

    @Test
    void aHeaderSignedWithTheSecretVerifies() throws Exception {
        Check.equal(NOW, verify(WebhookSignature.sign(SECRET, BODY, NOW)), "signed timestamp");
    }

    @Test
    void oneChangedHexDigitIsRejected() {
        String header = WebhookSignature.sign(SECRET, BODY, NOW);
        char last = header.charAt(header.length() - 1);
        assertRejected("no_matching_signature", header.substring(0, header.length() - 1) + (last == '0' ? '1' : '0'));
    }

    @Test
    void oneChangedBodyByteIsRejected() {
        byte[] changed = BODY.clone();
        changed[10] ^= 0x20;
        var e = Check.throwsA(WebhookSignature.SignatureException.class,
                () -> WebhookSignature.verify(SECRET, WebhookSignature.sign(SECRET, BODY, NOW), changed, 300, NOW));
        Check.equal("no_matching_signature", e.reason, "reason");
    }

    @Test
    void anotherSecretIsRejected() {
        assertRejected("no_matching_signature", WebhookSignature.sign(SECRET + "x", BODY, NOW));
    }

    @Test
    void anyOneOfSeveralV1EntriesMayMatch() throws Exception {
        String other = WebhookSignature.sign("an-older-secret", BODY, NOW).split(",")[1];
        String ours = WebhookSignature.sign(SECRET, BODY, NOW).split(",")[1];
        Check.equal(NOW, verify("t=" + NOW + "," + other + "," + ours), "with a second v1");
        Check.equal(NOW, verify("t=" + NOW + "," + ours + ",v0=ignored"), "with an unknown scheme");
    }

    @Test
    void theToleranceIs300SecondsEitherWay() throws Exception {
        Check.equal(NOW - 300, verify(WebhookSignature.sign(SECRET, BODY, NOW - 300)), "300 s old");
        Check.equal(NOW + 300, verify(WebhookSignature.sign(SECRET, BODY, NOW + 300)), "300 s ahead");
        assertRejected("too_old", WebhookSignature.sign(SECRET, BODY, NOW - 301));
        assertRejected("too_new", WebhookSignature.sign(SECRET, BODY, NOW + 301));
    }

    @Test
    void missingAndMalformedHeadersAreRejected() {
        assertRejected("missing_header", null);
        assertRejected("missing_header", "");
        String hex = "a".repeat(64);
        for (String header : new String[] {"v1=" + hex, "t=" + NOW, "t=soon,v1=" + hex, "t=" + NOW + ",v1=" + "A".repeat(64), "t=" + NOW + ",garbage"}) {
            assertRejected("bad_format", header);
        }
    }

    private static long verify(String header) throws Exception {
        return WebhookSignature.verify(SECRET, header, BODY, 300, NOW);
    }

    private static void assertRejected(String reason, String header) {
        var e = Check.throwsA(WebhookSignature.SignatureException.class, () -> verify(header));
        Check.equal(reason, e.reason, "reason for " + header + " (" + e.getMessage() + ")");
    }
}
