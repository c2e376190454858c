import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { esign } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Receiver, startReceiver } from '../../../packages/core/test/webhook-receiver.ts';

// Each test spawns the real `esign` process several times; on a loaded 2-core machine one start
// takes seconds, so these tests get more than the default minute.
vi.setConfig({ testTimeout: 180_000 });

// `esign webhook create | test | deliveries | list | disable` (operations.md §3), run as the
// README runs them, against a receiver on loopback.

let tdb: TestDatabase;
let r: Receiver;
let env: Record<string, string>;
const json = (s: string) => JSON.parse(s.trim());

beforeAll(async () => {
  tdb = await createTestDatabase();
  r = await startReceiver();
  env = {
    DATABASE_URL: tdb.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-cli-webhook-')),
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  const account = await esign(['account', 'create', '--email', 'hooks@example.com', '--json'], env);
  expect(account.code).toBe(0);
});
afterAll(async () => {
  await r.close();
  await tdb.drop();
});

describe('esign webhook (operations.md §3)', () => {
  let endpoint: { id: number; url: string; events: string[]; secret: string };

  it('webhook create prints {"id","url","events","secret"} with the on-by-default events; --header repeats', async () => {
    const res = await esign(
      [
        'webhook',
        'create',
        '--email',
        'hooks@example.com',
        '--url',
        r.url,
        '--header',
        'X-Customer-Token: abc:123',
        '--header',
        'X-Team:signing',
        '--json',
      ],
      env,
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    endpoint = json(res.stdout);
    expect(endpoint).toEqual({
      id: expect.any(Number),
      url: r.url,
      events: ['signature_request.completed', 'signer.signed'],
      secret: expect.stringMatching(/^whsec_/),
    });
    r.secret = endpoint.secret;
  });

  it('webhook test sends webhook.test at once and prints its delivery record', async () => {
    const res = await esign(['webhook', 'test', '--id', String(endpoint.id), '--json'], env);
    expect(res.code).toBe(0);
    const record = json(res.stdout);
    expect(r.requests).toHaveLength(1);
    const got = r.requests[0]!;
    expect(got.verified).toBe(true);
    expect(got.headers['x-esign-event']).toBe('webhook.test');
    expect(got.headers['x-customer-token']).toBe('abc:123');
    expect(got.headers['x-team']).toBe('signing');
    expect(got.json).toMatchObject({
      id: record.event.id,
      type: 'webhook.test',
      data: { object: 'webhook_endpoint', id: endpoint.id, url: r.url },
    });
    expect(record).toMatchObject({
      object: 'webhook_delivery',
      endpoint_id: endpoint.id,
      event: { type: 'webhook.test' },
      status: 'succeeded',
      attempt_count: 1,
      last_status_code: 200,
      attempts: [{ attempt: 1, id: got.headers['x-esign-delivery'], status_code: 200, error: null }],
    });
    expect(JSON.stringify(record)).not.toContain(endpoint.secret);
  });

  it('webhook deliveries lists the delivery records, newest first, in the list envelope', async () => {
    await esign(['webhook', 'test', '--id', String(endpoint.id), '--json'], env);
    const res = await esign(['webhook', 'deliveries', '--id', String(endpoint.id), '--json'], env);
    expect(res.code).toBe(0);
    const list = json(res.stdout);
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.data.map((d: any) => d.event.id)).toEqual(r.requests.map((q) => q.json.id).reverse());
    const text = await esign(['webhook', 'deliveries', '--id', String(endpoint.id), '--limit', '1'], env);
    expect(text.stdout).toMatch(
      /^#\d+ webhook\.test [0-9a-f-]{36}: succeeded after 1 attempt\(s\), last: HTTP 200\n$/,
    );
  });

  it('webhook list and webhook disable', async () => {
    const disabled = json(
      (await esign(['webhook', 'disable', '--id', String(endpoint.id), '--json'], env)).stdout,
    );
    expect(disabled).toMatchObject({ object: 'webhook_endpoint', id: endpoint.id, enabled: false });
    const listed = json(
      (await esign(['webhook', 'list', '--email', 'hooks@example.com', '--json'], env)).stdout,
    );
    expect(listed.data).toEqual([disabled]);
    expect(JSON.stringify(listed)).not.toContain(endpoint.secret);
  });

  it('a loopback URL is refused without WEBHOOK_ALLOW_PRIVATE; bad events and headers are refused', async () => {
    const create = (args: string[], e = env) =>
      esign(['webhook', 'create', '--email', 'hooks@example.com', '--url', r.url, ...args, '--json'], e);
    const [refused, badEvents, badHeader, chosen, missing] = await Promise.all([
      create([], { ...env, WEBHOOK_ALLOW_PRIVATE: 'false' }),
      create(['--events', 'signer.signed,nope']),
      create(['--header', 'NoColon']),
      create(['--env', 'test', '--events', 'template.created, signer.declined']),
      esign(['webhook', 'test', '--id', '999999', '--json'], env),
    ]);
    expect(refused.code).toBe(1);
    expect(json(refused.stdout)).toEqual({
      error: { code: 'invalid_parameter', message: expect.stringContaining('loopback') },
    });
    expect(json(badEvents.stdout).error).toMatchObject({ code: 'invalid_parameter' });
    expect(json(badHeader.stdout).error).toMatchObject({ code: 'invalid_parameter' });
    expect(json(chosen.stdout).events).toEqual(['signer.declined', 'template.created']);
    expect(json(missing.stdout).error.code).toBe('not_found');
  });
});
