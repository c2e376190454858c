import { parseConfig, sessionSetCookie } from '@esign/core';
import { createAccount } from '@esign/core/operator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

// operations.md §5 over HTTP: the session cookie's flags, CSRF on changes, keys that work on REST.

let t: TestApp;
const password = 'owner password 1';
let n = 0;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

async function call(
  path: string,
  opts: {
    input?: unknown;
    cookie?: string;
    csrf?: string;
    origin?: string | null;
    method?: 'GET' | 'POST';
  } = {},
) {
  const method = opts.method ?? 'POST';
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.csrf) headers['x-csrf-token'] = opts.csrf;
  if (opts.origin !== null) headers.origin = opts.origin ?? t.baseUrl;
  let url = `${t.baseUrl}/trpc/${path}`;
  let body: string | undefined;
  if (method === 'GET') {
    if (opts.input !== undefined) url += `?input=${encodeURIComponent(JSON.stringify(opts.input))}`;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.input ?? {});
  }
  const res = await fetch(url, { method, headers, body });
  const json = (await res.json()) as {
    result?: { data: any };
    error?: { message: string; data: { code: string } };
  };
  return {
    res,
    data: json.result?.data,
    error: json.error ? { code: json.error.data.code, message: json.error.message } : null,
  };
}

/** A new account's admin signs in (each test its own, so sign-in rate limits stay out of the way). */
async function signIn() {
  const email = `owner-${++n}-${Date.now()}@example.com`;
  await t.db
    .transaction()
    .execute((tx) =>
      createAccount(tx, { email, password, name: 'Owner', accountName: 'Owner Co' }, new Date()),
    );
  const r = await call('auth.signIn', { input: { email, password } });
  expect(r.error).toBeNull();
  const setCookie = r.res.headers.get('set-cookie')!;
  const cookie = setCookie.split(';')[0]!;
  const session = await call('auth.session', { method: 'GET', cookie });
  return { setCookie, cookie, csrf: session.data.session.csrf_token as string };
}

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/ and expires with the session', async () => {
    const { setCookie } = await signIn();
    expect(setCookie).toMatch(/^esign_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; Expires=/);
    expect(setCookie).not.toMatch(/Domain=/);
  });

  it('is Secure and __Host- prefixed when PUBLIC_URL is https', () => {
    const config = parseConfig({ PUBLIC_URL: 'https://sign.example.com' });
    const header = sessionSetCookie(config, 'x'.repeat(43), new Date(Date.now() + 60_000));
    expect(header).toMatch(/^__Host-esign_session=/);
    expect(header).toMatch(/; Secure/);
  });

  it('signs out: the cookie is cleared and no longer works', async () => {
    const s = await signIn();
    const out = await call('auth.signOut', { cookie: s.cookie, csrf: s.csrf });
    expect(out.res.headers.get('set-cookie')).toMatch(/^esign_session=; .*Expires=Thu, 01 Jan 1970/);
    const after = await call('auth.session', { method: 'GET', cookie: s.cookie });
    expect(after.data.session).toBeNull();
  });
});

describe('CSRF protection', () => {
  it('a change without the X-CSRF-Token header is refused with 403 forbidden and changes nothing', async () => {
    const s = await signIn();
    const before = await t.db.selectFrom('api_keys').select('id').execute();
    const r = await call('apiKeys.create', {
      cookie: s.cookie,
      input: { environment: 'live', permission: 'full' },
    });
    expect(r.error?.code).toBe('forbidden');
    expect(r.error?.message).toMatch(/reload the page/);
    expect(await t.db.selectFrom('api_keys').select('id').execute()).toHaveLength(before.length);
  });

  it('a change from another origin is refused even with the token', async () => {
    const s = await signIn();
    const r = await call('apiKeys.create', {
      cookie: s.cookie,
      csrf: s.csrf,
      origin: 'https://evil.example',
      input: { environment: 'live', permission: 'full' },
    });
    expect(r.error?.code).toBe('forbidden');
  });

  it('with the token, a key is created that works on the REST API until it is revoked (then 401)', async () => {
    const s = await signIn();
    const created = await call('apiKeys.create', {
      cookie: s.cookie,
      csrf: s.csrf,
      input: { environment: 'live', permission: 'full', name: 'Zapier' },
    });
    expect(created.error).toBeNull();
    const key = created.data.key as string;
    expect((await t.api('GET', 'me', { key })).status).toBe(200);
    const revoked = await call('apiKeys.revoke', {
      cookie: s.cookie,
      csrf: s.csrf,
      input: { id: created.data.id },
    });
    expect(revoked.error).toBeNull();
    const me = await t.api('GET', 'me', { key });
    expect(me.status).toBe(401);
    expect(me.body.error.code).toBe('unauthenticated');
  });

  it('the signing page procedures still work for a browser that also holds a session cookie', async () => {
    const s = await signIn();
    const r = await call('signing.decline', {
      cookie: s.cookie,
      input: { token: 'not-a-real-token-000000000', reason: 'x' },
    });
    expect(r.error?.code).toBe('not_found');
  });
});
