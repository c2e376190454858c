import { appRouter } from '@esign/core';
import { resourceFactories, sampleBodies } from '@esign/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { restRoutes } from '../src/routes.ts';

// The spec's Authentication rules and rate-limit headers, driven over every REST route at once.
const routes = restRoutes(appRouter);
const READ_ONLY_WRITES = new Set(['POST /documents/verify', 'POST /feedback']);

let t: TestApp;
let owner: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 10 });
  other = await createTestAccount(t.db, { credits: 10 });
});
afterAll(() => t.close());

async function concretePath(path: string, account: TestAccount): Promise<string> {
  let out = path;
  for (const [, param] of path.matchAll(/\{(\w+)\}/g)) {
    const factory =
      resourceFactories[`${path.replace(/\/(duplicate|archive|cancel|remind)$/, '')}:${param}`] ??
      resourceFactories[param!];
    if (!factory)
      throw new Error(
        `no resource factory for {${param}} in ${path}: add one to packages/testing/src/fixtures.ts`,
      );
    out = out.replace(`{${param}}`, await factory(t, account));
  }
  return out;
}

type Route = (typeof routes)[number];
const nameOf = (r: Route) => `${r.method} ${r.path}`;
const table = (rs: Route[]) => rs.map((r) => [nameOf(r), r] as const);
const isWrite = (r: Route) => r.method !== 'GET';
const hasId = (r: Route) => /\{\w+\}/.test(r.path);

/** Each rule runs over exactly the routes it applies to: a skip would mean a route is missing. */
const RULE_ROUTES = {
  everyRoute: routes,
  readOnlyRefused: routes.filter((r) => isWrite(r) && !READ_ONLY_WRITES.has(nameOf(r))),
  readOnlyAllowed: routes.filter((r) => !isWrite(r) || READ_ONLY_WRITES.has(nameOf(r))),
  withId: routes.filter(hasId),
};

const body = async (route: Route, account: TestAccount = owner) =>
  isWrite(route) ? ((await sampleBodies[nameOf(route)]?.(t, account)) ?? {}) : undefined;
const call = async (route: Route, pathOwner: TestAccount, key: string | undefined) =>
  t.api(route.method, (await concretePath(route.path, pathOwner)).slice(1), {
    key,
    body: await body(route),
  });

describe('the rule tables', () => {
  it('every rule applies to at least one route; the read-only exceptions name real routes', () => {
    for (const [rule, rs] of Object.entries(RULE_ROUTES)) expect(rs.length, rule).toBeGreaterThan(0);
    for (const name of READ_ONLY_WRITES) expect(routes.map(nameOf)).toContain(name);
  });
});

describe.each(table(RULE_ROUTES.everyRoute))('%s', (_name, route) => {
  it('Authentication 6: a missing key is 401 unauthenticated', async () => {
    const res = await call(route, owner, undefined);
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthenticated']);
  });

  it('Authentication 6: a malformed key is 401 unauthenticated', async () => {
    const res = await call(route, owner, 'svc_live_short');
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthenticated']);
  });

  it('Authentication 6: a revoked key is 401 unauthenticated', async () => {
    const k = await owner.newKey();
    await t.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', k.id).execute();
    const res = await call(route, owner, k.key);
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthenticated']);
  });

  it('Authentication 6: an expired key is 401 api_key_expired', async () => {
    const k = await owner.newKey({ expiresAt: new Date(Date.now() - 1000) });
    const res = await call(route, owner, k.key);
    expect([res.status, res.body.error.code]).toEqual([401, 'api_key_expired']);
  });

  it('Authentication 6: a key whose account is archived is 401 unauthenticated', async () => {
    const archived = await createTestAccount(t.db, { credits: 5 });
    const path = (await concretePath(route.path, archived)).slice(1);
    const payload = await body(route, archived);
    await t.db
      .updateTable('accounts')
      .set({ archived_at: new Date() })
      .where('id', '=', archived.accountId)
      .execute();
    const res = await t.api(route.method, path, { key: archived.key, body: payload });
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthenticated']);
  });

  it('Limits: every authenticated response carries RateLimit-Limit/Remaining/Reset', async () => {
    const res = await call(route, owner, owner.key);
    expect(res.headers.get('ratelimit-limit')).toBe('300');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
    const reset = Number(res.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
  });
});

describe('Authentication 5: a read-only key on any other write is 403 read_only_api_key', () => {
  it.each(table(RULE_ROUTES.readOnlyRefused))('%s', async (_name, route) => {
    const k = await owner.newKey({ permission: 'read' });
    const res = await call(route, owner, k.key);
    expect([res.status, res.body.error.code]).toEqual([403, 'read_only_api_key']);
  });
});

describe('Authentication 5: a read-only key may call any GET, POST /documents/verify and POST /feedback', () => {
  it.each(table(RULE_ROUTES.readOnlyAllowed))('%s', async (_name, route) => {
    const k = await owner.newKey({ permission: 'read' });
    const res = await call(route, owner, k.key);
    expect(res.status, res.text).toBeLessThan(300);
  });
});

describe("Authentication 6: another account's resource is 404 not_found", () => {
  it.each(table(RULE_ROUTES.withId))('%s', async (_name, route) => {
    const res = await call(route, other, owner.key);
    expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
  });
});

describe('Authentication 3: live and test data never mix (a live resource is 404 to a test key)', () => {
  it.each(table(RULE_ROUTES.withId))('%s', async (_name, route) => {
    const testKey = await owner.newKey({ environment: 'test' });
    const res = await call(route, owner, testKey.key);
    expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
  });
});

describe('GET /me and GET /credits', () => {
  it('Me: reports user, account, environment and key (default name "Default key")', async () => {
    const res = await t.api('GET', 'me', { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'me',
      user: { id: owner.userId, email: owner.email, name: expect.any(String) },
      account: { id: owner.accountId, name: expect.any(String) },
      environment: 'live',
      api_key: { id: owner.keyId, name: 'Default key', permission: 'full', expires_at: null },
    });
  });

  it('Me: a svc_test_ key reports environment test and its permission', async () => {
    const k = await owner.newKey({ environment: 'test', permission: 'read' });
    expect(k.key.startsWith('svc_test_')).toBe(true);
    const res = await t.api('GET', 'me', { key: k.key });
    expect(res.body.environment).toBe('test');
    expect(res.body.api_key.permission).toBe('read');
  });

  it('Credits: balance from the ledger, overdraft_limit, can_send, billing, purchase_url', async () => {
    const res = await t.api('GET', 'credits', { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'credits',
      unlimited: false,
      available: 10,
      overdraft_limit: 0,
      can_send: true,
      billing: expect.any(String),
      purchase_url: `${t.baseUrl}/billing`,
    });
  });

  it('Credits: lifetime accounts are unlimited with available null', async () => {
    const life = await createTestAccount(t.db, { lifetime: true });
    const res = await t.api('GET', 'credits', { key: life.key });
    expect(res.body).toMatchObject({ unlimited: true, available: null, can_send: true });
  });

  it('Credits: can_send is false once the balance reached overdraft_limit', async () => {
    const broke = await createTestAccount(t.db, { overdraft: -2 });
    await t.db
      .insertInto('credit_ledger')
      .values({ account_id: broke.accountId, delta: -2, reason: 'consume' })
      .execute();
    const res = await t.api('GET', 'credits', { key: broke.key });
    expect(res.body).toMatchObject({ available: -2, overdraft_limit: -2, can_send: false });
  });
});
