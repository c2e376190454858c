import { makeTemplate } from '@esign/testing/fixtures';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { PNG_DOT, sendRequest, tokenOf, trpc } from '@esign/testing/signing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 31: sends of one template no longer queue on a lock of the template row (they share it),
// and the credit rules stay exact under that concurrency: a template's first signature uses
// exactly one credit, an account never goes below its overdraft, the lifetime plan never counts;
// an edit of the template still excludes the sends running at the same moment.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(() => t.close());

const signer = (i: number) => [{ name: `Signer ${i}`, email: `signer${i}@example.com` }];

async function sendMany(owner: TestAccount, templateId: number, n: number) {
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      sendRequest(t, owner, { template_id: templateId, signers: signer(i), send_email: false }),
    ),
  );
}

/** Signs every request (all at once): each one completes. */
async function completeAll(owner: TestAccount, templateId: number, requests: any[]) {
  const fields = (await t.api('GET', `templates/${templateId}`, { key: owner.key })).body.fields;
  const values = Object.fromEntries(fields.map((f: any) => [f.name, PNG_DOT]));
  const results = await Promise.all(
    requests.map((r) => trpc(t, 'complete', { token: tokenOf(r.signers[0].signing_url), values })),
  );
  for (const res of results) expect(res.error).toBeNull();
}

async function consumed(accountId: number) {
  return t.db
    .selectFrom('credit_ledger')
    .select(['template_id', 'delta'])
    .where('account_id', '=', accountId)
    .where('reason', '=', 'consume')
    .execute();
}

const credits = async (owner: TestAccount) => (await t.api('GET', 'credits', { key: owner.key })).body;

describe('issue 31: concurrent sends of one template and credits', () => {
  it('30 sends of one template at once all succeed; signing them all uses exactly one credit, down to the overdraft limit and never below it', async () => {
    // available 0, overdraft -1: a new template may still be sent (0 > -1), its credit takes the
    // balance to -1, the limit; after that no new template can be sent.
    const owner = await createTestAccount(t.db, { credits: 0, overdraft: -1 });
    const tpl = await makeTemplate(t, owner);
    const other = await makeTemplate(t, owner);
    const sends = await sendMany(owner, tpl.id, 30);
    expect(sends.map((r) => r.status)).toEqual(Array(30).fill(201));
    expect(new Set(sends.map((r) => r.body.id)).size).toBe(30);
    await completeAll(
      owner,
      tpl.id,
      sends.map((r) => r.body),
    );
    expect(await consumed(owner.accountId)).toEqual([{ template_id: tpl.id, delta: -1 }]);
    expect(await credits(owner)).toMatchObject({ available: -1, overdraft_limit: -1, can_send: false });
    // At the limit: the template already signed still sends (its credit is used), a new one cannot.
    const again = await sendMany(owner, tpl.id, 5);
    expect(again.map((r) => r.status)).toEqual(Array(5).fill(201));
    const refused = await sendRequest(t, owner, {
      template_id: other.id,
      signers: signer(0),
      send_email: false,
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');
  }, 120_000);

  it('30 sends at once at the overdraft limit are all refused with 402 insufficient_credits and write nothing', async () => {
    const owner = await createTestAccount(t.db, { credits: 0, overdraft: 0 });
    const tpl = await makeTemplate(t, owner);
    const sends = await sendMany(owner, tpl.id, 30);
    expect(sends.map((r) => r.status)).toEqual(Array(30).fill(402));
    const written = await t.db
      .selectFrom('signature_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', owner.accountId)
      .executeTakeFirstOrThrow();
    expect(Number(written.n)).toBe(0);
  }, 60_000);

  it('the lifetime plan never counts: 30 sends at once, all signed, no credit used', async () => {
    const owner = await createTestAccount(t.db, { lifetime: true });
    const tpl = await makeTemplate(t, owner);
    const sends = await sendMany(owner, tpl.id, 30);
    expect(sends.map((r) => r.status)).toEqual(Array(30).fill(201));
    await completeAll(
      owner,
      tpl.id,
      sends.map((r) => r.body),
    );
    expect(await consumed(owner.accountId)).toEqual([]);
    expect(await credits(owner)).toMatchObject({ unlimited: true, can_send: true });
  }, 120_000);
});

describe('issue 31: a template edit racing sends still excludes them', () => {
  it('a send that waited for an edit holding the template (FOR UPDATE) snapshots the edited template, never its old fields', async () => {
    const owner = await createTestAccount(t.db, { credits: 10 });
    const tpl = await makeTemplate(t, owner, { name: 'Before' });
    let sent: Promise<Awaited<ReturnType<typeof sendRequest>>> | undefined;
    await t.db.transaction().execute(async (tx) => {
      // What PATCH /templates/{id} does: lock the row, replace the fields, bump the version.
      await sql`select id from templates where id = ${tpl.id} for update`.execute(tx);
      await sql`update template_fields set name = 'Renamed signature' where template_id = ${tpl.id}`.execute(
        tx,
      );
      await sql`update templates set name = 'After', version = version + 1 where id = ${tpl.id}`.execute(tx);
      sent = sendRequest(t, owner, { template_id: tpl.id, signers: signer(1), send_email: false });
      // The send is waiting on the template row while this transaction holds it.
      for (let i = 0; i < 50; i++) {
        const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like '%for share'`.execute(t.db);
        if (waiting.rows[0]!.n > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    const res = await sent!;
    expect(res.status, res.text).toBe(201);
    expect(res.body.template).toEqual({ id: tpl.id, name: 'After' });
    const row = await t.db
      .selectFrom('signature_requests')
      .select('snapshot')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    const snapshot = row.snapshot as { template: { name: string }; fields: { name: string }[] };
    expect(snapshot.template.name).toBe('After');
    expect(snapshot.fields.map((f) => f.name)).toEqual(['Renamed signature']);
  }, 60_000);

  it('sends racing PATCH and archive: each request is one whole version of the template, and none is written after the archive', async () => {
    const owner = await createTestAccount(t.db, { credits: 10 });
    const tpl = await makeTemplate(t, owner, { name: 'Version 1' });
    const field = (name: string) => ({ ...signatureField(), name });
    await t.api('PATCH', `templates/${tpl.id}`, { key: owner.key, body: { fields: [field('One')] } });
    const first = sendMany(owner, tpl.id, 15);
    const patch = t.api('PATCH', `templates/${tpl.id}`, {
      key: owner.key,
      body: { name: 'Version 2', fields: [field('Two')] },
    });
    const second = sendMany(owner, tpl.id, 15);
    const all = [...(await first), ...(await second)];
    expect((await patch).status).toBe(200);
    const archived = await t.api('POST', `templates/${tpl.id}/archive`, { key: owner.key });
    expect(archived.status).toBe(200);
    const after = await sendRequest(t, owner, { template_id: tpl.id, signers: signer(0), send_email: false });
    expect(after.body.error?.code).toBe('template_archived');
    expect(all.map((r) => r.status)).toEqual(Array(30).fill(201));
    const rows = await t.db
      .selectFrom('signature_requests')
      .select(['snapshot', 'created_at'])
      .where('template_id', '=', tpl.id)
      .execute();
    expect(rows).toHaveLength(30);
    for (const r of rows) {
      const s = r.snapshot as { template: { name: string }; fields: { name: string }[] };
      expect([
        ['Version 1', 'One'],
        ['Version 2', 'Two'],
      ]).toContainEqual([s.template.name, s.fields.map((f) => f.name).join()]);
    }
  }, 120_000);
});

describe('issue 31: sends of one template do not queue on each other', () => {
  it('a send goes through while another send of the same template holds its lock (FOR SHARE is shared)', async () => {
    const owner = await createTestAccount(t.db, { credits: 10 });
    const tpl = await makeTemplate(t, owner, { documents: [{ file: b64(await plainPdf(1)) }] });
    await t.db.transaction().execute(async (tx) => {
      // What a send in flight holds until it commits.
      await sql`select id from templates where id = ${tpl.id} for share`.execute(tx);
      const res = await sendRequest(t, owner, { template_id: tpl.id, signers: signer(2), send_email: false });
      expect(res.status, res.text).toBe(201);
    });
  }, 60_000);
});
