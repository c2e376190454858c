import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';
import { MCP_MAX_BATCH } from '../src/plugin.ts';

// Issue 29 item 2 on /mcp: a JSON-RPC batch is as many requests as it has calls (docs/mcp.md,
// "Batches"). Batches stay supported (documents may come in a batch), capped at MCP_MAX_BATCH.

let t: TestApp;
const LIMIT = 300;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  // One fixed window for the whole file: the clock stands still at 5 s past a minute.
  t.clock.now = new Date('2031-02-01T00:00:05Z');
});
afterAll(async () => {
  t.clock.now = null;
  await t?.close();
});

const getAccount = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_account', arguments: {} },
});

async function rpc(body: unknown, key: string) {
  const res = await fetch(`${t.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const remaining = (h: Headers) => Number(h.get('ratelimit-remaining'));
const calls = (n: number, from = 1) => Array.from({ length: n }, (_, i) => getAccount(from + i));

describe('issue 29 item 2: MCP JSON-RPC batches', () => {
  it(`a batch of 100 tools/call is refused with -32600 and runs nothing (counted as the one request it is); a batch of ${MCP_MAX_BATCH} runs every call and RateLimit-Remaining drops by ${MCP_MAX_BATCH}`, async () => {
    const a = await createTestAccount(t.db);
    const huge = await rpc(calls(100), a.key);
    expect(huge.status).toBe(400);
    expect(huge.body.error.code).toBe(-32600);
    expect(huge.body.error.message).toContain(`at most ${MCP_MAX_BATCH}`);
    expect(remaining(huge.headers)).toBe(LIMIT - 1);
    const full = await rpc(calls(MCP_MAX_BATCH), a.key);
    expect(full.status).toBe(200);
    expect(full.body).toHaveLength(MCP_MAX_BATCH);
    for (const m of full.body) expect(m.result.structuredContent.user.email).toBe(a.email);
    expect(remaining(full.headers)).toBe(LIMIT - 1 - MCP_MAX_BATCH);
    // Notifications are not calls: a batch of one request and two notifications counts one.
    const mixed = await rpc(
      [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        getAccount(99),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ],
      a.key,
    );
    expect(mixed.status).toBe(200);
    expect(remaining(mixed.headers)).toBe(LIMIT - 2 - MCP_MAX_BATCH);
  });

  it('with fewer calls left than the batch has, the whole batch is refused 429 rate_limited with Retry-After (no call is answered)', async () => {
    const a = await createTestAccount(t.db);
    let left = LIMIT;
    while (left > 5) {
      const n = Math.min(MCP_MAX_BATCH, left - 5);
      const res = await rpc(calls(n), a.key);
      expect(res.status).toBe(200);
      left -= n;
      expect(remaining(res.headers)).toBe(left);
    }
    const over = await rpc(calls(MCP_MAX_BATCH), a.key);
    expect(over.status).toBe(429);
    expect(Array.isArray(over.body)).toBe(false);
    expect(over.body.error.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(remaining(over.headers)).toBe(0);
  });
});
