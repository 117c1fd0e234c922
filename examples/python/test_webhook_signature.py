"""The signature rule at its boundaries, without the emulator."""

import unittest

from webhook_signature import SignatureError, sign, verify_signature

SECRET = "whsec-example-0123456789abcdefghijklmnopqrstuv"
BODY = b'{"type":"payment.completed","createdAt":"2026-01-01T00:00:00Z","data":{}}'
NOW = 1_800_000_000


class SignatureRuleTest(unittest.TestCase):
    def test_a_header_signed_with_the_secret_verifies(self):
        self.assertEqual(verify_signature(SECRET, sign(SECRET, BODY, NOW), BODY, now=NOW), NOW)

    def test_one_changed_hex_digit_is_rejected(self):
        header = sign(SECRET, BODY, NOW)
        flipped = header[:-1] + ("0" if header[-1] != "0" else "1")
        self.assert_rejected("no_matching_signature", flipped)

    def test_one_changed_body_byte_is_rejected(self):
        with self.assertRaises(SignatureError) as caught:
            verify_signature(SECRET, sign(SECRET, BODY, NOW), BODY.replace(b"completed", b"completeD"), now=NOW)
        self.assertEqual(caught.exception.reason, "no_matching_signature")

    def test_another_secret_is_rejected(self):
        self.assert_rejected("no_matching_signature", sign(SECRET + "x", BODY, NOW))

    def test_any_one_of_several_v1_entries_may_match(self):
        other = sign("an-older-secret", BODY, NOW).split(",")[1]
        self.assertEqual(verify_signature(SECRET, "%s,%s" % (sign(SECRET, BODY, NOW), other), BODY, now=NOW), NOW)
        self.assertEqual(verify_signature(SECRET, "t=%d,%s,v0=ignored" % (NOW, sign(SECRET, BODY, NOW).split(",")[1]), BODY, now=NOW), NOW)

    def test_the_tolerance_is_300_seconds_either_way(self):
        for signed_at in (NOW - 300, NOW + 300):
            self.assertEqual(verify_signature(SECRET, sign(SECRET, BODY, signed_at), BODY, now=NOW), signed_at)
        self.assert_rejected("too_old", sign(SECRET, BODY, NOW - 301))
        self.assert_rejected("too_new", sign(SECRET, BODY, NOW + 301))

    def test_missing_and_malformed_headers_are_rejected(self):
        self.assert_rejected("missing_header", None)
        self.assert_rejected("missing_header", "")
        for header in ("v1=" + "a" * 64, "t=%d" % NOW, "t=soon,v1=" + "a" * 64, "t=%d,v1=%s" % (NOW, "A" * 64), "t=%d,garbage" % NOW):
            self.assert_rejected("bad_format", header)

    def assert_rejected(self, reason, header):
        with self.assertRaises(SignatureError) as caught:
            verify_signature(SECRET, header, BODY, now=NOW)
        self.assertEqual(caught.exception.reason, reason, str(caught.exception))


if __name__ == "__main__":
    unittest.main()
