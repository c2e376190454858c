"""The Python client's helpers against a real server (run by packages/client/test/python.int.test.ts,
which starts the server and sets ESIGN_URL, ESIGN_API_KEY, ESIGN_WEBHOOK_SECRET, DELIVERY_BODY and
DELIVERY_SIGNATURE: a real delivery the server made)."""

import base64
import os
import re
import unittest

from esign_client import EsignApiError, EsignClient, WebhookVerificationError, parse_webhook, verify_webhook_signature

URL, KEY, SECRET = os.environ["ESIGN_URL"], os.environ["ESIGN_API_KEY"], os.environ["ESIGN_WEBHOOK_SECRET"]
with open(os.environ["PDF_PATH"], "rb") as pdf_file:
    PDF = base64.b64encode(pdf_file.read()).decode()


def template_body(name):
    return {"name": name, "documents": [{"file": PDF}], "fields": [{
        "name": "Signature", "type": "signature", "role": "Client",
        "areas": [{"page": 1, "x": 0.1, "y": 0.8, "w": 0.3, "h": 0.05}]}]}


class RecordingClient(EsignClient):
    """Sends for real; `answers` replaces the first responses (a lost answer, a 429)."""

    def __init__(self, answers=(), **kwargs):
        self.delays, self.sent, self.answers = [], [], list(answers)
        super().__init__(URL, KEY, sleep=self.delays.append, **kwargs)

    def _send(self, method, url, headers, data):
        self.sent.append((method, url, dict(headers)))
        real = super()._send(method, url, headers, data)
        return self.answers.pop(0) if self.answers else real


class ClientTest(unittest.TestCase):
    def test_errors_carry_the_api_code(self):
        with self.assertRaises(EsignApiError) as refused:
            EsignClient(URL, KEY).call("templates-get", {"id": 2000000000})
        self.assertEqual((refused.exception.status, refused.exception.code), (404, "not_found"))
        self.assertTrue(refused.exception.request_id)
        with self.assertRaises(EsignApiError) as missing:
            EsignClient(URL, KEY).request("POST", "/signature_requests", body={})
        self.assertEqual((missing.exception.status, missing.exception.code), (422, "missing_parameter"))

    def test_a_lost_answer_is_retried_with_the_same_idempotency_key_and_replayed(self):
        client = RecordingClient(answers=[(502, {}, b"bad gateway")])
        created = client.request("POST", "/templates", body=template_body("Python retried"))
        keys = [headers["Idempotency-Key"] for _, _, headers in client.sent]
        self.assertEqual(len(keys), 2)
        self.assertRegex(keys[0], r"^[0-9a-f-]{36}$")
        self.assertEqual(keys[1], keys[0])
        self.assertEqual(client.delays, [0.5])
        found = [t["id"] for t in EsignClient(URL, KEY).paginate("/templates", q="Python retried")]
        self.assertEqual(found, [created["id"]])

    def test_429_waits_for_retry_after(self):
        refused = b'{"error":{"code":"rate_limited","message":"Too many requests"}}'
        client = RecordingClient(answers=[(429, {"Retry-After": "7"}, refused)])
        self.assertEqual(client.call("account-me")["object"], "me")
        self.assertEqual(client.delays, [7])
        patient_enough = RecordingClient(answers=[(429, {"Retry-After": "120"}, refused)], max_retries=3)
        with self.assertRaises(EsignApiError) as too_long:
            patient_enough.call("account-me")
        self.assertEqual((too_long.exception.code, too_long.exception.retry_after), ("rate_limited", 120))
        self.assertEqual(patient_enough.delays, [])

    def test_paginate_follows_next_cursor(self):
        client = EsignClient(URL, KEY)
        ids = [client.request("POST", "/templates", body=template_body(f"Py page {n}"))["id"] for n in range(5)]
        recording = RecordingClient()
        got = [t["id"] for t in recording.paginate("/templates", limit=2, q="Py page")]
        self.assertEqual(got, list(reversed(ids)))
        self.assertEqual(["cursor=" in url for _, url, _ in recording.sent], [False, True, True])

    def test_webhook_verification_on_a_real_delivery(self):
        body = os.environ["DELIVERY_BODY"].encode()
        header = os.environ["DELIVERY_SIGNATURE"]
        t = int(re.search(r"t=(\d+)", header).group(1))
        verify_webhook_signature(body, header, SECRET)
        self.assertEqual(parse_webhook(body, header, ["whsec_old", SECRET])["type"], "signature_request.created")

        def reason(**changes):
            args = {"payload": body, "header": header, "secrets": SECRET, **changes}
            try:
                verify_webhook_signature(args.pop("payload"), args.pop("header"), args.pop("secrets"), **args)
                return "accepted"
            except WebhookVerificationError as refused:
                return refused.reason

        self.assertEqual(reason(payload=body.replace(b"Ada", b"Eve")), "no_matching_signature")
        self.assertEqual(reason(now_seconds=t + 301), "timestamp_outside_tolerance")
        self.assertEqual(reason(now_seconds=t + 299), "accepted")
        self.assertEqual(reason(secrets="whsec_not-the-endpoints-secret"), "no_matching_signature")
        self.assertEqual(reason(header="v1=abc"), "malformed_header")
        self.assertEqual(reason(header=None), "malformed_header")


if __name__ == "__main__":
    unittest.main(verbosity=2)
