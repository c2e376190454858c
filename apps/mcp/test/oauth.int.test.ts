import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { updateUser } from '@esign/core/operator';
import {
  auth,
  discoverAuthorizationServerMetadata,
  refreshAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsEnabled, launchChromium } from '../../../apps/web/test/browser.ts';
import { type LoopbackServer, startLoopbackServer } from '../../../packages/webhooks/test/loopback-server.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { MemoryOAuthProvider, Transcript } from './oauth-client.ts';
import { resultData } from './results.ts';

// Authentication rule 8 of the spec, end to end: an MCP client that follows the MCP authorization
// spec (the official SDK's OAuth client) connects with OAuth alone. OAUTH_TRANSCRIPT=<file> writes
// the full flow's requests and answers (secrets redacted); screenshots go to OAUTH_SHOTS or tmp.
const SHOTS = process.env.OAUTH_SHOTS ?? join(tmpdir(), 'esign-oauth');
const PASSWORD = 'correct horse battery staple';
const fixtures = join(import.meta.dirname, '../../../packages/webhooks/test/fixtures');
const cert = readFileSync(join(fixtures, 'hooks.example.test.cert.pem'), 'utf8');
const key = readFileSync(join(fixtures, 'hooks.example.test.key.pem'), 'utf8');

let t: TestApp;
let owner: TestAccount;
let callback: LoopbackServer;
let browser: Browser;
let signedIn: BrowserContext;

const enabled = browserTestsEnabled('MCP OAuth');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Client ID metadata documents are served on loopback: only the outbound guard's test override
  // (as for document downloads) lets the server fetch them.
  t = await startTestApp(
    // The registration limit's test stands for clients at several addresses with X-Forwarded-For.
    { TRUST_PROXY: '127.0.0.1' },
    { outbound: { allowPrivate: true, ca: cert, lookup: async () => ['127.0.0.1'] } },
  );
  owner = await createTestAccount(t.db, { credits: 3 });
  await updateUser(t.db, owner.email, { password: PASSWORD, now: new Date() });
  callback = await startLoopbackServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('Connected: you can close this window');
  });
  if (enabled) {
    browser = await launchChromium();
    signedIn = await browser.newContext();
  }
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await t?.close();
});

const mcpUrl = () => new URL(`${t.baseUrl}/mcp`);
const redirectUri = () => `${callback.origin}/callback`;

/** The browser part: sign in if asked, choose on the consent page, land on the client's redirect. */
async function approve(
  ctx: BrowserContext,
  authorizationUrl: URL,
  choice: 'Full access' | 'View only' | 'Cancel',
  opts: { transcript?: Transcript; shot?: string; email?: string } = {},
): Promise<URLSearchParams> {
  const page: Page = await ctx.newPage();
  if (opts.transcript) opts.transcript.watch(page);
  try {
    await page.goto(authorizationUrl.toString());
    if (new URL(page.url()).pathname === '/login') {
      await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 90_000 });
      if (opts.shot) await page.screenshot({ path: join(SHOTS, `${opts.shot}-sign-in.png`) });
      const form = page.getByRole('tabpanel', { name: 'Password' });
      await form.getByLabel('Email').fill(opts.email ?? owner.email);
      await form.getByLabel('Password').fill(PASSWORD);
      await form.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.getByRole('heading', { name: /^Connect / }).waitFor();
    if (opts.shot) await page.screenshot({ path: join(SHOTS, `${opts.shot}-consent.png`), fullPage: true });
    await page.getByRole('button', { name: choice, exact: true }).click();
    await page.waitForURL((u) => u.toString().startsWith(redirectUri()));
    return new URL(page.url()).searchParams;
  } finally {
    await page.close();
  }
}

/** Connects the SDK client: 401 → discovery → registration (or metadata document) → browser → code exchange. */
async function connectWithOAuth(
  provider: MemoryOAuthProvider,
  choice: 'Full access' | 'View only',
  opts: { transcript?: Transcript; shot?: string; ctx?: BrowserContext } = {},
) {
  const fetchFn = opts.transcript?.fetch();
  const first = new StreamableHTTPClientTransport(mcpUrl(), {
    authProvider: provider,
    ...(fetchFn ? { fetch: fetchFn } : {}),
  });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await expect(client.connect(first)).rejects.toThrow(/Unauthorized/);
  expect(provider.authorizationUrl).toBeDefined();
  opts.transcript?.note(`browser: ${choice}`);
  const params = await approve(opts.ctx ?? signedIn, provider.authorizationUrl!, choice, opts);
  opts.transcript?.note(`redirect to the client: ${[...params.keys()].join(', ')}`);
  await first.finishAuth(params.get('code')!);
  return { params, connect: () => connectClient(provider, fetchFn) };
}

async function connectClient(provider: MemoryOAuthProvider, fetchFn?: ReturnType<Transcript['fetch']>) {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), {
      authProvider: provider,
      ...(fetchFn ? { fetch: fetchFn } : {}),
    }),
  );
  return client;
}

/** A raw MCP call with a bearer token (no SDK retry logic in between). */
async function rawList(token: string) {
  const res = await fetch(`${t.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return { status: res.status, www: res.headers.get('www-authenticate'), body: await res.json() };
}

async function tokenRequest(body: Record<string, string>) {
  const res = await fetch(`${t.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  return { status: res.status, body: await res.json() };
}

describe.runIf(enabled)('MCP OAuth (Authentication rule 8)', () => {
  it('discovery: the 401 names the protected resource metadata, which names this authorization server; its metadata offers S256 only, iss, registration, revocation and metadata documents', async () => {
    const res = await rawList('');
    expect(res.status).toBe(401);
    const prm = await (await fetch(`${t.baseUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({
      resource: `${t.baseUrl}/mcp`,
      authorization_servers: [t.baseUrl],
      scopes_supported: ['read', 'write'],
    });
    expect(await (await fetch(`${t.baseUrl}/.well-known/oauth-protected-resource`)).json()).toEqual(prm);
    const as = await (await fetch(`${t.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: t.baseUrl,
      authorization_endpoint: `${t.baseUrl}/oauth/authorize`,
      token_endpoint: `${t.baseUrl}/oauth/token`,
      registration_endpoint: `${t.baseUrl}/oauth/register`,
      revocation_endpoint: `${t.baseUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      scopes_supported: expect.arrayContaining(['read', 'write']),
    });
    // Dynamic registration (RFC 7591) is open; the client can read its registration back (RFC 7592).
    const registered = await fetch(`${t.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Registered',
        redirect_uris: [redirectUri()],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    const client = await registered.json();
    const read = await fetch(client.registration_client_uri, {
      headers: { authorization: `Bearer ${client.registration_access_token}` },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ client_id: client.client_id, client_name: 'Registered' });
  });

  it('the full flow with the official SDK: registration → authorize → sign in and approve Full access in Chromium → code exchange with PKCE → tools over /mcp as the approving user; refresh rotates; reusing an old refresh token revokes the family; revocation (unknown token → 200)', async () => {
    const transcript = new Transcript(t.baseUrl);
    const provider = new MemoryOAuthProvider(redirectUri(), { name: 'Transcript assistant' });
    const ctx = await browser.newContext();
    transcript.note(
      '1. the client connects without credentials; the SDK discovers, registers and sends the user to /oauth/authorize',
    );
    const { params, connect } = await connectWithOAuth(provider, 'Full access', {
      transcript,
      shot: 'full',
      ctx,
    });
    await ctx.close();
    // RFC 9207: the authorization response names its issuer; the code came with the client's state.
    expect(params.get('iss')).toBe(t.baseUrl);
    expect(params.get('state')).toBe(provider.lastState);
    const tokens = provider.saved!;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
    expect(tokens.refresh_token).toBeTruthy();

    transcript.note('2. tools over /mcp with the access token');
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(
      expect.arrayContaining(['create_template', 'send_signature_request']),
    );
    const me = resultData(await client.callTool({ name: 'get_account', arguments: {} }));
    expect(me).toMatchObject({
      user: { id: owner.userId, email: owner.email },
      account: { id: owner.accountId },
    });
    await client.close();

    transcript.note('3. OAuth tokens are refused on the REST API');
    const rest = await transcript.fetch()(`${t.baseUrl}/api/v1/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(rest.status).toBe(401);

    transcript.note('4. refresh: a new access token and a new refresh token (rotation)');
    const metadata = await discoverAuthorizationServerMetadata(t.baseUrl);
    const refresh = (refreshToken: string) =>
      refreshAuthorization(t.baseUrl, {
        metadata,
        clientInformation: provider.info!,
        refreshToken,
        resource: mcpUrl(),
        fetchFn: transcript.fetch(),
      });
    const rotated = await refresh(tokens.refresh_token!);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.access_token).not.toBe(tokens.access_token);
    expect((await rawList(rotated.access_token)).status).toBe(200);

    transcript.note('5. the old refresh token again: refused, and the whole family is revoked');
    await expect(refresh(tokens.refresh_token!)).rejects.toThrow(InvalidGrantError);
    await expect(refresh(rotated.refresh_token!)).rejects.toThrow(InvalidGrantError);
    const revokedFamily = await rawList(rotated.access_token);
    expect(revokedFamily.status).toBe(401);
    expect(revokedFamily.www).toContain('error="invalid_token"');

    transcript.note('6. revocation (RFC 7009)');
    const second = new MemoryOAuthProvider(redirectUri(), { name: 'Transcript assistant' });
    await connectWithOAuth(second, 'Full access');
    const revoke = (token: string) =>
      transcript.fetch()(`${t.baseUrl}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: second.info!.client_id }).toString(),
      });
    expect((await rawList(second.saved!.access_token)).status).toBe(200);
    expect((await revoke(second.saved!.access_token)).status).toBe(200);
    expect((await rawList(second.saved!.access_token)).status).toBe(401);
    expect((await revoke('never-issued-token')).status).toBe(200);

    if (process.env.OAUTH_TRANSCRIPT) writeFileSync(process.env.OAUTH_TRANSCRIPT, `${transcript}\n`);
  }, 240_000);

  it('View only: only read tools are listed; a write tool called anyway is isError insufficient_scope (403)', async () => {
    const provider = new MemoryOAuthProvider(redirectUri(), { name: 'Viewer assistant' });
    const { connect } = await connectWithOAuth(provider, 'View only', { shot: 'view-only' });
    expect(provider.saved!.scope).toBe('read');
    const client = await connect();
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).toContain('list_templates');
    expect(names).not.toContain('create_template');
    expect(names).not.toContain('send_signature_request');
    const asked = provider.authorizationUrl?.href;
    const refused = await client.callTool({ name: 'archive_template', arguments: { id: 1 } });
    expect(refused.isError).toBe(true);
    expect(resultData(refused).error.code).toBe('insufficient_scope');
    // A tool result, not an HTTP 403 challenge: the SDK client does not step up on its own (docs/mcp.md,
    // "From View only to Full access"; issue 48 item 4); the user authorizes again.
    expect(provider.authorizationUrl?.href).toBe(asked);
    expect(provider.saved!.scope).toBe('read');
    await client.close();
  }, 120_000);

  it('client ID metadata document: a client whose id is an https URL is fetched (through the outbound guard) and approved without registration', async () => {
    const docs = await startLoopbackServer(
      (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            client_id: `https://hooks.example.test:${docs.port}${req.url}`,
            client_name: 'Metadata Document Assistant',
            redirect_uris: [redirectUri()],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          }),
        );
      },
      { cert, key },
    );
    try {
      const clientId = `https://hooks.example.test:${docs.port}/client.json`;
      const provider = new MemoryOAuthProvider(redirectUri(), { name: 'ignored', metadataUrl: clientId });
      const { connect } = await connectWithOAuth(provider, 'Full access', { shot: 'metadata-document' });
      expect(provider.info?.client_id).toBe(clientId);
      expect(docs.requests.some((r) => r.url === '/client.json')).toBe(true);
      // No registration happened: the only client row is the one recorded for the dashboard.
      const row = await t.db
        .selectFrom('oauth_clients')
        .selectAll()
        .where('id', '=', clientId)
        .executeTakeFirst();
      expect(row).toMatchObject({ name: 'Metadata Document Assistant', metadata_url: clientId });
      const client = await connect();
      expect(resultData(await client.callTool({ name: 'get_account', arguments: {} })).user.id).toBe(
        owner.userId,
      );
      await client.close();
    } finally {
      await docs.close();
    }
  }, 120_000);

  it('wrong resource: an authorization or a token request for another resource is refused (invalid_target)', async () => {
    const provider = new MemoryOAuthProvider(redirectUri(), { name: 'Resource assistant' });
    await connectWithOAuth(provider, 'Full access');
    const url = new URL(provider.authorizationUrl!);
    url.searchParams.set('resource', 'https://elsewhere.example/mcp');
    const res = await fetch(url, { redirect: 'manual' });
    const location = new URL(res.headers.get('location') ?? '', t.baseUrl);
    expect(location.searchParams.get('error')).toBe('invalid_target');
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: provider.info!.client_id,
      resource: 'https://elsewhere.example/mcp',
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_target');
  }, 120_000);

  it('expiry: an access token past one hour is 401 invalid_token; a refresh token past 60 days is refused', async () => {
    const provider = new MemoryOAuthProvider(redirectUri(), { name: 'Clock assistant' });
    await connectWithOAuth(provider, 'Full access');
    const issued = Date.now();
    try {
      t.clock.now = new Date(issued + 3599_000);
      expect((await rawList(provider.saved!.access_token)).status).toBe(200);
      t.clock.now = new Date(issued + 3601_000);
      const expired = await rawList(provider.saved!.access_token);
      expect(expired.status).toBe(401);
      expect(expired.www).toContain('error="invalid_token"');
      t.clock.now = new Date(issued + 61 * 24 * 3600_000);
      const refreshed = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: provider.saved!.refresh_token!,
        client_id: provider.info!.client_id,
      });
      expect(refreshed.body.error).toBe('invalid_grant');
    } finally {
      t.clock.now = null;
    }
    // Within 60 days the same refresh token still works.
    const ok = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: provider.info!.client_id,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.expires_in).toBe(3600);
  }, 120_000);

  it('refresh rotation under concurrency: the same refresh token sent twice at once issues tokens once', async () => {
    const provider = new MemoryOAuthProvider(redirectUri(), { name: 'Race assistant' });
    await connectWithOAuth(provider, 'Full access');
    const body = {
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: provider.info!.client_id,
    };
    const answers = await Promise.all([tokenRequest(body), tokenRequest(body), tokenRequest(body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) expect(a.body.error).toBe('invalid_grant');
  }, 120_000);

  it('PKCE S256 only: an authorization without a code challenge or with method plain is refused', async () => {
    const provider = new MemoryOAuthProvider(redirectUri(), { name: 'PKCE assistant' });
    await connectWithOAuth(provider, 'Full access');
    for (const change of [{ code_challenge_method: 'plain' }, { code_challenge: null }]) {
      const url = new URL(provider.authorizationUrl!);
      for (const [k, v] of Object.entries(change)) {
        if (v === null) {
          url.searchParams.delete(k);
          url.searchParams.delete('code_challenge_method');
        } else url.searchParams.set(k, v);
      }
      const res = await fetch(url, { redirect: 'manual' });
      const location = new URL(res.headers.get('location') ?? '', t.baseUrl);
      expect(location.searchParams.get('error'), JSON.stringify(change)).toBe('invalid_request');
    }
  }, 120_000);

  it('consent page: Cancel answers access_denied; a post from another origin or without the CSRF token is refused 403', async () => {
    const provider = new MemoryOAuthProvider(redirectUri(), { name: 'Careful assistant' });
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await expect(new Client({ name: 'x', version: '1' }).connect(transport)).rejects.toThrow(/Unauthorized/);
    const denied = await approve(signedIn, provider.authorizationUrl!, 'Cancel');
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('iss')).toBe(t.baseUrl);

    await auth(provider, { serverUrl: mcpUrl() });
    const page = await signedIn.newPage();
    await page.goto(provider.authorizationUrl!.toString());
    await page.getByRole('heading', { name: /^Connect / }).waitFor();
    const action = page.url();
    const cookies = (await signedIn.cookies(action)).map((c) => `${c.name}=${c.value}`).join('; ');
    const post = (body: Record<string, string>, origin: string) =>
      fetch(action, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies, origin },
        body: new URLSearchParams(body).toString(),
      });
    const csrf = await page.locator('input[name=csrf_token]').inputValue();
    expect((await post({ access: 'full', csrf_token: 'wrong' }, t.baseUrl)).status).toBe(403);
    expect((await post({ access: 'full', csrf_token: csrf }, 'https://evil.example')).status).toBe(403);
    expect((await post({ access: 'full' }, t.baseUrl)).status).toBe(403);
    // Nothing was granted by the refused posts: the page still asks.
    await page.reload();
    await page.getByRole('heading', { name: /^Connect / }).waitFor();
    await page.close();
  }, 120_000);

  it('connected apps: the dashboard lists the app with its access, and Disconnect ends its tokens (401) and refresh', async () => {
    const provider = new MemoryOAuthProvider(redirectUri(), { name: 'Disconnect Me' });
    await connectWithOAuth(provider, 'View only');
    const page = await signedIn.newPage();
    await page.goto(`${t.baseUrl}/connected-apps`);
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Disconnect Me', exact: true }) });
    await row.waitFor();
    await expect(row.getByText('View only')).toBeTruthy();
    await page.screenshot({ path: join(SHOTS, 'connected-apps.png'), fullPage: true });
    await row.getByRole('button', { name: 'Disconnect Disconnect Me' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
    await row.waitFor({ state: 'detached' });
    await page.close();
    expect((await rawList(provider.saved!.access_token)).status).toBe(401);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: provider.info!.client_id,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
  }, 120_000);
});

describe('MCP OAuth without a browser', () => {
  it('dynamic registration is limited to 30 per address per minute (429 rate_limited with Retry-After); other addresses are not affected', async () => {
    const register = (ip: string) =>
      fetch(`${t.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({
          client_name: 'Flood',
          redirect_uris: ['https://flood.example/cb'],
          token_endpoint_auth_method: 'none',
        }),
      });
    const before = await t.db
      .selectFrom('oauth_clients')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    // One fixed window for the whole run: the clock stands still at 10 s past a minute.
    t.clock.now = new Date('2031-01-01T00:00:10Z');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await register('203.0.113.7')).status);
      expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
      expect(statuses[30]).toBe(429);
      const refused = await register('203.0.113.7');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('50');
      expect((await refused.json()).error).toBe('rate_limited');
      // Nothing was stored for the refused ones.
      const after = await t.db
        .selectFrom('oauth_clients')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n) - Number(before.n)).toBe(30);
      expect((await register('203.0.113.8')).status).toBe(201);
    } finally {
      t.clock.now = null;
    }
  });

  it("OAuth pages are never framed: /oauth/... answers (the provider's authorization error page, the consent page, the token endpoint) carry X-Frame-Options DENY and CSP frame-ancestors 'none' (issue 41 item 7)", async () => {
    const pages = [
      { url: `${t.baseUrl}/oauth/authorize`, init: {} },
      { url: `${t.baseUrl}/oauth/authorize/consent/no-such-interaction`, init: {} },
      {
        url: `${t.baseUrl}/oauth/token`,
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=authorization_code&code=nothing',
        },
      },
    ];
    for (const { url, init } of pages) {
      const res = await fetch(url, { ...init, redirect: 'manual' });
      expect(res.status, url).toBeGreaterThanOrEqual(300);
      expect(res.headers.get('x-frame-options'), url).toBe('DENY');
      expect(res.headers.get('content-security-policy'), url).toMatch(/frame-ancestors 'none'/);
    }
  });

  it('an OAuth-looking token on the REST API is 401 (Authentication rule 8: MCP only), and on /mcp an unknown one is 401 invalid_token', async () => {
    const rest = await t.api('GET', 'me', { key: 'not-a-svc-key-but-an-oauth-token' });
    expect(rest.status).toBe(401);
    expect(rest.body.error.code).toBe('unauthenticated');
    expect(rest.body.error.message).toContain('MCP');
    const mcp = await rawList('not-a-svc-key-but-an-oauth-token');
    expect(mcp.status).toBe(401);
    expect(mcp.www).toBe(
      `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="read write", error="invalid_token"`,
    );
  });

  it('a user whose role is viewer sees only read tools even with a full-access API key; API keys keep working on /mcp', async () => {
    const viewer = await createTestAccount(t.db);
    await t.db.updateTable('users').set({ role: 'viewer' }).where('id', '=', viewer.userId).execute();
    const client = new Client({ name: 'viewer', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(mcpUrl(), {
        requestInit: { headers: { authorization: `Bearer ${viewer.key}` } },
      }),
    );
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).toContain('get_account');
    expect(names).not.toContain('create_template');
    expect(names).not.toContain('buy_credits');
    await client.close();
  });
});
