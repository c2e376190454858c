import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestAccount } from '@esign/testing/accounts';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { PNG_DOT } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackServer, startLoopbackServer } from '../../webhooks/test/loopback-server.ts';
import { MAX_PREFILL_IMAGE_URLS } from '../src/contracts/signature-requests.ts';
import { sendFeedback } from '../src/services/feedback.ts';
import { createSignatureRequest } from '../src/services/signature-requests/create.ts';
import { remindSigners } from '../src/services/signature-requests/lifecycle.ts';
import { type CoreHarness, codeOf, startCore, twoRoleTemplate } from './caller.ts';

// The services run whole operations themselves (one transaction, then the emails right after the
// commit), so the API, the MCP tools, the worker and the CLI get the same result; and the image
// prefills of POST /signature_requests may be https URLs.

const fixtures = join(import.meta.dirname, '../../webhooks/test/fixtures');
const tls = {
  cert: readFileSync(join(fixtures, 'hooks.example.test.cert.pem'), 'utf8'),
  key: readFileSync(join(fixtures, 'hooks.example.test.key.pem'), 'utf8'),
};
const png = Buffer.from(PNG_DOT.split(',')[1]!, 'base64');

let h: CoreHarness;
let owner: TestAccount;
let images: LoopbackServer;
let tpl: Awaited<ReturnType<typeof twoRoleTemplate>>;

beforeAll(async () => {
  images = await startLoopbackServer((req, res) => {
    if (req.url?.startsWith('/dot.png')) res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('not an image');
  }, tls);
  h = await startCore(
    {},
    { outbound: { allowPrivate: true, ca: tls.cert, lookup: async () => ['127.0.0.1'] } },
  );
  owner = await h.account({ credits: 20 });
  tpl = await twoRoleTemplate(await h.as(owner.key));
});
afterAll(async () => {
  await h?.close();
  await images?.close();
});

const url = (path: string) => `https://hooks.example.test:${images.port}${path}`;
const signers = [
  { name: 'Cleo Client', email: 'cleo@example.com' },
  { name: 'Andy Agent', email: 'andy@example.com' },
];

describe('signers[].prefill: image or signature fields "as a base64 image or an https URL"', () => {
  it('an https URL is downloaded (through the outbound guard) into a data: URI', async () => {
    const caller = await h.as(owner.key);
    const r = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers: [{ ...signers[0], prefill: { 'Client photo': url('/dot.png') } }],
    });
    // Stored as a clean re-encoded PNG (every image value is decoded and written again).
    expect(r.signers[0]!.values).toEqual([
      { field: 'Client photo', value: expect.stringMatching(/^data:image\/png;base64,/) },
    ]);
    expect(images.requests.map((q) => q.url)).toContain('/dot.png');
  });

  it('a URL that is not a PNG or JPEG is 422 invalid_request; nothing is written', async () => {
    const caller = await h.as(owner.key);
    const before = await h.db.selectFrom('signature_requests').select('id').execute();
    const code = await codeOf(
      caller.signatureRequests.create({
        template_id: tpl.id,
        signers: [{ ...signers[0], prefill: { 'Client photo': url('/text') } }],
      }),
    );
    expect(code).toBe('invalid_request');
    expect(await h.db.selectFrom('signature_requests').select('id').execute()).toEqual(before);
  });
});

describe('signers[].prefill image URLs are bounded (issue 29: each is a download)', () => {
  it(`at most ${MAX_PREFILL_IMAGE_URLS} distinct URLs per request: one more is 422 invalid_request before anything is written; the same URL in many fields is fetched once`, async () => {
    const caller = await h.as(owner.key);
    const names = Array.from({ length: MAX_PREFILL_IMAGE_URLS + 1 }, (_, i) => `Photo ${i + 1}`);
    const many = await caller.templates.create({
      name: 'Many photos',
      documents: [{ file: b64(await plainPdf(1)) }],
      fields: [
        {
          name: 'Signature',
          type: 'signature',
          role: 'Client',
          areas: [{ page: 1, x: 0.1, y: 0.9, w: 0.3, h: 0.05 }],
        },
        ...names.map((name, i) => ({
          name,
          type: 'image' as const,
          role: 'Client',
          required: false,
          areas: [{ page: 1, x: 0.05 + (i % 6) * 0.15, y: 0.1 + Math.floor(i / 6) * 0.1, w: 0.1, h: 0.05 }],
        })),
      ],
    });
    const before = await h.db.selectFrom('signature_requests').select('id').execute();
    const fetchesBefore = images.requests.length;
    const tooMany = Object.fromEntries(names.map((n, i) => [n, url(`/dot.png?${i}`)]));
    const code = await codeOf(
      caller.signatureRequests.create({
        template_id: many.id,
        signers: [{ ...signers[0], prefill: tooMany }],
      }),
    );
    expect(code).toBe('invalid_request');
    expect(await h.db.selectFrom('signature_requests').select('id').execute()).toEqual(before);
    expect(images.requests.length - fetchesBefore).toBe(MAX_PREFILL_IMAGE_URLS);

    const same = Object.fromEntries(names.map((n) => [n, url('/dot.png?same')]));
    const r = await caller.signatureRequests.create({
      template_id: many.id,
      signers: [{ ...signers[0], prefill: same }],
    });
    expect(r.signers[0]!.values).toHaveLength(names.length);
    expect(images.requests.filter((q) => q.url === '/dot.png?same')).toHaveLength(1);
  });
});

describe('services send their emails after commit, whoever calls them (no adapter)', () => {
  it('createSignatureRequest called directly (as the CLI would): the invitation went out, the first signer is sent', async () => {
    const actor = await h.actor(owner.key);
    const r = await createSignatureRequest(h.sc, actor, {
      input: { ...defaults, template_id: tpl.id, signers },
      source: 'cli',
    });
    expect([r.source, r.signers.map((s) => s.status)]).toEqual(['cli', ['sent', 'waiting']]);
    const mail = await h.db
      .selectFrom('mail_outbox')
      .select(['kind', 'status', 'to_address'])
      .where('signer_id', '=', r.signers[0]!.id)
      .execute();
    // Without SMTP_URL a sent message is kept in the outbox: delivered, not queued.
    expect(mail).toEqual([{ kind: 'invitation', status: 'kept', to_address: 'cleo@example.com' }]);
  });

  it('remindSigners called directly: the reminder went out after the commit', async () => {
    const actor = await h.actor(owner.key);
    const r = await createSignatureRequest(h.sc, actor, {
      input: { ...defaults, template_id: tpl.id, signers },
      source: 'cli',
    });
    const reminder = await remindSigners(h.sc, actor, r.id);
    expect(reminder.reminded_signer_ids).toEqual([r.signers[0]!.id]);
    const kinds = await h.db
      .selectFrom('mail_outbox')
      .select(['kind', 'status'])
      .where('signer_id', '=', r.signers[0]!.id)
      .orderBy('id')
      .execute();
    expect(kinds).toEqual([
      { kind: 'invitation', status: 'kept' },
      { kind: 'reminder', status: 'kept' },
    ]);
  });

  it('sendFeedback stores the message and queues its email in one transaction (the worker sends it)', async () => {
    const actor = await h.actor(owner.key);
    const fb = await sendFeedback(h.sc, actor, { kind: 'question', message: 'Hello?', source: 'api' });
    expect(fb).toMatchObject({ object: 'feedback', kind: 'question', message: 'Hello?', source: 'api' });
    const mail = await h.db
      .selectFrom('mail_outbox')
      .select(['kind', 'status', 'to_address'])
      .where('kind', '=', 'feedback')
      .execute();
    expect(mail).toEqual([{ kind: 'feedback', status: 'queued', to_address: 'no-reply@localhost' }]);
  });
});

const defaults = { signing_order: 'sequential', send_email: true, require_email_otp: false } as const;
