import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEsignClient,
  EsignApiError,
  type EsignClient,
  paginate,
  parseWebhook,
  verifyWebhookSignature,
  type WebhookVerificationError,
} from '../src/index.ts';
import { type DevServer, startDevServer } from './server.ts';

// Issue 48 item 1: @esign/client against the real server (REST, worker, webhook deliveries).
let dev: DevServer;
let esign: EsignClient;

beforeAll(async () => {
  dev = await startDevServer();
  esign = createEsignClient({ baseUrl: dev.t.baseUrl, apiKey: dev.owner.key });
});
afterAll(() => dev.close());

async function newTemplate(name: string, client = esign) {
  const { data } = await client.POST('/templates', {
    body: {
      name,
      documents: [{ file: b64(await plainPdf(1)) }],
      fields: [
        {
          name: 'Signature',
          type: 'signature',
          role: 'Client',
          areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }],
        },
      ],
    },
  });
  return data!;
}

/** A fetch that passes requests to the server and lets a test see them and change answers. */
function recordingFetch(answer?: (response: Response, index: number) => Response) {
  const seen: Request[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    seen.push(request.clone());
    const response = await fetch(request);
    return answer ? answer(response, seen.length - 1) : response;
  };
  return { seen, fetcher };
}

describe('@esign/client (issue 48 item 1)', () => {
  it('typed calls: creates a template and reads it back with the same types as the OpenAPI document', async () => {
    const created = await newTemplate('Typed');
    expect(created.object).toBe('template');
    const { data } = await esign.GET('/templates/{id}', { params: { path: { id: created.id } } });
    expect(data).toMatchObject({ id: created.id, name: 'Typed', roles: ['Client'] });
  });

  it("a refused request throws EsignApiError carrying the API's code, status, message and request id", async () => {
    const error = await esign
      .GET('/templates/{id}', { params: { path: { id: 2_000_000_000 } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EsignApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', retryAfter: null });
    expect((error as EsignApiError).requestId).toBeTruthy();
    const missing = await esign.POST('/signature_requests', { body: {} as never }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 422, code: 'missing_parameter' });
  });

  it('every POST carries an Idempotency-Key; a 5xx after the server acted is retried with the same key and replayed, not done twice', async () => {
    const { seen, fetcher } = recordingFetch((response, index) =>
      // The first answer is lost on the way back: the client sees a 502 although the template exists.
      index === 0 ? new Response('bad gateway', { status: 502 }) : response,
    );
    const delays: number[] = [];
    const client = createEsignClient({
      baseUrl: dev.t.baseUrl,
      apiKey: dev.owner.key,
      fetch: fetcher,
      sleep: async (ms) => void delays.push(ms),
    });
    const created = await newTemplate('Retried once', client);
    expect(seen).toHaveLength(2);
    const keys = seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(delays).toEqual([500]);
    const all = [];
    for await (const tpl of paginate(esign, '/templates', { q: 'Retried once' })) all.push(tpl.id);
    expect(all).toEqual([created.id]);
    // GETs carry no key.
    await client.GET('/templates/{id}', { params: { path: { id: created.id } } });
    expect(seen.at(-1)!.headers.get('idempotency-key')).toBeNull();
  });

  it('429 is retried after the Retry-After the server names; a Retry-After beyond the limit is not waited for', async () => {
    const { fetcher } = recordingFetch((response, index) =>
      index === 0
        ? new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' } }), {
            status: 429,
            headers: { 'retry-after': '7', 'content-type': 'application/json' },
          })
        : response,
    );
    const delays: number[] = [];
    const client = createEsignClient({
      baseUrl: dev.t.baseUrl,
      apiKey: dev.owner.key,
      fetch: fetcher,
      sleep: async (ms) => void delays.push(ms),
    });
    const { data } = await client.GET('/me');
    expect(data?.object).toBe('me');
    expect(delays).toEqual([7000]);
    const impatient = createEsignClient({
      baseUrl: dev.t.baseUrl,
      apiKey: dev.owner.key,
      fetch: recordingFetch(
        () =>
          new Response('{"error":{"code":"rate_limited","message":"Slow down"}}', {
            status: 429,
            headers: { 'retry-after': '120' },
          }),
      ).fetcher,
      maxDelayMs: 60_000,
      sleep: async () => {
        throw new Error('must not wait');
      },
    });
    await expect(impatient.GET('/me')).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfter: 120,
    });
  });

  it("the server's own 429: a key over RATE_LIMIT_PER_MINUTE is refused with Retry-After, which the client reports", async () => {
    const { key } = await dev.owner.newKey();
    const noRetry = createEsignClient({ baseUrl: dev.t.baseUrl, apiKey: key, maxRetries: 0 });
    const limit = dev.t.config.RATE_LIMIT_PER_MINUTE;
    let refused: unknown = null;
    for (let i = 0; i <= limit && !refused; i++)
      refused = await noRetry.GET('/me').then(
        () => null,
        (e: unknown) => e,
      );
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((refused as EsignApiError).retryAfter).toBeGreaterThan(0);
  });

  it('paginate walks every page with cursor = next_cursor while has_more, in the API order', async () => {
    const names = ['Page A', 'Page B', 'Page C', 'Page D', 'Page E'];
    const ids = [];
    for (const name of names) ids.push((await newTemplate(name)).id);
    const { seen, fetcher } = recordingFetch();
    const client = createEsignClient({ baseUrl: dev.t.baseUrl, apiKey: dev.owner.key, fetch: fetcher });
    const got = [];
    for await (const template of paginate(client, '/templates', { limit: 2, q: 'Page ' }))
      got.push(template.id);
    expect(got).toEqual([...ids].reverse());
    expect(seen.map((r) => new URL(r.url).searchParams.has('cursor'))).toEqual([false, true, true]);
  });

  it("webhook verification accepts the server's real delivery and refuses a changed body, an old timestamp and a wrong secret; during rotation either secret passes", async () => {
    const template = await newTemplate('Webhook check');
    const { data: request } = await esign.POST('/signature_requests', {
      body: {
        template_id: template.id,
        signers: [{ role: 'Client', name: 'Ada', email: 'ada@example.com' }],
      },
    });
    const delivery = await dev.waitForDelivery(
      (d) =>
        d.headers['x-esign-event'] === 'signature_request.created' && d.body.includes(`"id":${request!.id},`),
    );
    const header = delivery.headers['x-esign-signature'] as string;
    const secrets = dev.webhookSecret;
    await expect(
      verifyWebhookSignature({ payload: delivery.body, header, secrets }),
    ).resolves.toBeUndefined();
    const bytes = new TextEncoder().encode(delivery.body);
    await expect(verifyWebhookSignature({ payload: bytes, header, secrets })).resolves.toBeUndefined();
    const refusal = (o: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({ payload: delivery.body, header, secrets, ...o }).then(
        () => 'accepted',
        (e: WebhookVerificationError) => e.reason,
      );
    expect(await refusal({ payload: delivery.body.replace('Ada', 'Eve') })).toBe('no_matching_signature');
    const t = Number(/t=(\d+)/.exec(header)![1]);
    expect(await refusal({ nowSeconds: t + 301 })).toBe('timestamp_outside_tolerance');
    expect(await refusal({ nowSeconds: t + 299 })).toBe('accepted');
    expect(await refusal({ nowSeconds: t + 30, toleranceSeconds: 10 })).toBe('timestamp_outside_tolerance');
    expect(await refusal({ secrets: 'whsec_not-the-endpoints-secret' })).toBe('no_matching_signature');
    expect(await refusal({ secrets: ['whsec_old-secret', dev.webhookSecret] })).toBe('accepted');
    expect(await refusal({ header: 'v1=abc' })).toBe('malformed_header');
    expect(await refusal({ header: undefined })).toBe('malformed_header');
    const event = await parseWebhook({ payload: delivery.body, header, secrets });
    expect(event).toMatchObject({
      type: 'signature_request.created',
      data: { object: 'signature_request', id: request!.id },
    });
  });
});
