import { expireOverdueRequests, jobHandlers } from '@esign/core/jobs';
import { drainJobs, queueInvitation } from '@esign/core/testing';
import { PNG_DOT, sendRequest, tokenOf, trpc, twoRoleTemplate } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let owner: TestAccount;
let tpl: any;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 100 });
  tpl = await twoRoleTemplate(t, owner);
});
afterAll(() => t.close());

const signers = [
  { name: 'Cleo Client', email: 'cleo@example.com' },
  { name: 'Andy Agent', email: 'andy@example.com' },
];

describe('POST /signature_requests', () => {
  it('201: sequential order — first signer sent (invitation went out), others waiting; roles filled in order; source api', async () => {
    const res = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers,
      message: { subject: 'Please sign', body: 'Thanks!' },
    });
    expect(res.status).toBe(201);
    const r = res.body;
    expect(r).toMatchObject({
      object: 'signature_request',
      status: 'sent',
      signing_order: 'sequential',
      source: 'api',
      template: { id: tpl.id, name: 'Service Agreement' },
    });
    expect(r.signers.map((s: any) => [s.role, s.status])).toEqual([
      ['Client', 'sent'],
      ['Agent', 'waiting'],
    ]);
    expect(r.signers[0].sent_at).not.toBeNull();
    expect(r.signers[0].signing_url).toMatch(new RegExp(`^${t.baseUrl}/s/[A-Za-z0-9_-]{43}$`));
    const mail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', 'cleo@example.com')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Please sign');
    expect(mail.text_body).toContain('Thanks!');
    expect(mail.links).toContain(r.signers[0].signing_url);
    const events = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('object_type', '=', 'signature_request')
      .where('object_id', '=', r.id)
      .execute();
    expect(events.map((e) => e.type)).toEqual(['signature_request.created']);
  });

  it('send_email false gives ready; parallel order invites everyone at once', async () => {
    const quiet = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers,
      send_email: false,
      signing_order: 'parallel',
    });
    expect(quiet.body.signers.map((s: any) => s.status)).toEqual(['ready', 'ready']);
    const loud = await sendRequest(t, owner, { template_id: tpl.id, signers, signing_order: 'parallel' });
    expect(loud.body.signers.map((s: any) => s.status)).toEqual(['sent', 'sent']);
  });

  it.each([
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://example.com/done'],
  ])(
    'redirect_url accepts http(s) only (issue 29 item 5): a %s URL is 422 naming the field',
    async (_scheme, url) => {
      const request = await sendRequest(t, owner, { template_id: tpl.id, signers, redirect_url: url });
      expect(request.status).toBe(422);
      expect(request.body.error).toEqual({
        code: 'invalid_parameter',
        message: 'Invalid value for redirect_url: must be an http or https URL',
      });
      const signer = await sendRequest(t, owner, {
        template_id: tpl.id,
        signers: [{ ...signers[0], redirect_url: url }, signers[1]],
      });
      expect(signer.status).toBe(422);
      // A signer's bad value is the spec's invalid_signer, as every signers[] input error is.
      expect(signer.body.error).toEqual({
        code: 'invalid_signer',
        message: 'signers[0].redirect_url: must be an http or https URL',
      });
    },
  );

  it('redirect_url: http and https URLs are accepted (request and signer)', async () => {
    const res = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers: [{ ...signers[0], redirect_url: 'http://example.com/signed' }, signers[1]],
      redirect_url: 'https://example.com/done',
      send_email: false,
    });
    expect(res.status).toBe(201);
  });

  it('signers[].role picks a role; prefill values are returned in values', async () => {
    const res = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers: [
        { role: 'Agent', email: 'a@example.com' },
        {
          email: 'c@example.com',
          prefill: { 'Client name': 'Cleo', Agree: true, Plan: 'Pro', Start: '2030-01-31' },
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.signers.map((s: any) => [s.role, s.email])).toEqual([
      ['Client', 'c@example.com'],
      ['Agent', 'a@example.com'],
    ]);
    expect(res.body.signers[0].values).toEqual([
      { field: 'Client name', value: 'Cleo' },
      { field: 'Agree', value: true },
      { field: 'Plan', value: 'Pro' },
      { field: 'Start', value: '2030-01-31' },
    ]);
  });

  const err = async (body: Record<string, unknown>) => {
    const res = await sendRequest(t, owner, { template_id: tpl.id, signers, ...body });
    return [res.status, res.body?.error?.code];
  };

  it('issue 29 item 3: lists past their bound are 422, never a 500: 7,000 signers (as rows, past 65,535 parameters) are invalid_signer before anything is written, 11 cc or notify addresses invalid_parameter; 10 of each are sent', async () => {
    const many = Array.from({ length: 7_000 }, (_, i) => ({ email: `signer-${i}@example.com` }));
    expect(await err({ signers: many })).toEqual([422, 'invalid_signer']);
    const addresses = (n: number) => Array.from({ length: n }, (_, i) => `copy-${i}@example.com`);
    expect(await err({ cc: addresses(11) })).toEqual([422, 'invalid_parameter']);
    expect(await err({ notify: addresses(11) })).toEqual([422, 'invalid_parameter']);
    const ten = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers,
      cc: addresses(10),
      notify: addresses(10),
    });
    expect(ten.status).toBe(201);
    expect(ten.body.cc).toHaveLength(10);
  });

  it('422 missing_signers when signers is missing or empty', async () => {
    expect(await err({ signers: undefined })).toEqual([422, 'missing_signers']);
    expect(await err({ signers: [] })).toEqual([422, 'missing_signers']);
  });

  it.each([
    ['signers not a list of objects', { signers: 'cleo@example.com' }],
    ['a signer that is not an object', { signers: [42] }],
    ['a signer without email and phone', { signers: [{ name: 'Nobody' }] }],
    ['an invalid email', { signers: [{ email: 'not-an-email' }] }],
    ['an unknown role', { signers: [{ role: 'Notary', email: 'n@example.com' }] }],
    [
      'a role given twice',
      {
        signers: [
          { role: 'Client', email: 'a@example.com' },
          { role: 'Client', email: 'b@example.com' },
        ],
      },
    ],
    ['more signers than roles', { signers: [...signers, { email: 'third@example.com' }] }],
  ])('422 invalid_signer: %s', async (_n, body) => {
    expect(await err(body)).toEqual([422, 'invalid_signer']);
  });

  it.each([
    ['signing_order not sequential/parallel', { signing_order: 'random' }],
    ['expires_at in the past', { expires_at: '2001-01-01T00:00:00Z' }],
    ['expires_at not ISO 8601', { expires_at: 'next tuesday' }],
    ['prefill not an object', { signers: [{ email: 'x@example.com', prefill: ['a'] }] }],
    ['metadata not an object', { signers: [{ email: 'x@example.com', metadata: 'm' }] }],
  ])('422 invalid_parameter: %s', async (_n, body) => {
    expect(await err(body)).toEqual([422, 'invalid_parameter']);
  });

  it.each([
    ['checkbox given a string', { Agree: 'yes' }],
    ['date not YYYY-MM-DD', { Start: '31/01/2030' }],
    ['select value not an option', { Plan: 'Gold' }],
    ['unknown field name', { Nope: 'x' }],
    ['signature not an image', { 'Client signature': 'Cleo' }],
  ])('422 invalid_request for a prefill value of the wrong kind: %s', async (_n, prefill) => {
    expect(await err({ signers: [{ email: 'x@example.com', prefill }] })).toEqual([422, 'invalid_request']);
  });

  it('422 template_archived and 422 template_has_no_fields; 404 for another account’s template', async () => {
    const archived = await twoRoleTemplate(t, owner);
    await t.api('POST', `templates/${archived.id}/archive`, { key: owner.key });
    expect(await err({ template_id: archived.id })).toEqual([422, 'template_archived']);
    const empty = await t.api('POST', 'templates', {
      key: owner.key,
      body: {
        documents: tpl.documents
          .slice(0, 0)
          .concat([
            { file: Buffer.from(await (await fetch(tpl.documents[0].url)).arrayBuffer()).toString('base64') },
          ]),
      },
    });
    expect(await err({ template_id: empty.body.id })).toEqual([422, 'template_has_no_fields']);
    const other = await createTestAccount(t.db);
    const theirs = await twoRoleTemplate(t, other);
    expect(await err({ template_id: theirs.id })).toEqual([404, 'not_found']);
  });

  it('Idempotent: a retry replays the same request', async () => {
    const h = { 'idempotency-key': 'sr-1' };
    const a = await sendRequest(t, owner, { template_id: tpl.id, signers }, h);
    const b = await sendRequest(t, owner, { template_id: tpl.id, signers }, h);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.id).toBe(a.body.id);
  });

  it('the request keeps a snapshot: later template edits change nothing for its signers', async () => {
    const mine = await twoRoleTemplate(t, owner);
    const res = await sendRequest(t, owner, { template_id: mine.id, signers, send_email: false });
    await t.api('PATCH', `templates/${mine.id}`, {
      key: owner.key,
      body: {
        fields: [
          { name: 'Other', type: 'text', role: 'Client', areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 0.1 }] },
        ],
      },
    });
    const open = await trpc(t, 'open', { token: tokenOf(res.body.signers[0].signing_url) }, 'query');
    expect(open.data.fields.map((f: any) => f.name)).toEqual([
      'Client signature',
      'Client name',
      'Agree',
      'Plan',
      'Start',
    ]);
  });
});

describe('Credits', () => {
  it('402 insufficient_credits when a new credit is needed at overdraft_limit; a completed template uses one credit once; sending it again uses none', async () => {
    const poor = await createTestAccount(t.db, { credits: 1 });
    const one = await twoRoleTemplate(t, poor);
    const two = await twoRoleTemplate(t, poor);
    const req = await sendRequest(t, poor, {
      template_id: one.id,
      signers,
      send_email: false,
      signing_order: 'parallel',
    });
    expect(req.status).toBe(201);
    for (const s of req.body.signers) {
      const token = tokenOf(s.signing_url);
      const values =
        s.role === 'Client'
          ? { 'Client signature': PNG_DOT, 'Client name': 'Cleo' }
          : { 'Agent signature': PNG_DOT };
      expect((await trpc(t, 'complete', { token, values })).data).toEqual({ redirect_url: null });
    }
    expect((await t.api('GET', 'credits', { key: poor.key })).body).toMatchObject({
      available: 0,
      can_send: false,
    });
    const blocked = await sendRequest(t, poor, { template_id: two.id, signers });
    expect(blocked.status).toBe(402);
    expect(blocked.body.error.code).toBe('insufficient_credits');
    expect((await sendRequest(t, poor, { template_id: one.id, signers })).status).toBe(201);
    const ledger = await t.db
      .selectFrom('credit_ledger')
      .select('delta')
      .where('account_id', '=', poor.accountId)
      .where('reason', '=', 'consume')
      .execute();
    expect(ledger).toEqual([{ delta: -1 }]);
  });

  it('test-environment keys never use credits; lifetime accounts are unlimited', async () => {
    const poor = await createTestAccount(t.db, { credits: 0 });
    const testKey = await poor.newKey({ environment: 'test' });
    const testTpl = await twoRoleTemplate(t, { ...poor, key: testKey.key });
    expect(
      (
        await t.api('POST', 'signature_requests', {
          key: testKey.key,
          body: { template_id: testTpl.id, signers },
        })
      ).status,
    ).toBe(201);
    const life = await createTestAccount(t.db, { lifetime: true });
    const lifeTpl = await twoRoleTemplate(t, life);
    expect((await sendRequest(t, life, { template_id: lifeTpl.id, signers })).status).toBe(201);
  });
});

describe('GET /signature_requests', () => {
  it('filters template_id, q on signer name/email/phone, status open/expired/completed; 422 on other status values; items have no values', async () => {
    const acct = await createTestAccount(t.db, { credits: 10 });
    const a = await twoRoleTemplate(t, acct);
    const b = await twoRoleTemplate(t, acct);
    const r1 = (
      await sendRequest(t, acct, {
        template_id: a.id,
        signers: [{ name: 'Zed Zebra', email: 'zed@example.com' }],
      })
    ).body;
    const r2 = (
      await sendRequest(t, acct, {
        template_id: b.id,
        signers: [{ phone: '+44 20 7946 0000', name: 'Phoebe' }],
        send_email: false,
      })
    ).body;
    const r3 = (
      await sendRequest(t, acct, {
        template_id: b.id,
        signers,
        expires_at: new Date(Date.now() + 60_000).toISOString(),
      })
    ).body;
    await t.api('POST', `signature_requests/${r1.id}/cancel`, { key: acct.key });
    const ids = async (qs: string) =>
      (await t.api('GET', `signature_requests${qs}`, { key: acct.key })).body.data.map((x: any) => x.id);
    expect(await ids('')).toEqual([r3.id, r2.id, r1.id]);
    expect(await ids(`?template_id=${a.id}`)).toEqual([r1.id]);
    expect(await ids('?q=zebra')).toEqual([r1.id]);
    expect(await ids('?q=7946')).toEqual([r2.id]);
    expect(await ids('?status=open')).toEqual([r3.id, r2.id]);
    expect(await ids('?status=canceled')).toEqual([r1.id]);
    t.clock.now = new Date(Date.now() + 120_000);
    try {
      expect(await ids('?status=expired')).toEqual([r3.id]);
      expect(await ids('?status=open')).toEqual([r2.id]);
      const got = await t.api('GET', `signature_requests/${r3.id}`, { key: acct.key });
      expect(got.body.status).toBe('expired');
      expect(got.body.signers.every((s: any) => s.signing_url === null)).toBe(true);
    } finally {
      t.clock.now = null;
    }
    const list = await t.api('GET', 'signature_requests', { key: acct.key });
    expect(list.body.data[0].signers[0]).not.toHaveProperty('values');
    const bad = await t.api('GET', 'signature_requests?status=pending', { key: acct.key });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'invalid_parameter']);
  });

  it('q is a case-insensitive substring of a signer name, email or phone: whole emails, their parts, @ in a name, % and _ taken literally', async () => {
    const acct = await createTestAccount(t.db, { credits: 10 });
    const template = await twoRoleTemplate(t, acct);
    const send = async (signer: Record<string, string>) => {
      const res = await sendRequest(t, acct, {
        template_id: template.id,
        signers: [signer],
        send_email: false,
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const ann = await send({ name: 'Ann Lee', email: 'ann.lee@north.example' });
    const jann = await send({ name: 'Jann', email: 'jann.lee@north.example.org' });
    const desk = await send({ name: 'Help@Desk Team', email: 'bo@south.example' });
    const under = await send({ name: 'Cy 100%', email: 'c_y@north.example' });
    const plain = await send({ name: 'Cxy 1000', email: 'cxy@east.example' });
    const ids = async (q: string) =>
      (await t.api('GET', `signature_requests?q=${encodeURIComponent(q)}`, { key: acct.key })).body.data.map(
        (x: any) => x.id,
      );
    // A whole email also finds the longer emails that contain it (substring, not equality).
    expect(await ids('ANN.LEE@NORTH.EXAMPLE')).toEqual([jann, ann]);
    expect(await ids('ann.lee@north.example.org')).toEqual([jann]);
    expect(await ids('lee@north')).toEqual([jann, ann]);
    expect(await ids('@north.example')).toEqual([under, jann, ann]);
    expect(await ids('north.example.org')).toEqual([jann]);
    expect(await ids('help@desk')).toEqual([desk]);
    expect(await ids('p@D')).toEqual([desk]);
    expect(await ids('c_y')).toEqual([under]);
    expect(await ids('100%')).toEqual([under]);
    expect(await ids('ann.lee@south.example')).toEqual([]);
    expect(await ids('cxy@')).toEqual([plain]);
  });

  it('status=expired lists stored expired and open-past-expires_at requests together, newest first, page by page, with template_id and q', async () => {
    const acct = await createTestAccount(t.db, { credits: 10 });
    const a = await twoRoleTemplate(t, acct);
    const b = await twoRoleTemplate(t, acct);
    const send = async (template: number, name: string, expiresInMs: number) =>
      (
        await sendRequest(t, acct, {
          template_id: template,
          signers: [{ name, email: `${name.toLowerCase()}@example.com` }],
          expires_at: new Date(Date.now() + expiresInMs).toISOString(),
          send_email: false,
        })
      ).body.id as number;
    const stored1 = await send(a.id, 'Stored', 60_000);
    const overdue1 = await send(b.id, 'Overdue', 60_000);
    const stored2 = await send(b.id, 'Stored', 60_000);
    const overdue2 = await send(a.id, 'Overdue', 60_000);
    await send(a.id, 'Later', 3_600_000); // open, not yet past its date
    await t.db
      .updateTable('signature_requests')
      .set({ status: 'expired' })
      .where('id', 'in', [stored1, stored2])
      .execute();
    t.clock.now = new Date(Date.now() + 120_000);
    try {
      const page = async (qs: string) =>
        (await t.api('GET', `signature_requests?status=expired${qs}`, { key: acct.key })).body;
      expect((await page('')).data.map((x: any) => x.id)).toEqual([overdue2, stored2, overdue1, stored1]);
      // limit 1, following next_cursor, walks the same order and ends.
      const walked: number[] = [];
      let cursor = '';
      for (let i = 0; i < 6; i++) {
        const body = await page(`&limit=1${cursor}`);
        walked.push(...body.data.map((x: any) => x.id));
        if (!body.has_more) break;
        cursor = `&cursor=${body.next_cursor}`;
      }
      expect(walked).toEqual([overdue2, stored2, overdue1, stored1]);
      expect((await page(`&template_id=${a.id}`)).data.map((x: any) => x.id)).toEqual([overdue2, stored1]);
      expect((await page('&q=overdue')).data.map((x: any) => x.id)).toEqual([overdue2, overdue1]);
      expect((await page(`&q=stored&template_id=${b.id}`)).data.map((x: any) => x.id)).toEqual([stored2]);
    } finally {
      t.clock.now = null;
    }
  });

  it('the worker sweep marks unfinished requests past expires_at expired', async () => {
    const res = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers,
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(await expireOverdueRequests(t, new Date(Date.now() + 61_000))).toBeGreaterThanOrEqual(1);
    const row = await t.db
      .selectFrom('signature_requests')
      .select('status')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    const open = await trpc(t, 'open', { token: tokenOf(res.body.signers[0].signing_url) }, 'query');
    expect(open.error?.code).toBe('not_open');
  });
});

describe('cancel and remind', () => {
  it('cancel sets canceled_at, links stop working, canceling again returns it unchanged, event fires once', async () => {
    const r = (await sendRequest(t, owner, { template_id: tpl.id, signers })).body;
    const c1 = await t.api('POST', `signature_requests/${r.id}/cancel`, { key: owner.key });
    expect(c1.status).toBe(200);
    expect(c1.body).toMatchObject({ status: 'canceled', canceled_at: expect.any(String) });
    expect(c1.body.signers.every((s: any) => s.signing_url === null)).toBe(true);
    const c2 = await t.api('POST', `signature_requests/${r.id}/cancel`, { key: owner.key });
    expect(c2.body.canceled_at).toBe(c1.body.canceled_at);
    expect((await trpc(t, 'open', { token: tokenOf(r.signers[0].signing_url) }, 'query')).error?.code).toBe(
      'not_open',
    );
    const ev = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('object_id', '=', r.id)
      .where('type', '=', 'signature_request.canceled')
      .execute();
    expect(ev).toHaveLength(1);
    const remind = await t.api('POST', `signature_requests/${r.id}/remind`, { key: owner.key });
    expect([remind.status, remind.body.error.code]).toEqual([422, 'not_open']);
    const patch = await t.api('PATCH', `signers/${r.signers[0].id}`, { key: owner.key, body: { name: 'X' } });
    expect([patch.status, patch.body.error.code]).toEqual([422, 'not_open']);
  });

  it('remind emails invited unfinished signers with email (not waiting ones), at most once per hour (429 remind_too_soon with Retry-After)', async () => {
    const r = (await sendRequest(t, owner, { template_id: tpl.id, signers })).body;
    const res = await t.api('POST', `signature_requests/${r.id}/remind`, { key: owner.key });
    expect(res.body).toEqual({
      object: 'reminder',
      signature_request_id: r.id,
      reminded_signer_ids: [r.signers[0].id],
    });
    const again = await t.api('POST', `signature_requests/${r.id}/remind`, { key: owner.key });
    expect([again.status, again.body.error.code]).toEqual([429, 'remind_too_soon']);
    const retry = Number(again.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
  });

  it('422 nothing_to_remind when no signer was invited (send_email false; a phone-only signer is texted, issue 32)', async () => {
    const r = (
      await sendRequest(t, owner, {
        template_id: tpl.id,
        signers: [{ phone: '+15555550100' }],
        send_email: false,
      })
    ).body;
    const res = await t.api('POST', `signature_requests/${r.id}/remind`, { key: owner.key });
    expect([res.status, res.body.error.code]).toEqual([422, 'nothing_to_remind']);
  });

  it('cancel of a completed request is 422 already_completed', async () => {
    const r = (
      await sendRequest(t, owner, { template_id: tpl.id, signers: [signers[0]!], send_email: false })
    ).body;
    await trpc(t, 'complete', {
      token: tokenOf(r.signers[0].signing_url),
      values: { 'Client signature': PNG_DOT, 'Client name': 'C' },
    });
    const res = await t.api('POST', `signature_requests/${r.id}/cancel`, { key: owner.key });
    expect([res.status, res.body.error.code]).toEqual([422, 'already_completed']);
  });
});

describe('signers', () => {
  it('GET /signers/{id}; PATCH merges prefill, replaces metadata, keeps email or phone; PUT alias', async () => {
    const r = (
      await sendRequest(t, owner, {
        template_id: tpl.id,
        signers: [{ ...signers[0], metadata: { a: 1, b: 2 }, prefill: { 'Client name': 'Cleo' } }],
      })
    ).body;
    const id = r.signers[0].id;
    const got = await t.api('GET', `signers/${id}`, { key: owner.key });
    expect(got.body).toMatchObject({
      object: 'signer',
      id,
      signature_request_id: r.id,
      metadata: { a: 1, b: 2 },
    });
    const patched = await t.api('PUT', `signers/${id}`, {
      key: owner.key,
      body: { metadata: { c: 3 }, prefill: { Plan: 'Basic' }, name: 'Cleo C.', phone: '+15555550123' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Cleo C.', metadata: { c: 3 }, phone: '+15555550123' });
    expect(patched.body.values).toEqual([
      { field: 'Client name', value: 'Cleo' },
      { field: 'Plan', value: 'Basic' },
    ]);
    const noContact = await t.api('PATCH', `signers/${id}`, {
      key: owner.key,
      body: { email: null, phone: null },
    });
    expect([noContact.status, noContact.body.error.code]).toEqual([422, 'invalid_parameter']);
    const badEmail = await t.api('PATCH', `signers/${id}`, { key: owner.key, body: { email: 'nope' } });
    expect(badEmail.body.error.code).toBe('invalid_parameter');
    const badPrefill = await t.api('PATCH', `signers/${id}`, {
      key: owner.key,
      body: { prefill: { Agree: 'maybe' } },
    });
    expect(badPrefill.body.error.code).toBe('invalid_request');
  });

  it('resend emails the link again at most every 10 minutes per signer (429 remind_too_soon)', async () => {
    const r = (await sendRequest(t, owner, { template_id: tpl.id, signers })).body;
    const id = r.signers[0].id;
    const early = await t.api('PATCH', `signers/${id}`, { key: owner.key, body: { resend: true } });
    expect([early.status, early.body.error.code]).toEqual([429, 'remind_too_soon']);
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(500);
    t.clock.now = new Date(Date.now() + 11 * 60_000);
    try {
      const ok = await t.api('PATCH', `signers/${id}`, { key: owner.key, body: { resend: true } });
      expect(ok.status).toBe(200);
      const mails = await t.db
        .selectFrom('mail_outbox')
        .select('kind')
        .where('signer_id', '=', id)
        .orderBy('id')
        .execute();
      expect(mails.map((m) => m.kind)).toEqual(['invitation', 'resend']);
    } finally {
      t.clock.now = null;
    }
    const waiting = await t.api('PATCH', `signers/${r.signers[1].id}`, {
      key: owner.key,
      body: { resend: true },
    });
    expect(waiting.body.error.code).toBe('invalid_request');
  });

  it('signed signers cannot be changed: 422 signer_finished', async () => {
    const r = (await sendRequest(t, owner, { template_id: tpl.id, signers, send_email: false })).body;
    await trpc(t, 'complete', {
      token: tokenOf(r.signers[0].signing_url),
      values: { 'Client signature': PNG_DOT, 'Client name': 'C' },
    });
    const res = await t.api('PATCH', `signers/${r.signers[0].id}`, {
      key: owner.key,
      body: { name: 'Late' },
    });
    expect([res.status, res.body.error.code]).toEqual([422, 'signer_finished']);
  });
});

describe('signing procedures (operations.md §4)', () => {
  it('open records viewed once (signer.viewed); saveValues emits signer.started once; complete validates required fields', async () => {
    const r = (await sendRequest(t, owner, { template_id: tpl.id, signers })).body;
    const token = tokenOf(r.signers[0].signing_url);
    const open = await trpc(t, 'open', { token }, 'query');
    expect(open.data).toMatchObject({
      object: 'signing_session',
      status: 'viewed',
      code_required: false,
      signer: { role: 'Client' },
      request: { id: r.id, title: 'Service Agreement' },
    });
    expect(open.data.documents[0]).toMatchObject({ page_count: 2, page_sizes: [[2, 612, 792]] });
    expect(open.data.fields.map((f: any) => f.name)).toEqual([
      'Client signature',
      'Client name',
      'Agree',
      'Plan',
      'Start',
    ]);
    await trpc(t, 'open', { token }, 'query');
    expect((await trpc(t, 'saveValues', { token, values: { 'Client name': 'Cleo' } })).data).toMatchObject({
      saved: true,
    });
    await trpc(t, 'saveValues', { token, values: { Plan: 'Pro' } });
    const missing = await trpc(t, 'complete', { token, values: {} });
    expect(missing.error).toEqual({
      code: 'invalid_request',
      message: expect.stringContaining('Client signature'),
    });
    const bad = await trpc(t, 'saveValues', { token, values: { Agree: 'yes' } });
    expect(bad.error?.code).toBe('invalid_request');
    const types = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('object_type', '=', 'signer')
      .where('object_id', '=', r.signers[0].id)
      .orderBy('created_at')
      .execute();
    expect(types.map((e) => e.type)).toEqual(['signer.viewed', 'signer.started']);
    const signer = await t.api('GET', `signers/${r.signers[0].id}`, { key: owner.key });
    expect(signer.body).toMatchObject({ status: 'viewed', viewed_at: expect.any(String) });
  });

  it('sequential: signing invites the next signer; the last signature completes the request (event, sealing job); signing_url becomes null', async () => {
    const r = (
      await sendRequest(t, owner, { template_id: tpl.id, signers, redirect_url: 'https://example.com/done' })
    ).body;
    const first = await trpc(t, 'complete', {
      token: tokenOf(r.signers[0].signing_url),
      values: { 'Client signature': PNG_DOT, 'Client name': 'Cleo', Agree: true },
    });
    expect(first.data).toEqual({ redirect_url: 'https://example.com/done' });
    const mid = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body;
    expect(mid.status).toBe('in_progress');
    expect(mid.signers.map((s: any) => s.status)).toEqual(['signed', 'sent']);
    expect(mid.signers[0].signing_url).toBeNull();
    expect(mid.signers[0].values).toEqual([
      // Stored re-encoded (a clean PNG of the same picture), never the bytes as sent.
      { field: 'Client signature', value: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/) },
      { field: 'Client name', value: 'Cleo' },
      { field: 'Agree', value: true },
    ]);
    const nextMail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', 'andy@example.com')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(nextMail.kind).toBe('next_signer');
    await trpc(t, 'complete', {
      token: tokenOf(mid.signers[1].signing_url),
      values: { 'Agent signature': PNG_DOT },
    });
    const done = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body;
    expect(done).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    const ev = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('object_type', '=', 'signature_request')
      .where('object_id', '=', r.id)
      .execute();
    expect(ev.map((e) => e.type)).toContain('signature_request.completed');
    const job = await t.db
      .selectFrom('jobs')
      .select('kind')
      .where('unique_key', '=', `request.seal:${r.id}`)
      .execute();
    expect(job).toHaveLength(1);
    expect((await trpc(t, 'open', { token: tokenOf(r.signers[0].signing_url) }, 'query')).error?.code).toBe(
      'signer_finished',
    );
  });

  it('a waiting signer cannot sign before their turn', async () => {
    const r = (await sendRequest(t, owner, { template_id: tpl.id, signers, send_email: false })).body;
    const res = await trpc(t, 'complete', {
      token: tokenOf(r.signers[1].signing_url),
      values: { 'Agent signature': PNG_DOT },
    });
    expect(res.error?.code).toBe('invalid_request');
  });

  it('decline stores the reason, the request becomes declined (signer.declined), links stop working', async () => {
    const r = (await sendRequest(t, owner, { template_id: tpl.id, signers, signing_order: 'parallel' })).body;
    const res = await trpc(t, 'decline', {
      token: tokenOf(r.signers[1].signing_url),
      reason: 'Wrong amount',
    });
    expect(res.data).toEqual({ declined: true });
    const got = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body;
    expect(got.status).toBe('declined');
    expect(got.signers[1]).toMatchObject({
      status: 'declined',
      decline_reason: 'Wrong amount',
      declined_at: expect.any(String),
    });
    expect((await trpc(t, 'open', { token: tokenOf(r.signers[0].signing_url) }, 'query')).error?.code).toBe(
      'not_open',
    );
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['type', 'data'])
      .where('signature_request_id', '=', r.id)
      .where('type', '=', 'signer.declined')
      .executeTakeFirstOrThrow();
    expect(audit.data).toEqual({ reason: 'Wrong amount' });
  });

  it('an invalid token is not_found; an archived template stops links (template_archived, signing_url null)', async () => {
    expect((await trpc(t, 'open', { token: 'x'.repeat(43) }, 'query')).error?.code).toBe('not_found');
    const mine = await twoRoleTemplate(t, owner);
    const r = (await sendRequest(t, owner, { template_id: mine.id, signers })).body;
    await t.api('POST', `templates/${mine.id}/archive`, { key: owner.key });
    expect((await trpc(t, 'open', { token: tokenOf(r.signers[0].signing_url) }, 'query')).error?.code).toBe(
      'template_archived',
    );
    const got = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body;
    expect(got.signers[0].signing_url).toBeNull();
  });

  it('require_email_otp: documents and fields stay hidden until the emailed code is verified for this session', async () => {
    const r = (
      await sendRequest(t, owner, { template_id: tpl.id, signers: [signers[0]], require_email_otp: true })
    ).body;
    const token = tokenOf(r.signers[0].signing_url);
    const locked = await trpc(t, 'open', { token }, 'query');
    expect(locked.data).toMatchObject({ code_required: true, documents: [], fields: [] });
    expect((await trpc(t, 'saveValues', { token, values: { 'Client name': 'x' } })).error?.code).toBe(
      'forbidden',
    );
    expect((await trpc(t, 'requestCode', { token })).data).toMatchObject({
      sent: true,
      email: 'cleo@example.com',
    });
    const mail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('kind', '=', 'otp')
      .where('signer_id', '=', r.signers[0].id)
      .executeTakeFirstOrThrow();
    const code = /\b(\d{6})\b/.exec(mail.subject)![1]!;
    expect(
      (await trpc(t, 'verifyCode', { token, code: code === '000000' ? '111111' : '000000' })).error?.code,
    ).toBe('invalid_request');
    const ok = await trpc(t, 'verifyCode', { token, code });
    expect(ok.data.verified).toBe(true);
    const open = await trpc(t, 'open', { token, session: ok.data.session }, 'query');
    expect(open.data.code_required).toBe(false);
    expect(open.data.fields.length).toBeGreaterThan(0);
    expect(
      (
        await trpc(t, 'complete', {
          token,
          session: ok.data.session,
          values: { 'Client signature': PNG_DOT, 'Client name': 'C' },
        })
      ).data,
    ).toEqual({ redirect_url: null });
  });

  it('mail jobs drain: an invitation left queued is delivered by the worker, and its ready signer becomes sent', async () => {
    const r = (await sendRequest(t, owner, { template_id: tpl.id, signers: [signers[0]], send_email: false }))
      .body;
    expect(r.signers[0].status).toBe('ready');
    // Queued the way the signing flow queues the next signer's invitation, with no immediate send.
    const mailId = await t.db.transaction().execute(async (tx) => {
      const request = await tx
        .selectFrom('signature_requests')
        .selectAll()
        .where('id', '=', r.id)
        .executeTakeFirstOrThrow();
      const signer = await tx
        .selectFrom('signers')
        .selectAll()
        .where('id', '=', r.signers[0].id)
        .executeTakeFirstOrThrow();
      const queued = await queueInvitation(tx, t.config, {
        request,
        signer,
        kind: 'invitation',
        senderName: 'Tester',
        now: new Date(),
      });
      return queued.mail[0]!;
    });
    const mailRow = () =>
      t.db
        .selectFrom('mail_outbox')
        .select(['status', 'sent_at'])
        .where('id', '=', mailId)
        .executeTakeFirstOrThrow();
    expect((await mailRow()).status).toBe('queued');
    const ran = await drainJobs(
      { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
      { 'mail.send': jobHandlers['mail.send']! },
    );
    expect(ran).toBeGreaterThanOrEqual(1);
    // Without SMTP_URL, a delivered message is kept in the outbox (`esign mail list`).
    expect(await mailRow()).toMatchObject({ status: 'kept', sent_at: expect.any(Date) });
    const signer = await t.api('GET', `signers/${r.signers[0].id}`, { key: owner.key });
    expect(signer.body).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
    const queued = await t.db.selectFrom('mail_outbox').select('id').where('status', '=', 'queued').execute();
    expect(queued).toHaveLength(0);
  });
});
