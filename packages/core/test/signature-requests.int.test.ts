import type { TestAccount } from '@esign/testing/accounts';
import { PNG_DOT } from '@esign/testing/signing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { requestViews, type ViewColumnsComplete } from '../src/services/signature-requests/queries.ts';
import { type CoreHarness, codeOf, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// The signature request and signer rules of the specification, proven through appRouter's
// procedures (createCaller) on a real database, without an HTTP server: the REST and MCP
// adapters only translate these results.

let h: CoreHarness;
let owner: TestAccount;
let caller: Awaited<ReturnType<CoreHarness['as']>>;
let tpl: Awaited<ReturnType<typeof twoRoleTemplate>>;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 50 });
  caller = await h.as(owner.key);
  tpl = await twoRoleTemplate(caller);
});
afterAll(() => h?.close());

const signers = [
  { name: 'Cleo Client', email: 'cleo@example.com' },
  { name: 'Andy Agent', email: 'andy@example.com' },
];

const countRows = async (
  table: 'signature_requests' | 'mail_outbox' | 'webhook_events',
  accountId: number,
) => {
  const { rows } = await sql<{
    n: string;
  }>`select count(*) as n from ${sql.table(table)} where account_id = ${accountId}`.execute(h.db);
  return Number(rows[0]!.n);
};

async function signAll(request: { signers: { role: string | null; signing_url: string | null }[] }) {
  const signer = h.anonymous();
  for (const s of request.signers) {
    const values =
      s.role === 'Client'
        ? { 'Client signature': PNG_DOT, 'Client name': 'Cleo' }
        : { 'Agent signature': PNG_DOT };
    await signer.signing.complete({ token: tokenOf(s.signing_url), values });
  }
}

describe('cancel (spec: Signature request status)', () => {
  it('canceling a completed request is 422 already_completed and changes nothing', async () => {
    const r = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      send_email: false,
      signing_order: 'parallel',
    });
    await signAll(r);
    expect(await codeOf(caller.signatureRequests.cancel({ id: r.id }))).toBe('already_completed');
    const after = await caller.signatureRequests.get({ id: r.id });
    expect([after.status, after.canceled_at]).toEqual(['completed', null]);
  });

  it('canceling a canceled request returns it unchanged; reminders and signer updates on it are 422 not_open', async () => {
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers });
    const first = await caller.signatureRequests.cancel({ id: r.id });
    const again = await caller.signatureRequests.cancel({ id: r.id });
    expect(again.canceled_at).toBe(first.canceled_at);
    expect(again.updated_at).toBe(first.updated_at);
    expect(await codeOf(caller.signatureRequests.remind({ id: r.id }))).toBe('not_open');
    expect(await codeOf(caller.signers.update({ id: r.signers[0]!.id, name: 'X' }))).toBe('not_open');
    const audit = await h.db
      .selectFrom('audit_events')
      .select(['type', 'actor_type', 'api_key_id'])
      .where('signature_request_id', '=', r.id)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { type: 'request.sent', actor_type: 'api_key', api_key_id: owner.keyId },
      { type: 'request.canceled', actor_type: 'api_key', api_key_id: owner.keyId },
    ]);
  });
});

describe('remind (spec: POST /signature_requests/{id}/remind)', () => {
  it('signers who were never invited (send_email false, status ready) are not reminded: 422 nothing_to_remind, no email queued', async () => {
    const r = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      send_email: false,
      signing_order: 'parallel',
    });
    expect(r.signers.map((s) => s.status)).toEqual(['ready', 'ready']);
    const mailBefore = await countRows('mail_outbox', owner.accountId);
    expect(await codeOf(caller.signatureRequests.remind({ id: r.id }))).toBe('nothing_to_remind');
    expect(await countRows('mail_outbox', owner.accountId)).toBe(mailBefore);
  });

  it('reminds every invited signer who has not signed or declined and has an email, not the waiting ones', async () => {
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers });
    expect(r.signers.map((s) => s.status)).toEqual(['sent', 'waiting']);
    const reminder = await caller.signatureRequests.remind({ id: r.id });
    expect(reminder).toEqual({
      object: 'reminder',
      signature_request_id: r.id,
      reminded_signer_ids: [r.signers[0]!.id],
    });
    expect(await codeOf(caller.signatureRequests.remind({ id: r.id }))).toBe('remind_too_soon');
  });

  it('a signer of a send_email false request who was emailed the link (PATCH resend) counts as invited', async () => {
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers, send_email: false });
    await caller.signers.update({ id: r.signers[0]!.id, resend: true });
    const reminder = await caller.signatureRequests.remind({ id: r.id });
    expect(reminder.reminded_signer_ids).toEqual([r.signers[0]!.id]);
  });
});

describe('create (spec: POST /signature_requests rules)', () => {
  it('an archived template is 422 template_archived and nothing is written', async () => {
    const archived = await twoRoleTemplate(caller, 'Archived');
    await caller.templates.archive({ id: archived.id });
    const before = await countRows('signature_requests', owner.accountId);
    expect(await codeOf(caller.signatureRequests.create({ template_id: archived.id, signers }))).toBe(
      'template_archived',
    );
    expect(await countRows('signature_requests', owner.accountId)).toBe(before);
  });

  it('402 insufficient_credits when a new credit is needed at the overdraft limit; nothing is written', async () => {
    const poor = await h.account({ credits: 0 });
    const poorCaller = await h.as(poor.key);
    const theirs = await twoRoleTemplate(poorCaller);
    expect(await codeOf(poorCaller.signatureRequests.create({ template_id: theirs.id, signers }))).toBe(
      'insufficient_credits',
    );
    expect(await countRows('signature_requests', poor.accountId)).toBe(0);
    expect(await countRows('mail_outbox', poor.accountId)).toBe(0);
  });

  it("another account's template is 404 not_found", async () => {
    const other = await h.account({ credits: 5 });
    const theirs = await twoRoleTemplate(await h.as(other.key));
    expect(await codeOf(caller.signatureRequests.create({ template_id: theirs.id, signers }))).toBe(
      'not_found',
    );
  });

  it('a template archived while a send waits for its lock is refused: 422 template_archived', async () => {
    const mine = await twoRoleTemplate(caller, 'Racing');
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((ok) => {
      locked = ok;
    });
    const gate = new Promise<void>((ok) => {
      release = ok;
    });
    // An archive in flight: the row is changed and locked, not yet committed.
    const archiving = h.db.transaction().execute(async (tx) => {
      await tx.updateTable('templates').set({ archived_at: new Date() }).where('id', '=', mine.id).execute();
      locked();
      await gate;
    });
    await isLocked;
    const sending = codeOf(caller.signatureRequests.create({ template_id: mine.id, signers }));
    await new Promise((ok) => setTimeout(ok, 300));
    release();
    await archiving;
    expect(await sending).toBe('template_archived');
  });
});

describe("another account's ids are 404 not_found (scoped by account and environment)", () => {
  it('signature requests, signers and templates of another account, and of the test side', async () => {
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers });
    const other = await h.account({ credits: 5 });
    const them = await h.as(other.key);
    const testSide = await h.as((await owner.newKey({ environment: 'test' })).key);
    for (const c of [them, testSide]) {
      expect(await codeOf(c.signatureRequests.get({ id: r.id }))).toBe('not_found');
      expect(await codeOf(c.signatureRequests.cancel({ id: r.id }))).toBe('not_found');
      expect(await codeOf(c.signatureRequests.remind({ id: r.id }))).toBe('not_found');
      expect(await codeOf(c.signers.get({ id: r.signers[0]!.id }))).toBe('not_found');
      expect(await codeOf(c.signers.update({ id: r.signers[0]!.id, name: 'X' }))).toBe('not_found');
      expect(await codeOf(c.templates.get({ id: tpl.id }))).toBe('not_found');
      expect(await codeOf(c.templates.update({ id: tpl.id, name: 'X' }))).toBe('not_found');
      expect(await codeOf(c.templates.duplicate({ id: tpl.id }))).toBe('not_found');
      expect(await codeOf(c.templates.archive({ id: tpl.id }))).toBe('not_found');
    }
    const still = await caller.signatureRequests.get({ id: r.id });
    expect(still.status).toBe('sent');
    expect(still.signers[0]!.name).toBe('Cleo Client');
  });
});

describe('the Signature request object reads the snapshot without page sizes (issue 18)', () => {
  it('views carry the documents without page sizes; the stored snapshot keeps them as runs (page_sizes) and the signing page gets every page', async () => {
    const r = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      send_email: false,
      signing_order: 'parallel',
    });
    const stored = await h.db
      .selectFrom('signature_requests')
      .select('snapshot')
      .where('id', '=', r.id)
      .executeTakeFirstOrThrow();
    const storedDocs = (stored.snapshot as { documents: Record<string, unknown>[] }).documents;
    expect(storedDocs.length).toBeGreaterThan(0);
    for (const d of storedDocs) {
      expect(d).not.toHaveProperty('pages');
      expect(d.page_sizes).toEqual([[expect.any(Number), expect.any(Number), expect.any(Number)]]);
    }
    const view = await requestViews(h.db).where('id', '=', r.id).executeTakeFirstOrThrow();
    const viewDocs = (view.snapshot as { documents: Record<string, unknown>[] }).documents;
    expect(viewDocs).toEqual(storedDocs.map(({ page_sizes: _, ...rest }) => rest));
    const { pages: _, documents: __, ...storedRest } = stored.snapshot as Record<string, unknown>;
    expect(view.snapshot).toMatchObject(storedRest);
    // The object itself is what creating it answered (the template's name comes from the view's snapshot).
    const got = await caller.signatureRequests.get({ id: r.id });
    expect(got).toEqual(r);
    expect(got.template).toEqual({ id: tpl.id, name: expect.any(String) });
    const opened = await h.anonymous().signing.open({ token: tokenOf(r.signers[0]!.signing_url) });
    const runs = storedDocs[0]!.page_sizes as [number, number, number][];
    expect(opened.documents[0]!.page_sizes).toEqual(runs);
    expect(opened.documents[0]!.page_count).toBe(runs[0]![0]);
    expect(opened.documents[0]!.page_image_url).toMatch(/\/files\/[^/]+\/.+-page-\{page\}\.png$/);
  });

  it('a snapshot stored before page_sizes (every page in `pages`) still opens with every page, and its view has no page sizes', async () => {
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers, send_email: false });
    const old = [
      { width: 612, height: 792 },
      { width: 842, height: 595 },
    ];
    await sql`update signature_requests set snapshot = jsonb_set(snapshot, '{documents,0}',
      (snapshot->'documents'->0) - 'page_sizes' || jsonb_build_object('pages', ${JSON.stringify(old)}::jsonb))
      where id = ${r.id}`.execute(h.db);
    const opened = await h.anonymous().signing.open({ token: tokenOf(r.signers[0]!.signing_url) });
    expect(opened.documents[0]!.page_sizes).toEqual([
      [1, 612, 792],
      [1, 842, 595],
    ]);
    expect(opened.documents[0]!.page_count).toBe(2);
    const view = await requestViews(h.db).where('id', '=', r.id).executeTakeFirstOrThrow();
    expect((view.snapshot as { documents: Record<string, unknown>[] }).documents[0]).not.toHaveProperty(
      'pages',
    );
  });

  it('a request whose snapshot has no documents array is read as stored', async () => {
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers, send_email: false });
    await sql`update signature_requests set snapshot = snapshot - 'documents' where id = ${r.id}`.execute(
      h.db,
    );
    const view = await requestViews(h.db).where('id', '=', r.id).executeTakeFirstOrThrow();
    expect(view.snapshot).not.toHaveProperty('documents');
    expectTypeOf<ViewColumnsComplete>().toEqualTypeOf<true>();
  });
});
