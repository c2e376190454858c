import { createDb } from '@esign/db';
import { createTestAccount, type TestAccount } from '@esign/testing/accounts';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, authenticateAndLimit, presentedKind } from '../src/authenticate.ts';
import { revokeApiKey } from '../src/services/api-keys.ts';

let tdb: TestDatabase;
let owner: TestAccount;
beforeAll(async () => {
  tdb = await createTestDatabase();
  owner = await createTestAccount(tdb.db);
});
afterAll(() => tdb.drop());

const now = () => new Date();
const REST = { allow: ['api_key'] as const, publicUrl: 'http://localhost:3000' };

describe('authenticate: who is calling, one function for every adapter', () => {
  it('Authentication 1: a Bearer API key resolves to its actor (user, account, environment, permission)', async () => {
    const actor = await authenticate(
      tdb.db,
      { authorization: `Bearer ${owner.key}` },
      { now: now(), ...REST },
    );
    expect(actor).toMatchObject({
      kind: 'api_key',
      accountId: owner.accountId,
      userId: owner.userId,
      apiKeyId: owner.keyId,
      environment: 'live',
      canWrite: true,
    });
  });

  it('Authentication 6: missing, malformed and revoked keys are unauthenticated; expired is api_key_expired', async () => {
    await expect(authenticate(tdb.db, {}, { now: now(), ...REST })).rejects.toMatchObject({
      code: 'unauthenticated',
      message: expect.stringContaining('Missing API key'),
    });
    await expect(
      authenticate(tdb.db, { authorization: 'Bearer nope' }, { now: now(), ...REST }),
    ).rejects.toMatchObject({
      code: 'unauthenticated',
    });
    const expired = await owner.newKey({ expiresAt: new Date(Date.now() - 1000) });
    await expect(
      authenticate(tdb.db, { authorization: `Bearer ${expired.key}` }, { now: now(), ...REST }),
    ).rejects.toMatchObject({ code: 'api_key_expired' });
  });

  it('a credential of a kind the endpoint does not allow is refused; a cookie alone is no credential yet', async () => {
    await expect(
      authenticate(
        tdb.db,
        { authorization: `Bearer ${owner.key}` },
        { now: now(), allow: [], publicUrl: 'http://localhost:3000' },
      ),
    ).rejects.toMatchObject({ code: 'unauthenticated', message: expect.stringContaining('not accepted') });
    expect(presentedKind({ cookie: 'theme=dark' })).toBeNull();
    expect(presentedKind({ authorization: '  ' })).toBeNull();
    expect(presentedKind({ authorization: `Bearer ${owner.key}` })).toBe('api_key');
  });
});

describe('authenticateAndLimit: authenticate, the shared fixed window, the headers', () => {
  it('Limits: the actor and RateLimit-Limit/Remaining/Reset; over the limit, rate_limited with Retry-After', async () => {
    const a = await createTestAccount(tdb.db);
    const credentials = { authorization: `Bearer ${a.key}` };
    const at = new Date('2031-01-01T00:00:10Z');
    const first = await authenticateAndLimit(tdb.db, credentials, { now: at, ...REST, perMinute: 2 });
    expect(first.actor?.apiKeyId).toBe(a.keyId);
    expect(first.headers).toEqual({
      'RateLimit-Limit': '2',
      'RateLimit-Remaining': '1',
      'RateLimit-Reset': '50',
    });
    await authenticateAndLimit(tdb.db, credentials, { now: at, ...REST, perMinute: 2 });
    const third = await authenticateAndLimit(tdb.db, credentials, { now: at, ...REST, perMinute: 2 });
    expect(third.actor).toBeNull();
    expect(third.error?.code).toBe('rate_limited');
    expect(third.headers).toMatchObject({ 'RateLimit-Remaining': '0', 'Retry-After': '50' });
  });

  it('a refused credential gives the error and no RateLimit headers (the response is not authenticated)', async () => {
    const res = await authenticateAndLimit(
      tdb.db,
      { authorization: 'Bearer svc_live_x' },
      { now: now(), ...REST, perMinute: 10 },
    );
    expect(res.error?.code).toBe('unauthenticated');
    expect(res.headers).toEqual({});
  });

  it('Authentication 6 across processes: a key revoked through one pool fails on the next request through another; its window stops counting', async () => {
    const a = await createTestAccount(tdb.db);
    const other = createDb(tdb.url, { max: 2 }); // another process's pool: nothing is cached per process
    try {
      const credentials = { authorization: `Bearer ${a.key}` };
      const at = new Date('2031-02-01T00:00:10Z');
      expect(
        (await authenticateAndLimit(other, credentials, { now: at, ...REST, perMinute: 100 })).actor
          ?.apiKeyId,
      ).toBe(a.keyId);
      await revokeApiKey(tdb.db, a.keyId, at);
      const after = await authenticateAndLimit(other, credentials, { now: at, ...REST, perMinute: 100 });
      expect(after.error).toMatchObject({ code: 'unauthenticated', message: 'Invalid or revoked API key' });
      const window = await sql<{ count: number }>`
        select count from rate_limit_windows where bucket = ${`api_key:${a.keyId}`}`.execute(tdb.db);
      expect(window.rows).toEqual([{ count: 1 }]);
    } finally {
      await other.destroy();
    }
  });
});

describe('API key usability, decided in one place (issue 43: apiKeyRefusalSql, read by both statements)', () => {
  /** Both ways a key is authenticated: alone (authenticate) and with its window (authenticateAndLimit). */
  async function both(key: string, at: Date) {
    const credentials = { authorization: `Bearer ${key}` };
    const alone = await authenticate(tdb.db, credentials, { now: at, ...REST }).catch((err: unknown) => err);
    const counted = await authenticateAndLimit(tdb.db, credentials, { now: at, ...REST, perMinute: 100 });
    return { alone, counted: counted.actor ?? counted.error };
  }
  async function windowCount(keyId: number): Promise<number | undefined> {
    const r = await sql<{ count: number }>`
      select count from rate_limit_windows where bucket = ${`api_key:${keyId}`}`.execute(tdb.db);
    return r.rows[0]?.count;
  }

  it('Authentication 6: revoked, account archived, expired (at `now`, not before) and a read key, each the same through both paths; an unusable key is never counted', async () => {
    const at = new Date('2031-03-01T00:00:10Z');
    const a = await createTestAccount(tdb.db);
    const revoked = await a.newKey();
    await revokeApiKey(tdb.db, revoked.id, at);
    const expiring = await a.newKey({ expiresAt: at });
    const read = await a.newKey({ permission: 'read' });
    const archived = await createTestAccount(tdb.db);
    await sql`update accounts set archived_at = ${at} where id = ${archived.accountId}`.execute(tdb.db);

    const cases = [
      { key: revoked.key, id: revoked.id, code: 'unauthenticated', message: 'Invalid or revoked API key' },
      {
        key: archived.key,
        id: archived.keyId,
        code: 'unauthenticated',
        message: 'The account of this API key is archived',
      },
      {
        key: expiring.key,
        id: expiring.id,
        code: 'api_key_expired',
        message: `This API key expired at ${at.toISOString()}`,
      },
    ];
    for (const c of cases) {
      const { alone, counted } = await both(c.key, at);
      expect(alone).toMatchObject({ code: c.code, message: c.message });
      expect(counted).toMatchObject({ code: c.code, message: c.message });
      expect(await windowCount(c.id)).toBeUndefined();
    }
    // One millisecond before its expiry the key still works, and is counted.
    const before = await both(expiring.key, new Date(at.getTime() - 1));
    expect(before.alone).toMatchObject({ apiKeyId: expiring.id, canWrite: true });
    expect(before.counted).toMatchObject({ apiKeyId: expiring.id, canWrite: true });
    expect(await windowCount(expiring.id)).toBe(1);
    // Permission: a read key authenticates without the write right, through both paths.
    const r = await both(read.key, at);
    expect(r.alone).toMatchObject({ apiKeyId: read.id, canWrite: false, apiKey: { permission: 'read' } });
    expect(r.counted).toMatchObject({ apiKeyId: read.id, canWrite: false, apiKey: { permission: 'read' } });
  });
});
