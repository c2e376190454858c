import { createTestAccount, type TestAccount } from '@esign/testing/accounts';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, presentedKind } from '../src/authenticate.ts';
import { guardedClientFetch } from '../src/services/oauth/client-documents.ts';
import { pruneUnusedOAuthClients, saveClient, UNUSED_CLIENT_HOURS } from '../src/services/oauth/clients.ts';
import { mcpResource, oauthSubject, parseOAuthSubject } from '../src/services/oauth/rules.ts';
import { consumeRecord, findRecord, revokeGrantRecords, upsertRecord } from '../src/services/oauth/store.ts';

const PUBLIC_URL = 'http://localhost:3000';
const MCP = { allow: ['oauth', 'api_key'] as const, publicUrl: PUBLIC_URL };
const REST = { allow: ['api_key'] as const, publicUrl: PUBLIC_URL };

let tdb: TestDatabase;
let owner: TestAccount;
beforeAll(async () => {
  tdb = await createTestDatabase();
  owner = await createTestAccount(tdb.db);
});
afterAll(() => tdb.drop());

let counter = 0;
/** A grant and an access token as the authorization server stores them (oidc-provider's payloads). */
async function issue(opts: { aud?: string; scope?: string; env?: 'live' | 'test'; ttl?: number } = {}) {
  counter += 1;
  const now = new Date();
  const accountId = oauthSubject(owner.userId, opts.env ?? 'live');
  const grantId = `grant-${counter}`;
  const token = `access-token-${counter}-${'x'.repeat(30)}`;
  await tdb.db.transaction().execute((tx) =>
    upsertRecord(tx, 'Grant', {
      id: grantId,
      payload: { jti: grantId, kind: 'Grant', accountId, clientId: 'c1' },
      expiresInSeconds: 3600,
      now,
    }),
  );
  await tdb.db.transaction().execute((tx) =>
    upsertRecord(tx, 'AccessToken', {
      id: token,
      payload: {
        jti: token,
        kind: 'AccessToken',
        accountId,
        clientId: 'c1',
        grantId,
        scope: opts.scope ?? 'read write',
        aud: opts.aud ?? mcpResource(PUBLIC_URL),
      },
      expiresInSeconds: opts.ttl ?? 3600,
      now,
    }),
  );
  return { token, grantId, issuedAt: now };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('OAuth access tokens on /mcp (Authentication rule 8)', () => {
  it('an OAuth token acts as the approving user, in their account, role and side; write scope allows changes', async () => {
    const full = await issue();
    expect(await authenticate(tdb.db, bearer(full.token), { now: new Date(), ...MCP })).toMatchObject({
      kind: 'oauth',
      userId: owner.userId,
      accountId: owner.accountId,
      environment: 'live',
      userRole: 'admin',
      oauthClientId: 'c1',
      apiKeyId: null,
      canWrite: true,
    });
    const view = await issue({ scope: 'read', env: 'test' });
    expect(await authenticate(tdb.db, bearer(view.token), { now: new Date(), ...MCP })).toMatchObject({
      canWrite: false,
      environment: 'test',
    });
  });

  it('a token bound to another resource (resource indicator) is refused 401', async () => {
    const other = await issue({ aud: 'https://elsewhere.example/mcp' });
    await expect(
      authenticate(tdb.db, bearer(other.token), { now: new Date(), ...MCP }),
    ).rejects.toMatchObject({
      code: 'unauthenticated',
      message: expect.stringContaining(`not for ${mcpResource(PUBLIC_URL)}`),
    });
  });

  it('MCP tokens last one hour: past its expiry (by the caller clock) a token is refused 401', async () => {
    const { token, issuedAt } = await issue();
    const at = (ms: number) => new Date(issuedAt.getTime() + ms);
    await expect(authenticate(tdb.db, bearer(token), { now: at(3599_000), ...MCP })).resolves.toMatchObject({
      kind: 'oauth',
    });
    await expect(authenticate(tdb.db, bearer(token), { now: at(3600_000), ...MCP })).rejects.toMatchObject({
      code: 'unauthenticated',
    });
  });

  it('a revoked grant (disconnected app, reused refresh token) or a removed member ends the token', async () => {
    const revoked = await issue();
    await revokeGrantRecords(tdb.db, [revoked.grantId]);
    await expect(
      authenticate(tdb.db, bearer(revoked.token), { now: new Date(), ...MCP }),
    ).rejects.toMatchObject({
      code: 'unauthenticated',
    });
    const other = await issue();
    await tdb.db
      .updateTable('users')
      .set({ disabled_at: new Date() })
      .where('id', '=', owner.userId)
      .execute();
    try {
      await expect(
        authenticate(tdb.db, bearer(other.token), { now: new Date(), ...MCP }),
      ).rejects.toMatchObject({
        code: 'unauthenticated',
      });
    } finally {
      await tdb.db.updateTable('users').set({ disabled_at: null }).where('id', '=', owner.userId).execute();
    }
  });

  it('OAuth tokens work only on the MCP endpoint: REST answers 401 naming API keys', async () => {
    const { token } = await issue();
    expect(presentedKind(bearer(token))).toBe('oauth');
    expect(presentedKind(bearer(owner.key))).toBe('api_key');
    await expect(authenticate(tdb.db, bearer(token), { now: new Date(), ...REST })).rejects.toMatchObject({
      code: 'unauthenticated',
      message: expect.stringContaining('OAuth access tokens work only on the MCP endpoint'),
    });
  });
});

describe('the authorization server store (oauth_records)', () => {
  it('tokens are stored hashed: no column holds the token value, and the payload has no id', async () => {
    const { token } = await issue();
    const dump = await sql<{ t: string }>`select string_agg(o::text, ' ') as t from oauth_records o`.execute(
      tdb.db,
    );
    expect(dump.rows[0]!.t).not.toContain(token);
    expect((await findRecord(tdb.db, 'AccessToken', { id: token, now: new Date() }))?.jti).toBe(token);
  });

  it('consuming a record (a rotated refresh token) marks it once; it is then seen as consumed', async () => {
    const now = new Date();
    await tdb.db.transaction().execute((tx) =>
      upsertRecord(tx, 'RefreshToken', {
        id: 'rt-1',
        payload: { kind: 'RefreshToken', grantId: 'g' },
        expiresInSeconds: 60,
        now,
      }),
    );
    expect((await findRecord(tdb.db, 'RefreshToken', { id: 'rt-1', now }))?.consumed).toBeUndefined();
    expect(await consumeRecord(tdb.db, 'RefreshToken', { id: 'rt-1', now })).toBe(true);
    const later = new Date(now.getTime() + 5000);
    expect(await consumeRecord(tdb.db, 'RefreshToken', { id: 'rt-1', now: later })).toBe(false);
    expect((await findRecord(tdb.db, 'RefreshToken', { id: 'rt-1', now: later }))?.consumed).toBe(
      Math.floor(now.getTime() / 1000),
    );
    expect(
      await findRecord(tdb.db, 'RefreshToken', { id: 'rt-1', now: new Date(now.getTime() + 61_000) }),
    ).toBeUndefined();
  });

  it('a refresh token extends its grant: a connection lives as long as its newest refresh token', async () => {
    const now = new Date();
    await tdb.db.transaction().execute((tx) =>
      upsertRecord(tx, 'Grant', {
        id: 'g-extend',
        payload: { kind: 'Grant', accountId: oauthSubject(owner.userId, 'live') },
        expiresInSeconds: 60,
        now,
      }),
    );
    await tdb.db.transaction().execute((tx) =>
      upsertRecord(tx, 'RefreshToken', {
        id: 'rt-extend',
        payload: { kind: 'RefreshToken', grantId: 'g-extend' },
        expiresInSeconds: 3600,
        now,
      }),
    );
    expect(
      await findRecord(tdb.db, 'Grant', { id: 'g-extend', now: new Date(now.getTime() + 3000_000) }),
    ).toBeDefined();
  });

  it('subjects: `<user id>:<live|test>` and nothing else', () => {
    expect(parseOAuthSubject(oauthSubject(12, 'test'))).toEqual({ userId: 12, environment: 'test' });
    for (const bad of ['12', '12:prod', '0:live', 'x:live', 12, null])
      expect(parseOAuthSubject(bad)).toBeNull();
  });
});

describe('client ID metadata documents are fetched through the outbound guard', () => {
  it('a loopback or private address is refused without the test override, and only https is fetched', async () => {
    const fetchDocument = guardedClientFetch({ storage: undefined as never });
    await expect(fetchDocument('https://127.0.0.1:9/client.json')).rejects.toThrow(
      /not allowed|private|loopback/i,
    );
    await expect(fetchDocument('https://10.0.0.8/client.json')).rejects.toThrow(/not allowed|private/i);
    await expect(
      guardedClientFetch({ storage: undefined as never, outbound: { allowPrivate: true } })(
        'http://127.0.0.1:9/c.json',
      ),
    ).rejects.toThrow(/protocol|https/i);
  });
});

describe('registered clients that never connect are removed (open registration cannot grow the table without bound)', () => {
  const HOUR = 3_600_000;
  const register = (id: string, at: Date) =>
    saveClient(tdb.db, id, {
      metadata: { client_name: id, redirect_uris: ['http://127.0.0.1/cb'] },
      metadataUrl: null,
      now: at,
    });
  const exists = async (id: string) =>
    !!(await tdb.db.selectFrom('oauth_clients').select('id').where('id', '=', id).executeTakeFirst());

  it(`after ${UNUSED_CLIENT_HOURS} h without any record; a client with a connection, a newer one and one set apart by an operator stay`, async () => {
    const now = new Date();
    const old = new Date(now.getTime() - (UNUSED_CLIENT_HOURS + 1) * HOUR);
    await register('prune-unused', old);
    await register('prune-recent', new Date(now.getTime() - (UNUSED_CLIENT_HOURS - 1) * HOUR));
    await register('prune-connected', old);
    await register('prune-hidden', old);
    await tdb.db
      .updateTable('oauth_clients')
      .set({ purchases_hidden: true })
      .where('id', '=', 'prune-hidden')
      .execute();
    await tdb.db.transaction().execute((tx) =>
      upsertRecord(tx, 'Grant', {
        id: 'prune-grant',
        payload: {
          jti: 'prune-grant',
          kind: 'Grant',
          accountId: oauthSubject(owner.userId, 'live'),
          clientId: 'prune-connected',
        },
        expiresInSeconds: 3600,
        now,
      }),
    );
    expect(await pruneUnusedOAuthClients(tdb.db, now)).toBe(1);
    expect(await exists('prune-unused')).toBe(false);
    for (const id of ['prune-recent', 'prune-connected', 'prune-hidden']) expect(await exists(id)).toBe(true);
    // Once its connection ends, the connected client goes too (a day after it last changed).
    await revokeGrantRecords(tdb.db, ['prune-grant']);
    expect(await pruneUnusedOAuthClients(tdb.db, now)).toBe(1);
    expect(await exists('prune-connected')).toBe(false);
  });
});
