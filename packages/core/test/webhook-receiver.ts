import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@esign/webhooks';

/** One request as the receiver saw it, with the result of checking its signature. */
interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect the payload freely
  json: { id: string; type: string; created_at: string; data: any };
  /** The `X-Esign-Signature` header verified against the raw body with the endpoint's secret. */
  verified: boolean;
  receivedAt: number;
}

/** What to answer: a status (and body), or `hang` to never answer; may be given later (a promise). */
type Reply = number | { status: number; body?: string } | 'hang';
export type ReplyFn = (request: ReceivedWebhook, index: number) => Reply | Promise<Reply>;

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedWebhook[];
  /** Set once the secret is known (it is shown when the endpoint is created). */
  secret: string | null;
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 only. It verifies every signature the way a customer's verifier
 * does (spec, Events, Signature verification), against `nowSeconds` (the test's clock).
 */
export async function startReceiver(
  opts: { reply?: ReplyFn; nowSeconds?: () => number; serviceName?: string } = {},
): Promise<Receiver> {
  const requests: ReceivedWebhook[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const hanging = new Set<ServerResponse>();
  const signatureHeader = `x-${(opts.serviceName ?? 'Esign').toLowerCase()}-signature`;
  const state = { secret: null as string | null };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const nowSeconds = opts.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
      const received: ReceivedWebhook = {
        headers: req.headers,
        body,
        json: JSON.parse(body),
        verified:
          state.secret !== null &&
          verifyWebhook(
            state.secret,
            req.headers[signatureHeader] as string | undefined,
            body,
            300,
            nowSeconds,
          ),
        receivedAt: performance.now(),
      };
      const index = requests.length;
      requests.push(received);
      for (const w of waiters.filter((x) => requests.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      hanging.add(res);
      Promise.resolve(opts.reply?.(received, index) ?? 200).then(
        (reply) => {
          if (reply === 'hang') return;
          hanging.delete(res);
          const { status, body: text } = typeof reply === 'number' ? { status: reply, body: 'ok' } : reply;
          res.writeHead(status, { 'content-type': 'text/plain' }).end(text ?? '');
        },
        (err: unknown) => {
          // A test's reply function failed: the receiver answers 500, and the test sees it there.
          hanging.delete(res);
          res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    get secret() {
      return state.secret;
    },
    set secret(value: string | null) {
      state.secret = value;
    },
    waitFor(n, timeoutMs = 15_000) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${requests.length} of ${n} requests`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
