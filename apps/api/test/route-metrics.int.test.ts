import type { Metrics } from '@esign/core';
import { createMetrics } from '@esign/core/testing';
import { parseExposition, sampleValue } from '@esign/testing/metrics';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 41 item 7: REST answers given before a route matched (a 401 for a missing key, a 404 for
// no endpoint) were all counted under the wildcard route `/api/v1/*`.

let t: TestApp;
let a: TestAccount;
let metrics: Metrics;
beforeAll(async () => {
  metrics = createMetrics({ restarts: 0 });
  t = await startTestApp({}, { metrics });
  a = await createTestAccount(t.db);
});
afterAll(() => t?.close());

const count = async (labels: Record<string, string>) =>
  sampleValue(parseExposition(await metrics.exposition()), 'esign_http_requests_total', labels) ?? 0;

it("REST answers refused before the endpoint runs are counted under its pattern (a 401 on GET /api/v1/templates), answers no endpoint matches under route 'unmatched', never under '/api/v1/*'", async () => {
  const templates401 = { method: 'GET', route: '/api/v1/templates', status: '401' };
  const unmatched401 = { method: 'GET', route: 'unmatched', status: '401' };
  const unmatched404 = { method: 'GET', route: 'unmatched', status: '404' };
  const before = [await count(templates401), await count(unmatched401), await count(unmatched404)];
  expect((await t.api('GET', 'templates')).status).toBe(401);
  expect((await t.api('GET', 'no_such_thing/12345')).status).toBe(401);
  expect((await t.api('GET', 'no_such_thing/12345', { key: a.key })).status).toBe(404);
  const after = [await count(templates401), await count(unmatched401), await count(unmatched404)];
  expect(after.map((n, i) => n - before[i]!)).toEqual([1, 1, 1]);
  const wildcard = parseExposition(await metrics.exposition()).filter(
    (s) => s.name === 'esign_http_requests_total' && s.labels.route === '/api/v1/*',
  );
  expect(wildcard).toEqual([]);
});
