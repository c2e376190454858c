import hashlib
import hmac
import json
import re
import time

SIGNATURE_HEADER = "X-Esign-Signature"
DEFAULT_TOLERANCE_SECONDS = 300
_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


class WebhookVerificationError(Exception):
    """Why a delivery is refused: ``reason`` is malformed_header, timestamp_outside_tolerance or
    no_matching_signature."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def _parse_header(header):
    if not isinstance(header, str) or not header or len(header) > 4096:
        return None
    t, v1 = None, []
    for element in header.split(","):
        key, eq, value = element.partition("=")
        if not eq:
            return None
        key, value = key.strip(), value.strip()
        if key == "t":
            if t is not None or not value.isdigit() or len(value) > 15:
                return None
            t = int(value)
        elif key == "v1" and _HEX64.match(value):
            v1.append(value.lower())
    return (t, v1) if t is not None and v1 else None


def verify_webhook_signature(payload, header, secrets, tolerance_seconds=DEFAULT_TOLERANCE_SECONDS,
                             now_seconds=None):
    """Checks a delivery (docs/webhooks.md): HMAC-SHA256 of ``<t>.<raw body>`` with the secret, hex,
    against every ``v1``; ``t`` within the tolerance. ``payload`` is the body exactly as received
    (bytes or str); ``secrets`` one secret or several while one is being rotated."""
    parsed = _parse_header(header)
    if parsed is None:
        raise WebhookVerificationError("malformed_header", f"Missing or malformed {SIGNATURE_HEADER}")
    t, candidates = parsed
    now = int(time.time()) if now_seconds is None else now_seconds
    if abs(now - t) > tolerance_seconds:
        raise WebhookVerificationError(
            "timestamp_outside_tolerance",
            f"The signature's timestamp is {now - t} s from now (at most {tolerance_seconds} s)")
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    matched = False
    for secret in [secrets] if isinstance(secrets, str) else list(secrets):
        if not secret:
            continue
        expected = hmac.new(secret.encode("utf-8"), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
        # Every candidate is compared (no early exit), so timing does not say which one matched.
        for candidate in candidates:
            matched = hmac.compare_digest(candidate, expected) or matched
    if not matched:
        raise WebhookVerificationError("no_matching_signature", "No signature matches the body and the secrets")


def parse_webhook(payload, header, secrets, tolerance_seconds=DEFAULT_TOLERANCE_SECONDS, now_seconds=None):
    """Verifies a delivery and returns its parsed body (``id``, ``type``, ``created_at``, ``data``)."""
    verify_webhook_signature(payload, header, secrets, tolerance_seconds, now_seconds)
    return json.loads(payload)
