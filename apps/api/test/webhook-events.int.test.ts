import { jobHandlers, startWebhookWorker, WEBHOOK_DELIVER_JOB } from '@esign/core/jobs';
import { createWebhookEndpoint } from '@esign/core/operator';
import { drainJobs, type JobContext } from '@esign/core/testing';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { PNG_DOT, sendRequest, tokenOf, trpc } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../packages/core/test/webhook-receiver.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Events emitted by the real actions over REST, delivered by the production job handlers: `data`
// is what GET returns at delivery time (issue #5; spec, Events).

let t: TestApp;
let owner: TestAccount;
let r: Receiver;
let ctx: JobContext;

beforeAll(async () => {
  t = await startTestApp({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SECRET_KEY: 'webhook-events-test-secret-0123456789abc',
  });
  owner = await createTestAccount(t.db, { credits: 10 });
  r = await startReceiver({ nowSeconds: () => Math.floor((t.clock.now ?? new Date()).getTime() / 1000) });
  const { endpoint, secret } = await createWebhookEndpoint(
    t.db,
    { accountId: owner.accountId, environment: 'live' },
    {
      input: {
        url: r.url,
        events: [
          'template.created',
          'template.updated',
          'template.archived',
          'signature_request.created',
          'signature_request.completed',
          'signer.viewed',
          'signer.started',
          'signer.signed',
        ],
      },
      config: t.config,
      now: () => new Date(),
    },
  );
  r.secret = secret;
  expect(endpoint.events).toHaveLength(8);
  ctx = {
    db: t.db,
    logger: t.rt.logger,
    config: t.config,
    deps: t.rt.deps,
    now: () => t.clock.now ?? new Date(),
  };
});
afterAll(async () => {
  await r.close();
  await t.close();
});

describe('template events (spec, Event types: emitted by POST, PATCH and archive of /templates)', () => {
  it('created, updated, archived: one signed delivery each, data as GET /templates/{id} returns it then', async () => {
    t.clock.now = new Date('2031-06-01T10:00:00Z');
    const created = await t.api('POST', 'templates', {
      key: owner.key,
      body: {
        name: 'NDA',
        documents: [{ file: b64(await plainPdf(1)) }],
        fields: [signatureField('Client')],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await t.api('PATCH', `templates/${id}`, { key: owner.key, body: { name: 'NDA v2' } });
    await t.api('POST', `templates/${id}/archive`, { key: owner.key });
    // A second archive is not an event ("first time only").
    await t.api('POST', `templates/${id}/archive`, { key: owner.key });

    await drainJobs(ctx, jobHandlers);
    expect(r.requests.map((q) => q.json.type)).toEqual([
      'template.created',
      'template.updated',
      'template.archived',
    ]);
    expect(r.requests.every((q) => q.verified)).toBe(true);
    expect(new Set(r.requests.map((q) => q.json.id)).size).toBe(3);
    const now = await t.api('GET', `templates/${id}`, { key: owner.key });
    // Delivered after all three actions: each carries the template as it is now.
    for (const q of r.requests) {
      expect(q.json.created_at).toBe(t.clock.now.toISOString());
      expect(q.json.data).toEqual(now.body);
    }
    expect(now.body).toMatchObject({
      object: 'template',
      id,
      name: 'NDA v2',
      archived_at: expect.any(String),
    });
  });
});

describe('signature request and signer events (spec, Event types: emitted by sending and by signer actions)', () => {
  it('created, viewed, started, signed, completed: in order, one signed delivery each, data as the API returns it', async () => {
    t.clock.now = new Date('2031-06-02T10:00:00Z');
    const template = await t.api('POST', 'templates', {
      key: owner.key,
      body: {
        name: 'One signer',
        documents: [{ file: b64(await plainPdf(1)) }],
        fields: [signatureField('Client')],
      },
    });
    expect(template.status).toBe(201);
    const sent = await sendRequest(t, owner, {
      template_id: template.body.id,
      signers: [{ name: 'Cleo Client', email: 'cleo@example.com' }],
      send_email: false,
    });
    expect(sent.status).toBe(201);
    const token = tokenOf(sent.body.signers[0].signing_url);
    expect((await trpc(t, 'open', { token }, 'query')).error).toBeNull();
    expect((await trpc(t, 'saveValues', { token, values: {} })).error).toBeNull();
    expect((await trpc(t, 'complete', { token, values: { 'Signature 1': PNG_DOT } })).error).toBeNull();

    const before = r.requests.length;
    await drainJobs(ctx, jobHandlers);
    const got = r.requests.slice(before).filter((q) => !q.json.type.startsWith('template.'));
    expect(got.map((q) => q.json.type)).toEqual([
      'signature_request.created',
      'signer.viewed',
      'signer.started',
      'signer.signed',
      'signature_request.completed',
    ]);
    expect(got.every((q) => q.verified)).toBe(true);
    const request = await t.api('GET', `signature_requests/${sent.body.id}`, { key: owner.key });
    const signer = await t.api('GET', `signers/${sent.body.signers[0].id}`, { key: owner.key });
    for (const q of got) {
      expect(q.json.data).toEqual(q.json.type.startsWith('signer.') ? signer.body : request.body);
    }
    expect(request.body.status).toBe('completed');
  });
});

describe("the worker's batches (issue 16): data built for many events at once is what GET returns", () => {
  it('template, signature request and signer events delivered by the batch worker carry the same data as one at a time', async () => {
    t.clock.now = new Date('2031-06-03T10:00:00Z');
    const template = await t.api('POST', 'templates', {
      key: owner.key,
      body: {
        name: 'Two signers',
        documents: [{ file: b64(await plainPdf(1)) }],
        fields: [signatureField('Client'), signatureField('Witness')],
      },
    });
    expect(template.status).toBe(201);
    const sent = await sendRequest(t, owner, {
      template_id: template.body.id,
      signing_order: 'parallel',
      signers: [
        { name: 'Cleo Client', email: 'cleo2@example.com' },
        { name: 'Walt Witness', email: 'walt@example.com' },
      ],
      send_email: false,
    });
    expect(sent.status).toBe(201);
    for (const s of sent.body.signers) {
      const token = tokenOf(s.signing_url);
      expect((await trpc(t, 'open', { token }, 'query')).error).toBeNull();
    }

    const before = r.requests.length;
    // template.created, signature_request.created and two signer.viewed: 4 events of 3 object types.
    const worker = startWebhookWorker(ctx, {
      handler: jobHandlers[WEBHOOK_DELIVER_JOB]!,
      concurrency: 16,
      pollMs: 20,
    });
    try {
      await r.waitFor(before + 4, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await worker.stop();
    }
    const got = r.requests.slice(before);
    expect(got.map((q) => q.json.type).sort()).toEqual([
      'signature_request.created',
      'signer.viewed',
      'signer.viewed',
      'template.created',
    ]);
    expect(got.every((q) => q.verified)).toBe(true);
    const request = await t.api('GET', `signature_requests/${sent.body.id}`, { key: owner.key });
    const tpl = await t.api('GET', `templates/${template.body.id}`, { key: owner.key });
    for (const q of got) {
      if (q.json.type === 'template.created') expect(q.json.data).toEqual(tpl.body);
      else if (q.json.type === 'signature_request.created') expect(q.json.data).toEqual(request.body);
      else {
        const signer = await t.api('GET', `signers/${q.json.data.id}`, { key: owner.key });
        expect(q.json.data).toEqual(signer.body);
      }
    }
    expect(new Set(got.filter((q) => q.json.type === 'signer.viewed').map((q) => q.json.data.id)).size).toBe(
      2,
    );
  });
});
