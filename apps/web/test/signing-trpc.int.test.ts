import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { PNG_DOT, sendRequest, tokenOf, twoRoleTemplate } from '@esign/testing/signing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { KEEPALIVE_MAX_BODY, signingClient } from '../src/signing/client/api.ts';
import { toApiError } from '../src/signing/client/errors.ts';
import { TRPC_BODY_LIMIT } from '../src/trpc/routes.ts';

let t: TestApp;
let owner: TestAccount;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  const tpl = await twoRoleTemplate(t, owner);
  const res = await sendRequest(t, owner, {
    template_id: tpl.id,
    send_email: false,
    signers: [
      { role: 'Client', email: 'client@example.com' },
      { role: 'Agent', email: 'agent@example.com' },
    ],
  });
  expect(res.status, res.text).toBe(201);
  token = tokenOf(res.body.signers[0].signing_url);
});
afterAll(() => t?.close());
afterEach(() => vi.restoreAllMocks());

const trpcUrl = () => `${t.baseUrl}/trpc`;

/** Every request the page's client makes through fetch, as method and URL. */
function recordFetches() {
  const spy = vi.spyOn(globalThis, 'fetch');
  return () =>
    spy.mock.calls.map(([url, init]) => ({
      method: init?.method,
      url: String(url),
      keepalive: init?.keepalive,
    }));
}

describe('/trpc takes signing queries by POST (operations.md §4), keeping GET', () => {
  it('answers signing.open by POST with the input in the body, the same as by GET', async () => {
    const post = await fetch(`${trpcUrl()}/signing.open`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const get = await fetch(
      `${trpcUrl()}/signing.open?input=${encodeURIComponent(JSON.stringify({ token }))}`,
    );
    expect([post.status, get.status]).toEqual([200, 200]);
    const [a, b] = [await post.json(), await get.json()];
    expect(a.result.data.signer).toEqual(b.result.data.signer);
    expect(a.result.data.fields.map((f: { name: string }) => f.name)).toEqual([
      'Client signature',
      'Client name',
      'Agree',
      'Plan',
      'Start',
    ]);
  });

  it('still takes a mutation by POST only: a GET changes nothing', async () => {
    const input = encodeURIComponent(JSON.stringify({ token, reason: 'no' }));
    const res = await fetch(`${trpcUrl()}/signing.decline?input=${input}`);
    // Spec, Unknown routes: no endpoint matches the method and path → 404 not_found (never a 500).
    expect(res.status).toBe(404);
    expect((await res.json()).error.data.code).toBe('not_found');
    expect((await signingClient(false, trpcUrl()).open.query({ token })).status).not.toBe('declined');
  });
});

describe("the signing page's tRPC client", () => {
  it('sends queries by POST, so the signing token never appears in a URL', async () => {
    const fetches = recordFetches();
    const open = await signingClient(false, trpcUrl()).open.query({ token });
    expect(open.object).toBe('signing_session');
    expect(open.signer.email).toBe('client@example.com');
    expect(fetches()).toEqual([{ method: 'POST', url: `${trpcUrl()}/signing.open`, keepalive: false }]);
    expect(fetches()[0]?.url).not.toContain(token);
  });

  it("reads the API's error code from a procedure's error", async () => {
    const err = await signingClient(false, trpcUrl())
      .open.query({ token: 'x'.repeat(43) })
      .catch(toApiError);
    expect(err).toMatchObject({ code: 'not_found' });
  });

  it('reports a server it cannot reach as `network`', async () => {
    const err = await signingClient(false, 'http://127.0.0.1:9/trpc').open.query({ token }).catch(toApiError);
    expect(err).toMatchObject({ code: 'network', message: 'Could not reach the server.' });
  });

  it("reads a proxy's page that is not JSON as internal_error, or invalid_request for 413", async () => {
    let status = 502;
    const proxy: Server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    });
    await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/trpc`;
    try {
      const bad = await signingClient(false, url).open.query({ token }).catch(toApiError);
      expect(bad).toMatchObject({ code: 'internal_error', message: 'Unexpected answer (502).' });
      status = 413;
      const big = await signingClient(false, url).open.query({ token }).catch(toApiError);
      expect(big).toMatchObject({ code: 'invalid_request', message: 'Unexpected answer (413).' });
    } finally {
      proxy.close();
    }
  });

  it('reads the REST envelope of a body over the /trpc limit (24 MB) as invalid_request', async () => {
    const values = { 'Client name': 'x'.repeat(TRPC_BODY_LIMIT + 1) };
    const err = await signingClient(false, trpcUrl()).saveValues.mutate({ token, values }).catch(toApiError);
    expect(err).toMatchObject({ code: 'invalid_request' });
    const open = await signingClient(false, trpcUrl()).open.query({ token });
    expect(open.fields.find((f) => f.name === 'Client name')?.value).toBeNull();
  });

  it('sends the last save with keepalive only while the body stays under the 64 KB browsers allow', async () => {
    const fetches = recordFetches();
    const exit = signingClient(true, trpcUrl());
    await exit.saveValues.mutate({ token, values: { 'Client name': 'Jane' } });
    // A drawn signature easily passes 64 KB: it goes as an ordinary request instead of being lost.
    const big = pngOfAtLeast(KEEPALIVE_MAX_BODY);
    await exit.saveValues.mutate({ token, values: { 'Client signature': big } });
    expect(fetches().map((f) => f.keepalive)).toEqual([true, false]);
    const open = await signingClient(false, trpcUrl()).open.query({ token });
    const value = (name: string) => open.fields.find((f) => f.name === name)?.value;
    expect(value('Client name')).toBe('Jane');
    // Stored re-encoded (image values are decoded and written again), so only its kind is compared.
    expect(value('Client signature')).toMatch(/^data:image\/png;base64,/);
  });
});

/** A valid PNG data URI of at least `bytes` bytes: the one-pixel PNG with a large tEXt chunk. */
function pngOfAtLeast(bytes: number): string {
  const png = Buffer.from(PNG_DOT.split(',')[1] ?? '', 'base64');
  const iend = png.length - 12;
  const type = Buffer.from('tEXt');
  const data = Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(bytes, 0x61)]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  const out = Buffer.concat([png.subarray(0, iend), length, type, data, crc, png.subarray(iend)]);
  return `data:image/png;base64,${out.toString('base64')}`;
}
