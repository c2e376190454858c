import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { createTestAccount } from '../../../test/harness.ts';
import {
  beginIdempotent,
  completeIdempotent,
  IDEMPOTENCY_LEASE_MS,
  type IdempotencyRequest,
  releaseIdempotent,
} from '../src/index.ts';

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
const now = new Date('2030-01-01T00:00:00Z');

describe('Idempotency rules', () => {
  it('rule 2: the first success is stored and a retry replays it', async () => {
    expect(await beginIdempotent(tdb.db, req('a'), now)).toEqual({ kind: 'new' });
    await completeIdempotent(tdb.db, req('a'), 201, '{"id":1}');
    expect(await beginIdempotent(tdb.db, req('a'), now)).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"id":1}',
    });
  });

  it('rule 2: records are per key and path, and last 24 hours', async () => {
    await beginIdempotent(tdb.db, req('b'), now);
    await completeIdempotent(tdb.db, req('b'), 200, 'x');
    expect(await beginIdempotent(tdb.db, req('b', 'h1', '/api/v1/other'), now)).toEqual({ kind: 'new' });
    const later = new Date(now.getTime() + 24 * 3600_000 + 1000);
    expect(await beginIdempotent(tdb.db, req('b'), later)).toEqual({ kind: 'new' });
  });

  it('rule 3: failed responses are not stored; the key can be retried', async () => {
    await beginIdempotent(tdb.db, req('c'), now);
    await releaseIdempotent(tdb.db, req('c'));
    expect(await beginIdempotent(tdb.db, req('c'), now)).toEqual({ kind: 'new' });
  });

  it('rule 4: while the first request runs, a retry is 409 idempotency_key_in_use', async () => {
    await beginIdempotent(tdb.db, req('d'), now);
    await expect(beginIdempotent(tdb.db, req('d'), now)).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
  });

  it('rule 5: the same key with a different body is 422 idempotency_key_reused', async () => {
    await beginIdempotent(tdb.db, req('e'), now);
    await completeIdempotent(tdb.db, req('e'), 201, '{}');
    await expect(beginIdempotent(tdb.db, req('e', 'other-hash'), now)).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it('rule 1: keys longer than 255 characters are rejected', async () => {
    await expect(beginIdempotent(tdb.db, req('k'.repeat(256)), now)).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
    expect(await beginIdempotent(tdb.db, req('k'.repeat(255)), now)).toEqual({ kind: 'new' });
  });

  it('concurrent retries across connections: exactly one runs, the others get 409', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => beginIdempotent(tdb.db, req('race'), now)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason.code).toBe('idempotency_key_in_use');
    }
  });

  it('a claim held by a living process is renewed: its lease moves on while the request runs, and stops once it is released (issue 27.4)', {
    timeout: 30_000,
  }, async () => {
    const started = new Date();
    const lockedUntil = async (key: string) =>
      (
        await tdb.db
          .selectFrom('idempotency_keys')
          .select('locked_until')
          .where('api_key_id', '=', keyId)
          .where('key', '=', key)
          .executeTakeFirstOrThrow()
      ).locked_until.getTime();
    expect(await beginIdempotent(tdb.db, req('held'), started)).toEqual({ kind: 'new' });
    const first = await lockedUntil('held');
    expect(first).toBe(started.getTime() + IDEMPOTENCY_LEASE_MS);
    // One renewal interval later the lease reaches further than the claim's first one.
    await new Promise((r) => setTimeout(r, 6_000));
    const renewed = await lockedUntil('held');
    expect(renewed).toBeGreaterThan(first + 4_000);
    // A retry at a time past the first lease (the renewal is what keeps the claim) is still 409.
    await expect(beginIdempotent(tdb.db, req('held'), new Date(first + 1))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    await completeIdempotent(tdb.db, req('held'), 201, '{}');
    expect(await beginIdempotent(tdb.db, req('held'), new Date(renewed + 1))).toMatchObject({
      kind: 'replay',
    });
  });

  it('a running record whose process died is taken over once its lease (seconds, not minutes) runs out (issue 27.4)', async () => {
    await beginIdempotent(tdb.db, req('lapsed'), now);
    await expect(
      beginIdempotent(tdb.db, req('lapsed'), new Date(now.getTime() + 5_000)),
    ).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    expect(
      await beginIdempotent(tdb.db, req('lapsed'), new Date(now.getTime() + IDEMPOTENCY_LEASE_MS + 1)),
    ).toEqual({ kind: 'new' });
    await releaseIdempotent(tdb.db, req('lapsed'));
  });

  it('a running record whose process died is taken over after its lease', async () => {
    await beginIdempotent(tdb.db, req('dead'), now);
    expect(await beginIdempotent(tdb.db, req('dead'), new Date(now.getTime() + 6 * 60_000))).toEqual({
      kind: 'new',
    });
  });
});
