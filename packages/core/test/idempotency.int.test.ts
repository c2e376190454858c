import type { Db } from '@esign/db';
import { createTestAccount, type TestAccount } from '@esign/testing/accounts';
import { makePack } from '@esign/testing/billing';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../src/app-router.ts';
import { createContext } from '../src/context.ts';
import { replayCommittedOutcome } from '../src/idempotent-replay.ts';
import { createLogger } from '../src/logger.ts';
import { processBulkSend } from '../src/services/bulk/process.ts';
import { grantCredits } from '../src/services/credits.ts';
import {
  beginIdempotent,
  commitIdempotentOutcome,
  completeIdempotent,
  IDEMPOTENCY_LEASE_MS,
  type IdempotencyClaim,
  type IdempotencyRequest,
  releaseIdempotent,
} from '../src/services/idempotency.ts';
import { type CoreHarness, startCore, twoRoleTemplate } from './caller.ts';

let tdb: TestDatabase;
let keyId: number;
beforeAll(async () => {
  tdb = await createTestDatabase();
  keyId = (await createTestAccount(tdb.db)).keyId;
});
afterAll(() => tdb.drop());

const req = (key: string, hash = 'h1', path = '/api/v1/templates'): IdempotencyRequest => ({
  apiKeyId: keyId,
  path,
  key,
  requestHash: hash,
});

/** Claims a key that must be new; returns the claim. */
async function claim(r: IdempotencyRequest): Promise<IdempotencyClaim> {
  const start = await beginIdempotent(tdb.db, r);
  if (start.kind !== 'new') throw new Error(`expected a new claim, got ${start.kind}`);
  return start.claim;
}

/**
 * Moves a record `ms` into the past, by the database's clock (its lease and expiry): the only
 * clock the rules read, so the test moves the record, not a process's clock.
 */
async function age(key: string, ms: number, db: Db = tdb.db, apiKeyId = keyId): Promise<void> {
  await sql`update idempotency_keys
    set locked_until = locked_until - make_interval(secs => ${ms / 1000}),
        expires_at = expires_at - make_interval(secs => ${ms / 1000})
    where api_key_id = ${apiKeyId} and key = ${key}`.execute(db);
}

/** A stand-in for a request's work: one row the test can look for. */
const work = (bucket: string) =>
  sql`insert into rate_limit_windows (bucket, window_start, count) values (${bucket}, now(), 1)`;
const workDone = async (bucket: string) =>
  (
    await sql<{
      n: number;
    }>`select count(*)::int as n from rate_limit_windows where bucket = ${bucket}`.execute(tdb.db)
  ).rows[0]!.n;

describe('Idempotency rules', () => {
  it('rule 2: the first success is stored and a retry replays it', async () => {
    const c = await claim(req('a'));
    await completeIdempotent(tdb.db, c, 201, '{"id":1}');
    expect(await beginIdempotent(tdb.db, req('a'))).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"id":1}',
    });
  });

  it('rule 2: records are per key and path, and last 24 hours (by the database clock)', async () => {
    await completeIdempotent(tdb.db, await claim(req('b')), 200, 'x');
    expect(await beginIdempotent(tdb.db, req('b', 'h1', '/api/v1/other'))).toMatchObject({ kind: 'new' });
    expect(await beginIdempotent(tdb.db, req('b'))).toMatchObject({ kind: 'replay' });
    await age('b', 24 * 3600_000 + 1000);
    expect(await beginIdempotent(tdb.db, req('b'))).toMatchObject({ kind: 'new' });
  });

  it('rule 3: failed responses are not stored; the key can be retried', async () => {
    await releaseIdempotent(tdb.db, await claim(req('c')));
    expect(await beginIdempotent(tdb.db, req('c'))).toMatchObject({ kind: 'new' });
  });

  it('rule 4: while the first request runs, a retry is 409 idempotency_key_in_use', async () => {
    await claim(req('d'));
    await expect(beginIdempotent(tdb.db, req('d'))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
  });

  it('rule 5: the same key with a different body is 422 idempotency_key_reused', async () => {
    await completeIdempotent(tdb.db, await claim(req('e')), 201, '{}');
    await expect(beginIdempotent(tdb.db, req('e', 'other-hash'))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it('rule 1: keys longer than 255 characters are rejected', async () => {
    await expect(beginIdempotent(tdb.db, req('k'.repeat(256)))).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
    expect(await beginIdempotent(tdb.db, req('k'.repeat(255)))).toMatchObject({ kind: 'new' });
  });

  it('concurrent retries across connections: exactly one runs, the others get 409', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => beginIdempotent(tdb.db, req('race'))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason.code).toBe('idempotency_key_in_use');
    }
  });

  it('a claim held by a living process is renewed by the database clock: its lease moves on while the request runs, and stops once it is released (issue 27.4, 41)', {
    timeout: 30_000,
  }, async () => {
    const lease = async (key: string) =>
      (
        await sql<{ until: Date; db_now: Date }>`select locked_until as until, now() as db_now
          from idempotency_keys where api_key_id = ${keyId} and key = ${key}`.execute(tdb.db)
      ).rows[0]!;
    const c = await claim(req('held'));
    const first = await lease('held');
    // The lease is the database's time plus IDEMPOTENCY_LEASE_MS (within the test's round trips).
    const ahead = first.until.getTime() - first.db_now.getTime();
    expect(ahead).toBeGreaterThan(IDEMPOTENCY_LEASE_MS - 1_000);
    expect(ahead).toBeLessThanOrEqual(IDEMPOTENCY_LEASE_MS);
    // One renewal interval later the lease reaches further than the claim's first one.
    await new Promise((r) => setTimeout(r, 6_000));
    const renewed = (await lease('held')).until.getTime();
    expect(renewed).toBeGreaterThan(first.until.getTime() + 4_000);
    // Moved past its first lease, the renewal is what keeps the claim: still 409.
    await age('held', renewed - first.until.getTime() - 1_000);
    await expect(beginIdempotent(tdb.db, req('held'))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    await completeIdempotent(tdb.db, c, 201, '{}');
    await age('held', IDEMPOTENCY_LEASE_MS + 1_000);
    expect(await beginIdempotent(tdb.db, req('held'))).toMatchObject({ kind: 'replay' });
  });

  it('a running record whose process died is taken over once its lease (seconds, not minutes) runs out, by the database clock (issue 27.4, 41)', async () => {
    await claim(req('lapsed'));
    await age('lapsed', 5_000);
    await expect(beginIdempotent(tdb.db, req('lapsed'))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    await age('lapsed', IDEMPOTENCY_LEASE_MS);
    await releaseIdempotent(tdb.db, await claim(req('lapsed')));
  });
});

describe('Idempotency outcome commits with the work (issue 41)', () => {
  it('the outcome commits in the work transaction: a retry gets the committed resource, never a second run, whatever the lease and the answer', async () => {
    const c = await claim(req('w1', 'h1', '/api/v1/signature_requests'));
    await tdb.db.transaction().execute(async (tx) => {
      await work('w1').execute(tx);
      await commitIdempotentOutcome(tx, c, { resource: { type: 'signature_request', id: 42 } });
    });
    // The process dies here: no answer stored, no renewal; the lease lapses.
    await age('w1', IDEMPOTENCY_LEASE_MS + 1_000);
    expect(await beginIdempotent(tdb.db, req('w1', 'h1', '/api/v1/signature_requests'))).toEqual({
      kind: 'committed',
      claim: { ...req('w1', 'h1', '/api/v1/signature_requests'), claimId: c.claimId },
      outcome: { resourceType: 'signature_request', resourceId: '42', body: null },
    });
    // A failure answered after the commit releases nothing: the key still holds the outcome.
    await releaseIdempotent(tdb.db, c);
    expect(await beginIdempotent(tdb.db, req('w1', 'h1', '/api/v1/signature_requests'))).toMatchObject({
      kind: 'committed',
    });
    // The same key with another body is still refused.
    await expect(
      beginIdempotent(tdb.db, req('w1', 'h2', '/api/v1/signature_requests')),
    ).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect(await workDone('w1')).toBe(1);
  });

  it('a failure after the work rolls back the work and the outcome together: the key is still running, and its retry runs once', async () => {
    const c = await claim(req('w2'));
    await expect(
      tdb.db.transaction().execute(async (tx) => {
        await work('w2').execute(tx);
        await commitIdempotentOutcome(tx, c, { resource: { type: 'template', id: 7 } });
        throw new Error('fails after the work');
      }),
    ).rejects.toThrow('fails after the work');
    expect(await workDone('w2')).toBe(0);
    const row = await tdb.db
      .selectFrom('idempotency_keys')
      .select(['status', 'resource_id'])
      .where('api_key_id', '=', keyId)
      .where('key', '=', 'w2')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'running', resource_id: null });
    await releaseIdempotent(tdb.db, c);
    expect(await beginIdempotent(tdb.db, req('w2'))).toMatchObject({ kind: 'new' });
  });

  it('a claim taken over by a retry can no longer commit: its work rolls back, and only the retry commits (no duplicate however the clocks disagree)', async () => {
    const slow = await claim(req('w3'));
    await age('w3', IDEMPOTENCY_LEASE_MS + 1_000);
    const retry = await claim(req('w3'));
    expect(retry.claimId).not.toBe(slow.claimId);
    await expect(
      tdb.db.transaction().execute(async (tx) => {
        await work('w3').execute(tx);
        await commitIdempotentOutcome(tx, slow, { resource: { type: 'template', id: 1 } });
      }),
    ).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    expect(await workDone('w3')).toBe(0);
    await tdb.db.transaction().execute(async (tx) => {
      await work('w3').execute(tx);
      await commitIdempotentOutcome(tx, retry, { resource: { type: 'template', id: 2 } });
    });
    expect(await workDone('w3')).toBe(1);
    expect(await beginIdempotent(tdb.db, req('w3'))).toMatchObject({
      kind: 'committed',
      outcome: { resourceId: '2' },
    });
    // The stored answer replaces the rebuilt one once the claim's holder stores it.
    await completeIdempotent(tdb.db, retry, 201, '{"id":2}');
    expect(await beginIdempotent(tdb.db, req('w3'))).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"id":2}',
    });
  });
});

describe('Every idempotent operation commits its outcome with its work: the retry after a committed but unanswered run gets the committed result and never runs it again (issue 41)', () => {
  let h: CoreHarness;
  let acct: TestAccount;
  beforeAll(async () => {
    h = await startCore();
    acct = await h.account({ credits: 5, billingCountry: 'US' });
  });
  afterAll(() => h?.close());

  type Caller = ReturnType<typeof createCaller>;
  const logger = createLogger('silent', 'test');
  const ctxWith = async (idempotency: IdempotencyClaim | null) =>
    createContext({
      db: h.db,
      logger,
      config: h.config,
      deps: h.deps,
      actor: await h.actor(acct.key),
      source: 'api',
      now: () => h.clock.now ?? new Date(),
      idempotency,
    });

  /**
   * One request under `key` as the REST adapter serves it: claims the key; a new claim runs `op`
   * with the claim (the process then dies: no answer stored, its lease runs out); a committed one
   * is answered from what its work made, as the adapter does, without running `op`. Returns how the
   * key started and the answer (as JSON, like the adapter's).
   */
  async function serve(key: string, path: string, op: (c: Caller) => Promise<unknown>) {
    const r: IdempotencyRequest = { apiKeyId: acct.keyId, path, key, requestHash: `hash-${key}` };
    const start = await beginIdempotent(h.db, r);
    if (start.kind === 'replay') return { kind: start.kind, answer: JSON.parse(start.body) as unknown };
    if (start.kind === 'committed') {
      const body = await replayCommittedOutcome(await ctxWith(start.claim), start.outcome);
      return { kind: start.kind, answer: JSON.parse(body) as unknown };
    }
    const answer = JSON.parse(JSON.stringify(await op(createCaller(await ctxWith(start.claim))))) as unknown;
    // kill -9 here: the work committed, its answer was never stored, nobody renews its lease.
    await age(key, IDEMPOTENCY_LEASE_MS + 1_000, h.db, acct.keyId);
    return { kind: start.kind, answer };
  }

  /** Serves `op` twice under one key, the first run dying after its commit; both answers. */
  async function crashThenRetry(key: string, path: string, op: (c: Caller) => Promise<unknown>) {
    // One instant for both: the answer's signed file links name their expiry; a rebuilt answer
    // shows the resource as it is at the retry, so its links are fresh ones.
    h.clock.now = new Date();
    const first = await serve(key, path, op);
    expect(first.kind).toBe('new');
    const retry = await serve(key, path, op);
    expect(retry.kind).toBe('committed');
    expect(retry.answer).toEqual(first.answer);
    h.clock.now = null;
    return first.answer as { id: number | string };
  }

  const count = async (table: 'templates' | 'checkouts' | 'bulk_sends') =>
    (
      await h.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('account_id', '=', acct.accountId)
        .executeTakeFirstOrThrow()
    ).n;
  const audits = async (type: string) =>
    (
      await h.db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('account_id', '=', acct.accountId)
        .where('type', '=', type)
        .executeTakeFirstOrThrow()
    ).n;
  const sendTo = (c: Caller, templateId: number) =>
    c.signatureRequests.create({
      template_id: templateId,
      signers: [
        { name: 'Cleo Client', email: 'cleo@example.com' },
        { name: 'Andy Agent', email: 'andy@example.com' },
      ],
      signing_order: 'parallel',
    });

  it('templates.create (POST /templates): one template, the retry gets it', async () => {
    const before = Number(await count('templates'));
    const tpl = await crashThenRetry('t-create', '/api/v1/templates', (c) => twoRoleTemplate(c));
    expect(Number(await count('templates'))).toBe(before + 1);
    expect(tpl).toMatchObject({ object: 'template', name: 'Service Agreement' });
  });

  it('templates.duplicate (POST /templates/{id}/duplicate): one copy, the retry gets that copy', async () => {
    const original = await twoRoleTemplate(createCaller(await ctxWith(null)));
    const before = Number(await count('templates'));
    const copy = await crashThenRetry('t-dup', `/api/v1/templates/${original.id}/duplicate`, (c) =>
      c.templates.duplicate({ id: original.id }),
    );
    expect(copy.id).not.toBe(original.id);
    expect(Number(await count('templates'))).toBe(before + 1);
  });

  it('templates.archive (POST /templates/{id}/archive): archived once, the retry gets the archived template', async () => {
    const tpl = await twoRoleTemplate(createCaller(await ctxWith(null)));
    const archived = await crashThenRetry('t-archive', `/api/v1/templates/${tpl.id}/archive`, (c) =>
      c.templates.archive({ id: tpl.id }),
    );
    expect(archived).toMatchObject({ id: tpl.id, archived_at: expect.any(String) });
  });

  it('signatureRequests.cancel (POST /signature_requests/{id}/cancel): the retry gets the canceled request', async () => {
    const c = createCaller(await ctxWith(null));
    const sent = await sendTo(c, (await twoRoleTemplate(c)).id);
    const canceled = await crashThenRetry('r-cancel', `/api/v1/signature_requests/${sent.id}/cancel`, (c) =>
      c.signatureRequests.cancel({ id: sent.id }),
    );
    expect(canceled).toMatchObject({ id: sent.id, status: 'canceled' });
  });

  it('signatureRequests.remind (POST /signature_requests/{id}/remind): reminded once; the retry gets the committed answer (stored with the work), not 429 remind_too_soon', async () => {
    const c = createCaller(await ctxWith(null));
    const sent = await sendTo(c, (await twoRoleTemplate(c)).id);
    const reminder = await crashThenRetry('r-remind', `/api/v1/signature_requests/${sent.id}/remind`, (c) =>
      c.signatureRequests.remind({ id: sent.id }),
    );
    expect(reminder).toEqual({
      object: 'reminder',
      signature_request_id: sent.id,
      reminded_signer_ids: sent.signers.map((s) => s.id).sort((a, b) => a - b),
    });
    expect(Number(await audits('request.reminded'))).toBe(1);
  });

  it('billing.createCheckout (POST /checkouts): one checkout, the retry gets it with its payment link', async () => {
    const pack = await makePack(h.db, { credits: 5, price: 500 });
    const before = Number(await count('checkouts'));
    const checkout = await crashThenRetry('b-checkout', '/api/v1/checkouts', (c) =>
      c.billing.createCheckout({ credit_pack_id: pack.id }),
    );
    expect(checkout).toMatchObject({ status: 'pending', checkout_url: expect.any(String) });
    expect(Number(await count('checkouts'))).toBe(before + 1);
  });

  it('bulkSends.create (POST /bulk_sends): one batch, the retry gets it', async () => {
    const c = createCaller(await ctxWith(null));
    const tpl = await twoRoleTemplate(c);
    const before = Number(await count('bulk_sends'));
    const batch = await crashThenRetry('bulk-create', '/api/v1/bulk_sends', (c) =>
      c.bulkSends.create({
        template_id: tpl.id,
        file: Buffer.from(
          'Client,Client email,Agent,Agent email\r\nCleo,cleo@example.com,Andy,andy@example.com',
        ).toString('base64'),
        file_name: 'one.csv',
        mapping: {
          signers: [
            { role: 'Client', name: 'Client', email: 'Client email' },
            { role: 'Agent', name: 'Agent', email: 'Agent email' },
          ],
        },
      }),
    );
    expect(batch).toMatchObject({ object: 'bulk_send', status: 'queued' });
    expect(Number(await count('bulk_sends'))).toBe(before + 1);
  });

  it('bulkSends.resume (POST /bulk_sends/{id}/resume): resumed once, the retry gets the queued batch', async () => {
    acct = await h.account({ credits: 1 }); // its batch stops when its one credit is gone
    const c = createCaller(await ctxWith(null));
    const tpl = await twoRoleTemplate(c);
    const rows = ['Cleo', 'Dora', 'Emil'].map(
      (n) => `${n},${n.toLowerCase()}@example.com,Andy,andy@example.com`,
    );
    const batch = await c.bulkSends.create({
      template_id: tpl.id,
      file: Buffer.from(['Client,Client email,Agent,Agent email', ...rows].join('\r\n')).toString('base64'),
      file_name: 'three.csv',
      mapping: {
        signers: [
          { role: 'Client', name: 'Client', email: 'Client email' },
          { role: 'Agent', name: 'Agent', email: 'Agent email' },
        ],
      },
    });
    // Credits run out mid-batch: the batch stops with rows left.
    await processBulkSend(h.sc, batch.id, { maxRows: 1 });
    await grantCredits(h.db, acct.accountId, { credits: -1, note: 'spent elsewhere', now: new Date() });
    await processBulkSend(h.sc, batch.id);
    expect(await c.bulkSends.get({ id: batch.id })).toMatchObject({ status: 'stopped' });
    await grantCredits(h.db, acct.accountId, { credits: 1, note: 'bought', now: new Date() });
    const resumed = await crashThenRetry('bulk-resume', `/api/v1/bulk_sends/${batch.id}/resume`, (c) =>
      c.bulkSends.resume({ id: batch.id }),
    );
    expect(resumed).toMatchObject({ id: batch.id, status: 'queued' });
  });
});
