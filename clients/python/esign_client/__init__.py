"""A client of the e-signature REST API, standard library only (urllib, hmac, json).

The same four helpers as @esign/client: errors carrying the API's ``code``, an ``Idempotency-Key``
on every POST (kept across retries), retries on 409/429/5xx honouring ``Retry-After``, cursor
pagination as an iterator, and webhook signature verification. The operations come from the
OpenAPI document (``_operations.py`` is generated from it; a test fails when it is stale).
"""

from ._client import EsignApiError, EsignClient
from ._operations import OPERATIONS
from ._webhooks import (
    DEFAULT_TOLERANCE_SECONDS,
    SIGNATURE_HEADER,
    WebhookVerificationError,
    parse_webhook,
    verify_webhook_signature,
)

__all__ = [
    "DEFAULT_TOLERANCE_SECONDS",
    "OPERATIONS",
    "SIGNATURE_HEADER",
    "EsignApiError",
    "EsignClient",
    "WebhookVerificationError",
    "parse_webhook",
    "verify_webhook_signature",
]
