import { afterEach, describe, expect, it } from 'vitest';
import { buildDeliveryRequest, deliverWebhook, verifyWebhook, WEBHOOK_TIMEOUT_MS } from '../src/index.ts';
import { closedPort, type LoopbackServer, startLoopbackServer } from './loopback-server.ts';

const servers: LoopbackServer[] = [];
async function serve(...args: Parameters<typeof startLoopbackServer>): Promise<LoopbackServer> {
  const server = await startLoopbackServer(...args);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const SECRET = 'whsec_deliver_test';
const now = () => Math.floor(Date.now() / 1000);
function signed() {
  return buildDeliveryRequest({
    secret: SECRET,
    event: {
      id: 'evt_42',
      type: 'signature_request.completed',
      created_at: '2025-03-01T12:00:00.000Z',
      data: { object: 'signature_request', id: 7, status: 'completed', title: 'Contrat — été' },
    },
    deliveryId: 'dlv_42_1',
    customHeaders: { Authorization: 'Bearer receiver-token' },
    nowSeconds: now(),
  });
}

describe('Delivery rules: the receiver must answer any 2xx within 30 seconds', () => {
  it('uses a 30 second limit by default', () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(30_000);
  });

  it('POSTs the signed JSON body and headers; a 2xx is a successful attempt', async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 202;
      res.end('{"received":true}');
    });
    const request = signed();
    const result = await deliverWebhook({ url: `${server.origin}/hooks`, ...request, allowPrivate: true });
    expect(result).toMatchObject({
      ok: true,
      status: 202,
      error: null,
      errorCode: null,
      responseExcerpt: '{"received":true}',
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);

    const received = server.requests[0]!;
    expect(received.method).toBe('POST');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['user-agent']).toBe('Esign-Webhooks/1.0');
    expect(received.headers['x-esign-event']).toBe('signature_request.completed');
    expect(received.headers['x-esign-delivery']).toBe('dlv_42_1');
    expect(received.headers.authorization).toBe('Bearer receiver-token');
    // What the receiver got verifies with the documented algorithm.
    expect(received.body).toBe(request.body);
    expect(verifyWebhook(SECRET, received.headers['x-esign-signature'] as string, received.body)).toBe(true);
  });

  it.each([200, 201, 204, 299])('treats %i as success', async (status) => {
    const server = await serve((_req, res) => {
      res.statusCode = status;
      res.end();
    });
    await expect(
      deliverWebhook({ url: server.origin, ...signed(), allowPrivate: true }),
    ).resolves.toMatchObject({
      ok: true,
      status,
    });
  });

  it.each([400, 404, 410, 500, 503])(
    'Other responses are retried: %i is a failed attempt',
    async (status) => {
      const server = await serve((_req, res) => {
        res.statusCode = status;
        res.end('nope');
      });
      await expect(
        deliverWebhook({ url: server.origin, ...signed(), allowPrivate: true }),
      ).resolves.toMatchObject({
        ok: false,
        status,
        error: `Endpoint answered HTTP ${status}`,
        errorCode: 'http_status',
        responseExcerpt: 'nope',
      });
    },
  );

  it('does not follow redirects: a 3xx is a failed attempt and the signed body goes nowhere else', async () => {
    const other = await serve((_req, res) => res.end('ok'));
    const server = await serve((_req, res) =>
      res.writeHead(307, { Location: `${other.origin}/steal` }).end(),
    );
    const result = await deliverWebhook({ url: server.origin, ...signed(), allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 307, errorCode: 'http_status' });
    expect(other.connections).toBe(0);
  });

  it('a timeout is a failed attempt with no status', async () => {
    const server = await serve(() => {});
    const result = await deliverWebhook({
      url: server.origin,
      ...signed(),
      allowPrivate: true,
      timeoutMs: 250,
    });
    expect(result).toMatchObject({ ok: false, status: null, errorCode: 'timeout', responseExcerpt: '' });
    expect(result.durationMs).toBeGreaterThanOrEqual(200);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('a 2xx that arrives after the limit is still a timeout', async () => {
    const server = await serve((_req, res) => setTimeout(() => res.end('late'), 500));
    const result = await deliverWebhook({
      url: server.origin,
      ...signed(),
      allowPrivate: true,
      timeoutMs: 200,
    });
    expect(result).toMatchObject({ ok: false, errorCode: 'timeout' });
  });

  it('a connection error is a failed attempt', async () => {
    const port = await closedPort();
    const result = await deliverWebhook({
      url: `http://127.0.0.1:${port}/`,
      ...signed(),
      allowPrivate: true,
    });
    expect(result).toMatchObject({ ok: false, status: null, errorCode: 'connection_error' });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('rejects private targets again at delivery', async () => {
    const server = await serve((_req, res) => res.end());
    const result = await deliverWebhook({ url: server.origin, ...signed() });
    expect(result).toMatchObject({ ok: false, status: null, errorCode: 'blocked' });
    expect(server.connections).toBe(0);
  });

  it('keeps the first 500 characters of a large response without failing on its size', async () => {
    const server = await serve((_req, res) => {
      res.write('é'.repeat(600));
      res.end(Buffer.alloc(2 * 1024 * 1024, 120));
    });
    const result = await deliverWebhook({ url: server.origin, ...signed(), allowPrivate: true });
    expect(result.ok).toBe(true);
    expect(result.responseExcerpt).toBe('é'.repeat(500));
  });

  it('resolves the host name through the injected resolver and delivers to the pinned address', async () => {
    const server = await serve((req, res) => res.end(req.headers.host));
    const result = await deliverWebhook({
      url: `http://receiver.example.test:${server.port}/`,
      ...signed(),
      allowPrivate: true,
      lookup: async () => ['127.0.0.1'],
    });
    expect(result).toMatchObject({ ok: true, responseExcerpt: `receiver.example.test:${server.port}` });
  });
});
