import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SUBSCRIBABLE_EVENT_TYPES } from '@esign/core';
import { jobHandlers, startWorker, type WorkerHandle } from '@esign/core/jobs';
import { createWebhookEndpoint } from '@esign/core/operator';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

/** One delivery as a receiver saw it: the raw body and the headers. */
interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A fresh server for the client tests and quick starts: the all-in-one app on its own database, a
 * worker running every job (so webhooks are really delivered), an account with credits and a key,
 * and a loopback receiver subscribed to every event type (WEBHOOK_ALLOW_PRIVATE lets it be local).
 */
export interface DevServer {
  t: TestApp;
  owner: TestAccount;
  webhookUrl: string;
  webhookSecret: string;
  deliveries: Delivery[];
  /** Resolves with the first delivery that `match` accepts (waiting for it to arrive). */
  waitForDelivery(match: (d: Delivery) => boolean, timeoutMs?: number): Promise<Delivery>;
  close(): Promise<void>;
}

/** `webhookUrl`: where the endpoint points instead of the built-in receiver (a quick start's own). */
export async function startDevServer(opts: { webhookUrl?: string } = {}): Promise<DevServer> {
  const t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const owner = await createTestAccount(t.db, { credits: 10 });
  const deliveries: Delivery[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = opts.webhookUrl ?? `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const { secret } = await createWebhookEndpoint(
    t.db,
    { accountId: owner.accountId, environment: 'live' },
    {
      input: { url: webhookUrl, events: [...SUBSCRIBABLE_EVENT_TYPES] },
      config: t.config,
      now: () => new Date(),
    },
  );
  const worker: WorkerHandle = startWorker(
    { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
    jobHandlers,
    { pollMs: 100 },
  );
  return {
    t,
    owner,
    webhookUrl,
    webhookSecret: secret,
    deliveries,
    async waitForDelivery(match, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching delivery; got ${deliveries.length}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      await worker.stop();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await t.close();
    },
  };
}
