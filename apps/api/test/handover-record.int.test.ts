import { createCaller, createContext, createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs, requestTimeline } from '@esign/core/testing';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as auditActingSigner from '../../../packages/db/src/migrations/2026_12_07_0401_audit_acting_signer.ts';
import {
  pdfText,
  requireTool,
  signaturePng,
  tempDir,
  writeTemp,
} from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 42 item 1: after a hand-over (signing.delegate) every record names the person who acted
// at the time: the sealed audit trail, the dashboard timeline, and the new person's invitation.
// Driven through the signing procedures (open, saveValues, delegate, complete) as the signing page
// calls them; the sealed trail is read back with pdftotext.

let t: TestApp;
let owner: TestAccount;
let templateId: number;
let dir: string;
const logger = createLogger('silent', 'test');
const area = (y: number) => ({ page: 1, x: 0.1, y, w: 0.4, h: 0.06, document: 0 });

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  dir = tempDir('handover');
  const tpl = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Lease',
      documents: [{ name: 'Lease', file: b64(await plainPdf(1, 'Lease')) }],
      fields: [
        { name: 'Name', type: 'text', role: 'Tenant', areas: [area(0.2)] },
        { name: 'Signature', type: 'signature', role: 'Tenant', areas: [area(0.4)] },
      ],
    },
  });
  expect(tpl.status, tpl.text).toBe(201);
  templateId = tpl.body.id;
});
afterAll(() => t.close());

const signing = () =>
  createCaller(createContext({ db: t.db, logger, config: t.config, deps: t.rt.deps, source: 'link' }))
    .signing;
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
const REASON = 'I am abroad until May; Dan signs for our household';
const CARLA = 'Carla Kim <carla@example.com>';
const DAN = 'Dan Delegate <dan@example.com>';

/** Carla opens, starts filling in and hands over to Dan. */
async function carlaHandsOver(locale: string) {
  const sent = await t.api('POST', 'signature_requests', {
    key: owner.key,
    body: {
      template_id: templateId,
      locale,
      allow_delegation: true,
      signers: [{ role: 'Tenant', name: 'Carla Kim', email: 'carla@example.com' }],
    },
  });
  expect(sent.status, sent.text).toBe(201);
  const carla = tokenOf(sent.body.signers[0].signing_url);
  await signing().open({ token: carla });
  await signing().saveValues({ token: carla, values: { Name: 'Carla Kim' } });
  await signing().delegate({ token: carla, name: 'Dan Delegate', email: 'dan@example.com', reason: REASON });
  return { id: sent.body.id as number, signerId: sent.body.signers[0].id as number };
}

/** {@link carlaHandsOver}, then Dan opens and signs, and the request is sealed. */
async function handOver(locale: string) {
  const sent = { body: await carlaHandsOver(locale) };
  const moved = await t.api('GET', `signature_requests/${sent.body.id}`, { key: owner.key });
  const dan = tokenOf(moved.body.signers[0].signing_url);
  await signing().open({ token: dan });
  await signing().complete({ token: dan, values: { Name: 'Dan Delegate', Signature: signaturePng() } });
  await drainJobs(
    { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
    jobHandlers,
  );
  const done = await t.api('GET', `signature_requests/${sent.body.id}`, { key: owner.key });
  expect(done.body.audit_trail_url, done.text).toBeTruthy();
  return { id: sent.body.id, url: done.body.audit_trail_url as string };
}

/** The trail's events section, one string per event type occurrence: "type … detail" up to the next type. */
function eventsOf(text: string, types: string[]): Map<string, string> {
  const flat = text.replace(/\s+/g, ' ');
  const found = new Map<string, string>();
  for (const type of types) {
    const at = flat.lastIndexOf(` ${type} `);
    expect(at, `${type} in the trail`).toBeGreaterThan(-1);
    found.set(type, flat.slice(at, at + 400));
  }
  return found;
}

describe('issue 42 item 1: a hand-over keeps who did what', () => {
  for (const locale of ['en', 'de']) {
    it(`issue 42: the sealed audit trail (${locale}) names Carla for what she did before handing over, the hand-over with from, to and reason, and Dan for what he did`, async () => {
      requireTool('pdftotext');
      const r = await handOver(locale);
      const pdf = new Uint8Array(await (await fetch(r.url)).arrayBuffer());
      const text = pdfText(writeTemp(dir, `trail-${locale}-${r.id}.pdf`, pdf));
      if (process.env.SHOW_TRAIL) console.log(text);
      const flat = text.replace(/\s+/g, ' ');
      // Carla's own entries come before the hand-over, Dan's after it.
      const handed = flat.indexOf(' signer.delegated ');
      expect(handed).toBeGreaterThan(-1);
      const before = flat.slice(0, handed);
      const after = flat.slice(handed + ' signer.delegated '.length);
      const nextType = after.search(/ [a-z_]+\.[a-z_]+ /);
      const delegated = after.slice(0, nextType);
      expect(delegated).toContain(CARLA);
      expect(delegated).toContain(`from: ${CARLA}`);
      expect(delegated).toContain(`to: ${DAN}`);
      expect(delegated).toContain(REASON);
      const ev = eventsOf(before, ['signer.viewed', 'signer.started']);
      for (const [type, detail] of ev) {
        expect(detail.slice(0, detail.indexOf('·') + 40), type).toContain(CARLA);
        expect(detail.slice(0, 120), type).not.toContain('Dan Delegate');
      }
      const later = eventsOf(after, ['signer.viewed', 'signer.signed']);
      for (const [type, detail] of later) expect(detail.slice(0, 160), type).toContain(DAN);
    });
  }

  it('issue 42: the dashboard timeline names the person who acted at the time, and the hand-over names both', async () => {
    const r = await handOver('en');
    const rows = await requestTimeline(t.db, { accountId: owner.accountId, environment: 'live' }, r.id);
    const by = (type: string) => rows.filter((a) => a.type === type).map((a) => a.signer?.name);
    expect(by('signer.viewed')).toEqual(['Carla Kim', 'Dan Delegate']);
    // Completing starts Dan's own filling in.
    expect(by('signer.started')).toEqual(['Carla Kim', 'Dan Delegate']);
    expect(by('signer.delegated')).toEqual(['Carla Kim']);
    expect(by('signer.signed')).toEqual(['Dan Delegate']);
    const handed = rows.find((a) => a.type === 'signer.delegated')!;
    expect(handed.signer?.email).toBe('carla@example.com');
    expect(handed.data).toMatchObject({ to: { name: 'Dan Delegate' }, reason: REASON });
  });

  it("issue 42: entries stored before signer_who existed get the person from the signer's next hand-over (the migration's backfill)", async () => {
    const r = await handOver('en');
    // As before the migration: no column, then the migration again over the stored entries.
    await auditActingSigner.down(t.db);
    await auditActingSigner.up(t.db);
    const rows = await t.db
      .selectFrom('audit_events')
      .select(['type', 'signer_who'])
      .where('signature_request_id', '=', r.id)
      .where('signer_id', 'is not', null)
      .orderBy('id')
      .execute();
    const name = (type: string) => rows.filter((e) => e.type === type).map((e) => e.signer_who?.name);
    expect(name('signer.viewed')).toEqual(['Carla Kim', 'Dan Delegate']);
    expect(name('signer.delegated')).toEqual(['Carla Kim']);
    expect(name('signer.signed')).toEqual(['Dan Delegate']);
  });

  it("issue 42: the delegate's invitation says who passed it on and why", async () => {
    const r = await carlaHandsOver('de');
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['text_body'])
      .where('signer_id', '=', r.signerId)
      .where('to_address', '=', 'dan@example.com')
      .where('kind', '=', 'invitation')
      .executeTakeFirstOrThrow();
    expect(mail.text_body.replace(/\s+/g, ' ')).toContain(
      `Carla Kim (carla@example.com) hat dies an Sie weitergegeben, damit Sie an seiner oder ihrer Stelle unterschreiben. Grund: ${REASON}`,
    );
  });
});
