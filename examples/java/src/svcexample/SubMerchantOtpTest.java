package svcexample;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A sub-merchant created with the OTP read back from the emulator's control API. The OTP step
 * cannot be skipped in test mode either; the emulator keeps each "SMS" in an inbox that
 * GET /_emulator/otp/{phone} reads.
 */
final class SubMerchantOtpTest {
    /** A user of the emulator's seeded world (fixtures/default.json). */
    static final String MANAGER_PHONE = "+231770000201";

    private final SvcClient svc = SvcClient.fromEnv();

    @Test
    void otpFromTheControlApiCompletesASubMerchant() {
        Map<String, Object> started = svc.post("/v1/api/sub-merchants/start", Map.of("manager_phone", MANAGER_PHONE));
        Check.isTrue((Long) started.get("expires_in_seconds") > 0, "the OTP has a validity period");
        Check.isTrue(((String) started.get("masked_phone")).endsWith(MANAGER_PHONE.substring(MANAGER_PHONE.length() - 4)), "masked phone keeps the last digits");

        List<?> messages = (List<?>) svc.control("GET", "/otp/" + URLEncoder.encode(MANAGER_PHONE, StandardCharsets.UTF_8), null).get("messages");
        String otp = Json.string(messages.get(0), "code"); // newest first
        Check.isTrue(otp.matches("\\d{6}"), "a six-digit code, got " + otp);

        String name = "Branch " + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> sub = svc.post("/v1/api/sub-merchants/complete",
                Map.of("merchant_name", name, "manager_phone", MANAGER_PHONE, "otp", otp), UUID.randomUUID().toString());
        Check.equal(name, sub.get("merchant_name"), "sub-merchant name");
        List<?> listed = (List<?>) svc.get("/v1/api/sub-merchants").get("sub_merchants");
        Check.isTrue(listed.stream().anyMatch(s -> sub.get("id").equals(Json.at(s, "id"))), "the new sub-merchant is listed");
    }
}
