import email.utils
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

from ._operations import OPERATIONS

# Worth the same request again (spec, Errors, retry guidance); 409 only for a POST with its key.
_RETRIED = {409, 429, 500, 502, 503, 504}


class EsignApiError(Exception):
    """A refused request: the HTTP status and the API's ``{"error": {"code", "message"}}``."""

    def __init__(self, status, code, message, request_id=None, retry_after=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after

    def __repr__(self):
        return f"EsignApiError(status={self.status}, code={self.code!r}, message={self.message!r})"


def _retry_after_seconds(headers):
    value = (headers.get("Retry-After") or "").strip()
    if not value:
        return None
    if value.isdigit():
        return int(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0, int(when.timestamp() - time.time() + 0.999))


def _error_of(status, headers, body):
    try:
        error = json.loads(body or b"null")["error"]
        code, message = error["code"], error["message"]
    except (ValueError, TypeError, KeyError):
        code, message = "unexpected_response", f"HTTP {status}: {body[:200]!r}"
    return EsignApiError(status, code, message, headers.get("X-Request-Id"), _retry_after_seconds(headers))


class EsignClient:
    """``EsignClient("https://esign.example.com", "svc_live_...")``; ``/api/v1`` is added."""

    def __init__(self, base_url, api_key, max_retries=3, base_delay=0.5, max_delay=60.0, sleep=time.sleep,
                 timeout=60.0):
        self.base_url = base_url.rstrip("/") + "/api/v1"
        self.api_key = api_key
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.sleep = sleep
        self.timeout = timeout

    def request(self, method, path, query=None, body=None, idempotency_key=None):
        """One API call; returns the parsed JSON answer, raises EsignApiError when refused."""
        url = self.base_url + path
        pairs = {k: v for k, v in (query or {}).items() if v is not None}
        if pairs:
            url += "?" + urllib.parse.urlencode(
                {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in pairs.items()})
        headers = {"Authorization": f"Bearer {self.api_key}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if method == "POST":
            # One key per logical request, kept across its retries: a retried POST that did happen is
            # answered with the first result instead of being done twice (spec, Idempotency rules).
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        attempt = 0
        while True:
            status, answer_headers, raw = self._send(method, url, headers, data)
            if 200 <= status < 300:
                return json.loads(raw) if raw else None
            error = _error_of(status, answer_headers, raw)
            retried = status in _RETRIED and (status != 409 or method == "POST")
            if not retried or attempt >= self.max_retries:
                raise error
            delay = self.base_delay * 2 ** attempt if error.retry_after is None else error.retry_after
            if delay > self.max_delay:
                raise error
            self.sleep(delay)
            attempt += 1

    def _send(self, method, url, headers, data):
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return res.status, res.headers, res.read()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.headers, refused.read()

    def call(self, operation_id, path_params=None, query=None, body=None, idempotency_key=None):
        """An operation of the OpenAPI document by its operationId, e.g. ``call("templates-get", {"id": 12})``."""
        method, template = OPERATIONS[operation_id]
        path = template
        for name, value in (path_params or {}).items():
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        return self.request(method, path, query, body, idempotency_key)

    def paginate(self, path, **query):
        """Every item of a list endpoint, page after page (cursor = next_cursor while has_more)."""
        cursor = None
        while True:
            page = self.request("GET", path, {**query, "cursor": cursor})
            yield from page["data"]
            cursor = page["next_cursor"] if page["has_more"] else None
            if not cursor:
                return
