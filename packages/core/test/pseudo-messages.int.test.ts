import { usePseudoLocale } from '@esign/i18n';
import type { TestAccount } from '@esign/testing/accounts';
import { englishLeft } from '@esign/testing/pseudo-words';
import { PNG_DOT } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobHandlers } from '../src/jobs.ts';
import { drainJobs } from '../src/services/worker.ts';
import { type CoreHarness, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// Issue 42, Done when: "Pseudo-localisation (the dashboard already has `en-XA`) runs over ...
// emails and SMS too: no English left that is not data." Every email and SMS a signer, a CC
// recipient or a public-link visitor receives is produced by the real flows with the server's
// messages in en-XA (@esign/i18n usePseudoLocale: each catalogue message accented between ⟦ and
// ⟧); a word of three letters or more outside ⟦…⟧ that is not data (names, titles, addresses,
// links, codes, dates Intl writes) is English written inline.

// Two requests are sealed (the document pool): slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

let h: CoreHarness;
let owner: TestAccount;
let templateId: string | number;
const data: string[] = [];

const TITLE = 'Ωμέγα';
const people = {
  alpha: { name: 'Ἀλφα', email: 'alpha@example.com' },
  beta: { name: 'Βήτα', email: 'beta@example.com' },
  delta: { name: 'Δέλτα', email: 'delta@example.com' },
  zeta: { name: 'Ζήτα', email: 'zeta@example.com' },
  eta: { name: 'Ἦτα', email: 'eta@example.com' },
  theta: { name: 'Θήτα', email: 'theta@example.com' },
  visitor: { name: 'Ἰῶτα', email: 'iota@example.com' },
};
const PHONE = '+49 30 1234567';
const CC = 'gamma@example.com';

beforeAll(async () => {
  usePseudoLocale(true);
  h = await startCore();
  owner = await h.account({ credits: 50 });
  const caller = await h.as(owner.key);
  templateId = (await twoRoleTemplate(caller, TITLE)).id;
  const account = await h.db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.name as user', 'accounts.name as account'])
    .where('users.id', '=', owner.userId)
    .executeTakeFirstOrThrow();
  data.push(TITLE, account.user ?? '', account.account ?? '', owner.email, CC, PHONE);
  for (const p of Object.values(people)) data.push(p.name, p.email);
  // The fields of twoRoleTemplate and the link's preset signer (data the sender chose).
  data.push('Client signature', 'Agent signature', 'Client name', 'Client photo', 'Andy Agent');
  // The name the server gives a document sent without one (as the dashboard's check takes it).
  data.push('Document 1');
}, 120_000);
afterAll(async () => {
  usePseudoLocale(false);
  await h?.close();
});

type Mail = { id: number; kind: string; to_address: string; subject: string; text_body: string };
/** Every email as it was queued: read after each step, since signing purges its links later. */
const outbox = new Map<number, Mail>();
async function collect() {
  const rows = await h.db
    .selectFrom('mail_outbox')
    .select(['id', 'kind', 'to_address', 'subject', 'text_body'])
    .where('to_address', '!=', owner.email)
    .execute();
  for (const row of rows) if (!outbox.has(row.id)) outbox.set(row.id, row as Mail);
  const texts = await h.db.selectFrom('sms_outbox').select(['id', 'kind', 'text_body']).execute();
  for (const row of texts) if (!smsOutbox.has(row.id)) smsOutbox.set(row.id, row);
}
const smsOutbox = new Map<number, { id: number; kind: string; text_body: string }>();

const jobs = async () => {
  await collect();
  await drainJobs(h.sc, jobHandlers);
  await collect();
};

async function send(signers: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const caller = await h.as(owner.key);
  return caller.signatureRequests.create({
    template_id: templateId,
    expires_at: new Date(Date.now() + 20 * 86_400_000).toISOString(),
    signers,
    ...extra,
  } as never);
}

const client = (p: { name: string; email?: string }, more: Record<string, unknown> = {}) => ({
  role: 'Client',
  ...p,
  ...more,
});
const agent = (p: { name: string; email?: string }, more: Record<string, unknown> = {}) => ({
  role: 'Agent',
  ...p,
  ...more,
});

/** Signs as the signer of `url` (with the code session when one is asked). */
async function sign(url: string, values: Record<string, unknown>, session?: string) {
  await collect();
  await h.anonymous().signing.complete({ token: tokenOf(url), values, ...(session ? { session } : {}) });
}

describe('issue 42: emails and SMS in the pseudo-language en-XA', () => {
  it('issue 42 (Done when): every email kind a signer, CC recipient or link visitor gets has no English outside the catalogue but data', async () => {
    // Sequential, with a CC: invitation, cc, reminder, signer.copy, next signer, completion, cc.completed.
    const a = await send([client(people.alpha), agent(people.beta)], {
      cc: [CC],
      message: { subject: '', body: '' },
    });
    const caller = await h.as(owner.key);
    await caller.signatureRequests.remind({ id: a.id } as never);
    await sign(a.signers[0]!.signing_url!, { 'Client signature': PNG_DOT, 'Client name': people.alpha.name });
    await jobs();
    const next = await caller.signatureRequests.get({ id: a.id } as never);
    await sign(next.signers[1]!.signing_url!, { 'Agent signature': PNG_DOT });
    await jobs();

    // The email code, and a hand-over's invitation.
    const b = await send([client(people.delta), agent(people.zeta)], {
      require_email_otp: true,
      allow_delegation: true,
    });
    await h.anonymous().signing.requestCode({ token: tokenOf(b.signers[0]!.signing_url) });
    const c = await send([client(people.eta), agent(people.theta)], { allow_delegation: true });
    await collect();
    await h.anonymous().signing.delegate({
      token: tokenOf(c.signers[0]!.signing_url),
      name: people.visitor.name,
      email: 'kappa@example.com',
      reason: 'Λόγος',
    } as never);
    data.push('kappa@example.com', 'Λόγος');

    // A public link's visitor: the code email and the invitation.
    const link = await caller.signingLinks.update({
      id: templateId,
      enabled: true,
      role: 'Client',
      preset_signers: [{ role: 'Agent', name: 'Andy Agent', email: 'andy@example.com' }],
    } as never);
    data.push('andy@example.com');
    const token = link.url!.split('/l/')[1]!;
    const started = await h.anonymous().links.start({ token, ...people.visitor });
    await collect();
    const codeMail = await h.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', people.visitor.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const code = /\b(\d{6})\b/.exec(codeMail.subject)![1]!;
    await h.anonymous().links.confirm({ token, visit: started.visit, code });
    await jobs();

    await collect();
    const mails = [...outbox.values()];
    const kinds = new Set(mails.map((m) => m.kind));
    for (const kind of [
      'invitation',
      'reminder',
      'next_signer',
      'otp',
      'cc',
      'signer.copy',
      'request.completed',
      'cc.completed',
    ])
      expect([...kinds], kind).toContain(kind);
    expect(mails.length).toBeGreaterThanOrEqual(11);
    const left: Record<string, string[]> = {};
    for (const m of mails) {
      const english = englishLeft(`${m.subject}\n${m.text_body}`, data);
      if (english.length) left[`${m.kind} → ${m.to_address}`] = english;
    }
    if (process.env.SHOW_PSEUDO)
      for (const m of mails) console.log(`${m.kind}\n${m.subject}\n${m.text_body}`);
    expect(left).toEqual({});
    expect(mails.map((m) => m.text_body).join('\n')).toContain('⟦');
  });

  it('issue 42 (Done when): every SMS kind (invitation, next signer, reminder, code, completion link) has no English outside the catalogue but data', async () => {
    // The phone-only signer signs second: the next-signer SMS, a reminder, the code, the completion link.
    const d = await send([client(people.alpha), agent({ name: people.beta.name }, { phone: PHONE })], {
      require_email_otp: true,
    });
    const e = await send([client({ name: people.delta.name }, { phone: '+49 30 7654321' })]);
    data.push('+49 30 7654321');
    expect(e.signers[0]!.status).toBe('sent');
    const codeOf = async (signerId: number) => {
      const row = await h.db
        .selectFrom('sms_outbox')
        .select('text_body')
        .where('signer_id', '=', signerId)
        .where('kind', '=', 'otp')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return /\b(\d{6})\b/.exec(row.text_body)![1]!;
    };
    const first = tokenOf(d.signers[0]!.signing_url);
    await h.anonymous().signing.requestCode({ token: first });
    const firstSession = await h.anonymous().signing.verifyCode({ token: first, code: await emailCode() });
    await sign(
      d.signers[0]!.signing_url!,
      { 'Client signature': PNG_DOT, 'Client name': 'Ἀλφα' },
      firstSession.session,
    );
    await jobs();
    const caller = await h.as(owner.key);
    await caller.signatureRequests.remind({ id: d.id } as never);
    await collect();
    const now = await caller.signatureRequests.get({ id: d.id } as never);
    const second = tokenOf(now.signers[1]!.signing_url);
    await h.anonymous().signing.requestCode({ token: second });
    await collect();
    const session = await h
      .anonymous()
      .signing.verifyCode({ token: second, code: await codeOf(now.signers[1]!.id) });
    await sign(now.signers[1]!.signing_url!, { 'Agent signature': PNG_DOT }, session.session);
    await jobs();

    await collect();
    const texts = [...smsOutbox.values()];
    const kinds = new Set(texts.map((s) => s.kind));
    for (const kind of ['invitation', 'next_signer', 'reminder', 'otp', 'request.completed'])
      expect([...kinds], kind).toContain(kind);
    const left: Record<string, string[]> = {};
    for (const s of texts) {
      const english = englishLeft(s.text_body, data);
      if (english.length) left[s.kind] = english;
    }
    expect(left).toEqual({});

    async function emailCode() {
      const row = await h.db
        .selectFrom('mail_outbox')
        .select('subject')
        .where('to_address', '=', people.alpha.email)
        .where('kind', '=', 'otp')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return /\b(\d{6})\b/.exec(row.subject)![1]!;
    }
  });
});
