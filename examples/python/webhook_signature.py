"""Verifying the Svc-Signature header of a webhook delivery (standard library only).

The header is ``t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>``. The signed string is
``<t>.<raw body>``, keyed by the endpoint secret's UTF-8 bytes. A header may carry several
``v1`` entries (a sender rotating secrets signs with each): any one matching is enough.
Unknown schemes (``v0``, ``v2``...) are ignored so that a future scheme does not break this code.
"""

import hashlib
import hmac
import re
import time

DEFAULT_TOLERANCE_SECONDS = 300

_TIMESTAMP = re.compile(r"^\d{1,12}$")
_V1 = re.compile(r"^[0-9a-f]{64}$")


class SignatureError(Exception):
    """The delivery must be rejected. ``reason`` is a stable word, the message says why."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def sign(secret, body, timestamp):
    """The header value for ``body`` (bytes) signed at ``timestamp``: what the sender computes."""
    return "t=%d,v1=%s" % (timestamp, _hmac_hex(secret, timestamp, body))


def verify_signature(secret, header, body, tolerance=DEFAULT_TOLERANCE_SECONDS, now=None):
    """Checks ``header`` against the raw ``body`` bytes; returns the signed timestamp.

    Raises SignatureError when the header is missing or malformed, when no v1 entry matches,
    or when the timestamp is more than ``tolerance`` seconds from ``now`` (default: the
    machine's clock; the emulator signs with wall-clock seconds even when its own clock is
    moved, so this holds under ``--clock manual`` too).
    """
    if not header:
        raise SignatureError("missing_header", "no Svc-Signature header")
    timestamp = None
    candidates = []
    for part in header.split(","):
        key, eq, value = part.partition("=")
        if not eq:
            raise SignatureError("bad_format", '"%s" is not key=value' % part.strip())
        key, value = key.strip(), value.strip()
        if key == "t":
            if not _TIMESTAMP.match(value):
                raise SignatureError("bad_format", "t= must be unix seconds")
            timestamp = int(value)
        elif key == "v1":
            if not _V1.match(value):
                raise SignatureError("bad_format", "v1= must be 64 lowercase hex characters")
            candidates.append(value)
    if timestamp is None:
        raise SignatureError("bad_format", "no t= timestamp")
    if not candidates:
        raise SignatureError("bad_format", "no v1= signature")

    expected = _hmac_hex(secret, timestamp, body)
    # compare_digest takes the same time wherever the strings differ; every candidate is
    # compared, so the time does not tell which one matched either.
    matches = [hmac.compare_digest(candidate, expected) for candidate in candidates]
    if not any(matches):
        raise SignatureError("no_matching_signature", "no v1 signature matches this secret and body")

    now = int(time.time()) if now is None else now
    if timestamp < now - tolerance:
        raise SignatureError("too_old", "signed %d s ago; tolerance is %d s" % (now - timestamp, tolerance))
    if timestamp > now + tolerance:
        raise SignatureError("too_new", "signed %d s in the future; tolerance is %d s" % (timestamp - now, tolerance))
    return timestamp


def _hmac_hex(secret, timestamp, body):
    mac = hmac.new(secret.encode("utf-8"), digestmod=hashlib.sha256)
    mac.update(b"%d." % timestamp)
    mac.update(body)
    return mac.hexdigest()
