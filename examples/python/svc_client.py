"""A small client for the merchant API and the emulator's control API (standard library only).

``svc emulator exec`` hands the suite SVC_BASE_URL and SVC_API_KEY (a test key with every
scope). Merchant calls carry ``Authorization: Bearer <key>``; control calls (``/_emulator/...``)
carry no credentials on the emulator's own machine; from another host (a container) they carry
``Svc-Control-Token: $SVC_CONTROL_TOKEN``, which ``exec`` also hands over when one is in force.
"""

import json
import os
import urllib.error
import urllib.parse
import urllib.request
import uuid

TIMEOUT_SECONDS = 15


class ApiError(Exception):
    """A non-2xx answer: ``status``, and the envelope's ``code`` and ``message``."""

    def __init__(self, status, code, message):
        super().__init__("%s %s: %s" % (status, code, message))
        self.status = status
        self.code = code


class SvcClient:
    def __init__(self, base_url, api_key, control_token=None):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.control_token = control_token

    @classmethod
    def from_env(cls):
        missing = [name for name in ("SVC_BASE_URL", "SVC_API_KEY") if not os.environ.get(name)]
        if missing:
            raise RuntimeError(
                "%s not set: run the suite under `npx svc emulator exec --clock manual -- ...`" % " and ".join(missing)
            )
        return cls(os.environ["SVC_BASE_URL"], os.environ["SVC_API_KEY"], os.environ.get("SVC_CONTROL_TOKEN"))

    def post(self, path, body, idempotency_key=None):
        """POST a merchant route. Pass ``idempotency_key`` to make the call safe to repeat."""
        headers = {"X-Idempotency-Key": idempotency_key} if idempotency_key else {}
        return self._send("POST", path, body, self._auth(headers))

    def get(self, path):
        return self._send("GET", path, None, self._auth({}))

    def control(self, method, path, body=None):
        """A control API call, e.g. control("GET", "/otp/+231770000202")."""
        return self._send(method, "/_emulator" + path, body, self.control_headers())

    def control_headers(self):
        """What the control surfaces (control API, live stream) ask of a caller on another host."""
        return {"Svc-Control-Token": self.control_token} if self.control_token else {}

    def create_payment_link(self, **fields):
        # A fresh key per logical request; a retry of that request would reuse it.
        return self.post("/v1/api/payment-links", fields, idempotency_key=str(uuid.uuid4()))

    def _auth(self, headers):
        return dict(headers, Authorization="Bearer " + self.api_key)

    def _send(self, method, path, body, headers):
        data = None if body is None else json.dumps(body).encode("utf-8")
        if data is not None:
            headers = dict(headers, **{"Content-Type": "application/json"})
        request = urllib.request.Request(self.base_url + _quote_path(path), data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                return json.loads(response.read())["data"]
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                error = json.loads(raw)["error"]
            except (ValueError, KeyError, TypeError):
                error = {"code": "HTTP_%d" % err.code, "message": raw[:200].decode("utf-8", "replace")}
            raise ApiError(err.code, error.get("code"), error.get("message")) from None


def _quote_path(path):
    # Phone numbers go into paths: "+" must travel as %2B, "?" and "=" stay as they are.
    return urllib.parse.quote(path, safe="/?=&,")
