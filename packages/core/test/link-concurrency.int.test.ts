import { PNG_DOT } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../src/app-router.ts';
import { createContext } from '../src/context.ts';
import { createLogger } from '../src/logger.ts';
import { listMail } from '../src/services/mail.ts';
import { toCoreError } from '../src/trpc.ts';
import { type CoreHarness, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// Issue 31: a public signing link visited by many people at the same moment: every visitor who
// confirms their code gets a request (and a copy to sign) of their own, none is lost or shared,
// and the owner's cap on uses stays exact.

let h: CoreHarness;
beforeAll(async () => {
  h = await startCore();
}, 120_000);
afterAll(() => h?.close());

const logger = createLogger('silent', 'test');
/** Visitor `i`'s browser: no actor, an IP address of its own. */
const visitor = (i: number) =>
  createCaller(
    createContext({
      db: h.db,
      logger,
      config: h.config,
      deps: h.deps,
      actor: null,
      source: 'link',
      ip: `203.0.113.${i + 1}`,
      now: () => new Date(),
    }),
  );

async function codeFor(to: string): Promise<string> {
  const mail = await listMail(h.db, { to, limit: 1 });
  return /\b(\d{6})\b/.exec(mail.data[0]!.subject)![1]!;
}

async function linkedTemplate(credits: number, settings: Record<string, unknown> = {}) {
  const owner = await h.account({ credits });
  const caller = await h.as(owner.key);
  const tpl = await twoRoleTemplate(caller, 'Walk-in waiver');
  const link = await caller.signingLinks.update({
    id: tpl.id,
    enabled: true,
    role: 'Client',
    preset_signers: [{ role: 'Agent', name: 'Andy Agent', email: 'andy@example.com' }],
    ...settings,
  });
  return { tpl, caller, token: link.url!.split('/l/')[1]! };
}

/** `n` visitors asking for a code at once, then confirming at once. */
async function visitAtOnce(token: string, n: number, run: string) {
  const emails = Array.from({ length: n }, (_, i) => `walkin-${run}-${i}@example.com`);
  const started = await Promise.all(
    emails.map((email, i) => visitor(i).links.start({ token, name: `Walk-in ${i}`, email })),
  );
  const codes = await Promise.all(emails.map(codeFor));
  const confirmed = await Promise.all(
    started.map((s, i) =>
      visitor(i).links.confirm({ token, visit: s.visit, code: codes[i]! }).catch(toCoreError),
    ),
  );
  return { emails, confirmed };
}

describe('issue 31: 50 visitors of one public link at once', () => {
  it('50 visitors confirming and signing at once each get their own request and signed copy', async () => {
    const { tpl, caller, token } = await linkedTemplate(5);
    const { emails, confirmed } = await visitAtOnce(token, 50, 'all');
    for (const c of confirmed) expect(c).toMatchObject({ signature_request_id: expect.any(Number) });
    const done = confirmed as { signature_request_id: number; signing_url: string }[];
    expect(new Set(done.map((c) => c.signature_request_id)).size).toBe(50);
    expect(new Set(done.map((c) => c.signing_url)).size).toBe(50);
    // Everyone signs at once, each on their own link.
    const values = { 'Client signature': PNG_DOT, 'Client name': 'Walk-in' };
    await Promise.all(
      done.map((c, i) => visitor(i).signing.complete({ token: tokenOf(c.signing_url), values })),
    );
    const signers = await h.db
      .selectFrom('signers')
      .innerJoin('signature_requests', 'signature_requests.id', 'signers.signature_request_id')
      .select([
        'signers.signature_request_id',
        'signers.email',
        'signers.status',
        'signature_requests.source',
      ])
      .where('signature_requests.template_id', '=', tpl.id)
      .where('signers.role', '=', 'Client')
      .execute();
    expect(signers).toHaveLength(50);
    expect(new Set(signers.map((s) => s.email))).toEqual(new Set(emails));
    for (const [i, c] of done.entries()) {
      expect(signers.find((s) => s.signature_request_id === c.signature_request_id)).toMatchObject({
        email: emails[i],
        status: 'signed',
        source: 'link',
      });
    }
    expect((await caller.signingLinks.get({ id: tpl.id })).uses).toBe(50);
    const visits = await h.db
      .selectFrom('link_visits')
      .select(['signature_request_id', 'used_at'])
      .where('template_id', '=', tpl.id)
      .execute();
    expect(visits.filter((v) => v.used_at !== null)).toHaveLength(50);
    expect(new Set(visits.map((v) => v.signature_request_id)).size).toBe(50);
  }, 180_000);

  it('with a cap of 20 uses, 50 visitors confirming at once make exactly 20 requests; the others are told the link is full', async () => {
    const { tpl, caller, token } = await linkedTemplate(5, { max_uses: 20 });
    // All 50 ask for a code while the link has room, then all confirm at once.
    const { confirmed } = await visitAtOnce(token, 50, 'cap');
    expect(confirmed.filter((c) => 'signature_request_id' in c)).toHaveLength(20);
    const refused = confirmed.filter((c) => !('signature_request_id' in c));
    expect(refused).toHaveLength(30);
    for (const r of refused) expect(r).toMatchObject({ code: 'not_open' });
    const made = await h.db
      .selectFrom('signature_requests')
      .select('id')
      .where('template_id', '=', tpl.id)
      .execute();
    expect(made).toHaveLength(20);
    expect((await caller.signingLinks.get({ id: tpl.id })).uses).toBe(20);
  }, 180_000);
});
