"""A sub-merchant created with the OTP read back from the emulator's control API.

The OTP step cannot be skipped in test mode either; the emulator keeps each "SMS" in an inbox
that GET /_emulator/otp/{phone} reads.
"""

import unittest
import uuid

from svc_client import SvcClient

# A user of the emulator's seeded world (fixtures/default.json).
MANAGER_PHONE = "+231770000202"


class SubMerchantOtpTest(unittest.TestCase):
    def test_otp_from_the_control_api_completes_a_sub_merchant(self):
        svc = SvcClient.from_env()
        started = svc.post("/v1/api/sub-merchants/start", {"manager_phone": MANAGER_PHONE})
        self.assertGreater(started["expires_in_seconds"], 0)
        self.assertTrue(started["masked_phone"].endswith(MANAGER_PHONE[-4:]))

        messages = svc.control("GET", "/otp/" + MANAGER_PHONE)["messages"]
        otp = messages[0]["code"]  # newest first
        self.assertRegex(otp, r"^\d{6}$")

        name = "Branch %s" % uuid.uuid4().hex[:8]
        sub = svc.post(
            "/v1/api/sub-merchants/complete",
            {"merchant_name": name, "manager_phone": MANAGER_PHONE, "otp": otp},
            idempotency_key=str(uuid.uuid4()),
        )
        self.assertEqual(sub["merchant_name"], name)
        listed = svc.get("/v1/api/sub-merchants")["sub_merchants"]
        self.assertIn(sub["id"], [s["id"] for s in listed])


if __name__ == "__main__":
    unittest.main()
