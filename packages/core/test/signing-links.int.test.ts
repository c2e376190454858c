import type { TestAccount } from '@esign/testing/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../src/app-router.ts';
import { createContext } from '../src/context.ts';
import { createLogger } from '../src/logger.ts';
import {
  LINK_VISITS_PER_EMAIL_PER_HOUR,
  LINK_VISITS_PER_IP_PER_HOUR,
  LINK_VISITS_PER_TEMPLATE_PER_HOUR,
} from '../src/services/links/policy.ts';
import { listMail } from '../src/services/mail.ts';
import { toCoreError } from '../src/trpc.ts';
import { type CoreHarness, codeOf, startCore, twoRoleTemplate } from './caller.ts';

// Source `link` (docs/sending.md): a template's public signing link, its visits and abuse limits.

let h: CoreHarness;
let owner: TestAccount;
let n = 0;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 5 });
});
afterAll(() => h?.close());

const logger = createLogger('silent', 'test');
/** A visitor's browser: no actor, an IP address of its own. */
const visitor = (ip = `198.51.100.${(n % 250) + 1}`) =>
  createCaller(
    createContext({
      db: h.db,
      logger,
      config: h.config,
      deps: h.deps,
      actor: null,
      source: 'link',
      ip,
      now: () => h.clock.now ?? new Date(),
    }),
  );
const email = () => `visitor${++n}@example.com`;
const tokenOf = (url: string) => url.split('/l/')[1]!;

async function linkedTemplate(settings: Record<string, unknown> = {}, account = owner) {
  const caller = await h.as(account.key);
  const tpl = await twoRoleTemplate(caller, `Link ${++n}`);
  const link = await caller.signingLinks.update({
    id: tpl.id,
    enabled: true,
    role: 'Client',
    preset_signers: [{ role: 'Agent', name: 'Andy Agent', email: 'andy@example.com' }],
    ...settings,
  });
  return { tpl, link, token: tokenOf(link.url!), caller };
}

async function codeFor(to: string): Promise<string> {
  const mail = await listMail(h.db, { to, limit: 1 });
  return /\b(\d{6})\b/.exec(mail.data[0]!.subject)![1]!;
}

async function visit(token: string, to = email(), ip?: string) {
  const v = visitor(ip);
  const started = await v.links.start({ token, name: 'Val Visitor', email: to });
  return v.links.confirm({ token, visit: started.visit, code: await codeFor(to) });
}

describe('template settings: the public signing link', () => {
  it('is off until turned on, and needs every other role pre-assigned', async () => {
    const caller = await h.as(owner.key);
    const tpl = await twoRoleTemplate(caller);
    const off = await caller.signingLinks.get({ id: tpl.id });
    expect(off).toMatchObject({ enabled: false, url: null, uses: 0 });
    expect(await codeOf(caller.signingLinks.update({ id: tpl.id, enabled: true }))).toBe('invalid_parameter');
    const on = await caller.signingLinks.update({
      id: tpl.id,
      enabled: true,
      preset_signers: [{ role: 'Agent', email: 'andy@example.com' }],
    });
    expect(on).toMatchObject({ enabled: true, role: 'Client', max_uses: null });
    expect(on.url).toMatch(/\/l\/[\w-]{40,}$/);
  });

  it("another account's template is 404", async () => {
    const other = await h.account();
    const { tpl } = await linkedTemplate();
    const caller = await h.as(other.key);
    expect(await codeOf(caller.signingLinks.get({ id: tpl.id }))).toBe('not_found');
    expect(await codeOf(caller.signingLinks.update({ id: tpl.id, enabled: false }))).toBe('not_found');
  });

  it('rotate gives a new address; the old one is 404', async () => {
    const { tpl, token, caller } = await linkedTemplate();
    const rotated = await caller.signingLinks.update({ id: tpl.id, rotate: true });
    expect(tokenOf(rotated.url!)).not.toBe(token);
    expect(await codeOf(visitor().links.open({ token }))).toBe('not_found');
  });
});

describe('a visit: name and email, an emailed code, then a request with source = link', () => {
  it('creates a request the owner sees, created by the owner, with the visitor and the pre-assigned signer', async () => {
    const { tpl, token, caller } = await linkedTemplate();
    expect(await visitor().links.open({ token })).toMatchObject({ status: 'open', role: 'Client' });
    const to = email();
    const done = await visit(token, to);
    expect(done.signing_url).toMatch(/\/s\//);
    const request = await caller.signatureRequests.get({ id: done.signature_request_id });
    expect(request).toMatchObject({
      source: 'link',
      template: { id: tpl.id },
      created_by: { email: owner.email },
    });
    expect(request.signers.map((s) => [s.role, s.email, s.status])).toEqual([
      ['Client', to, 'sent'],
      ['Agent', 'andy@example.com', 'waiting'],
    ]);
    expect((await caller.signingLinks.get({ id: tpl.id })).uses).toBe(1);
    const events = await h.db
      .selectFrom('webhook_events')
      .select('type')
      .where('object_id', '=', done.signature_request_id)
      .execute();
    expect(events.map((e) => e.type)).toContain('signature_request.created');
  });

  it('a wrong code is refused; five wrong codes lock the visit even for the right one', async () => {
    const { token } = await linkedTemplate();
    const to = email();
    const v = visitor();
    const started = await v.links.start({ token, name: 'Val', email: to });
    const right = await codeFor(to);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      expect(await codeOf(v.links.confirm({ token, visit: started.visit, code: wrong }))).toBe(
        'invalid_request',
      );
    expect(await codeOf(v.links.confirm({ token, visit: started.visit, code: right }))).toBe(
      'invalid_request',
    );
  });

  it('a code works once: confirming twice makes one request', async () => {
    const { token, tpl } = await linkedTemplate();
    const to = email();
    const v = visitor();
    const started = await v.links.start({ token, name: 'Val', email: to });
    const code = await codeFor(to);
    await v.links.confirm({ token, visit: started.visit, code });
    expect(await codeOf(v.links.confirm({ token, visit: started.visit, code }))).toBe('invalid_request');
    const made = await h.db
      .selectFrom('signature_requests')
      .select('id')
      .where('template_id', '=', tpl.id)
      .execute();
    expect(made).toHaveLength(1);
  });

  it('credits: the usual rule applies (no credit left: 402 insufficient_credits, nothing created)', async () => {
    const poor = await h.account({ credits: 0 });
    const { token, tpl } = await linkedTemplate({}, poor);
    expect(await codeOf(visit(token))).toBe('insufficient_credits');
    const made = await h.db
      .selectFrom('signature_requests')
      .select('id')
      .where('template_id', '=', tpl.id)
      .execute();
    expect(made).toHaveLength(0);
  });

  it('a link turned off says so, and refuses new visits and pending codes', async () => {
    const { tpl, token, caller } = await linkedTemplate();
    const to = email();
    const v = visitor();
    const started = await v.links.start({ token, name: 'Val', email: to });
    await caller.signingLinks.update({ id: tpl.id, enabled: false });
    expect(await v.links.open({ token })).toMatchObject({ status: 'off' });
    const err = await v.links.start({ token, name: 'Val', email: email() }).catch(toCoreError);
    expect(err).toMatchObject({ code: 'not_open', message: expect.stringMatching(/turned off/) });
    expect(await codeOf(v.links.confirm({ token, visit: started.visit, code: await codeFor(to) }))).toBe(
      'not_open',
    );
  });

  it('a role added to the template since the link was set up takes the link off until it is pre-assigned', async () => {
    const { tpl, token, caller } = await linkedTemplate();
    await caller.templates.update({ id: tpl.id, roles: ['Client', 'Agent', 'Witness'] });
    expect(await visitor().links.open({ token })).toMatchObject({ status: 'off' });
    const err = await visitor().links.start({ token, name: 'Val', email: email() }).catch(toCoreError);
    expect(err).toMatchObject({ code: 'not_open', message: expect.stringMatching(/roles changed/) });
    await caller.signingLinks.update({
      id: tpl.id,
      preset_signers: [
        { role: 'Agent', email: 'andy@example.com' },
        { role: 'Witness', email: 'wes@example.com' },
      ],
    });
    expect((await visit(token)).signing_url).toMatch(/\/s\//);
  });
});

describe('abuse limits', () => {
  it(`per address: ${LINK_VISITS_PER_EMAIL_PER_HOUR} codes per email address an hour (any link), then 429 with Retry-After`, async () => {
    const { token } = await linkedTemplate();
    const { token: other } = await linkedTemplate();
    const to = email();
    for (let i = 0; i < LINK_VISITS_PER_EMAIL_PER_HOUR; i++)
      await visitor().links.start({
        token: i % 2 ? other : token,
        name: 'Val',
        email: i % 2 ? to.toUpperCase() : to,
      });
    const err = await visitor().links.start({ token: other, name: 'Val', email: to }).catch(toCoreError);
    expect(err).toMatchObject({ code: 'rate_limited' });
    expect((err as { details: { retryAfterSeconds?: number } }).details.retryAfterSeconds).toBeGreaterThan(0);
    await visitor().links.start({ token, name: 'Val', email: email() });
    h.clock.now = new Date(Date.now() + 3601_000);
    try {
      await visitor().links.start({ token, name: 'Val', email: to });
    } finally {
      h.clock.now = null;
    }
  });

  it(`per address: ${LINK_VISITS_PER_IP_PER_HOUR} codes per IP address an hour`, async () => {
    const { token } = await linkedTemplate();
    const ip = '203.0.113.77';
    for (let i = 0; i < LINK_VISITS_PER_IP_PER_HOUR; i++)
      await visitor(ip).links.start({ token, name: 'Val', email: email() });
    expect(await codeOf(visitor(ip).links.start({ token, name: 'Val', email: email() }))).toBe(
      'rate_limited',
    );
    await visitor('203.0.113.78').links.start({ token, name: 'Val', email: email() });
  });

  it(`per template: ${LINK_VISITS_PER_TEMPLATE_PER_HOUR} codes per link an hour, whoever asks`, async () => {
    const { token } = await linkedTemplate();
    const { token: other } = await linkedTemplate();
    for (let i = 0; i < LINK_VISITS_PER_TEMPLATE_PER_HOUR; i++)
      await visitor(`192.0.2.${i + 1}`).links.start({ token, name: 'Val', email: email() });
    expect(await codeOf(visitor('192.0.2.200').links.start({ token, name: 'Val', email: email() }))).toBe(
      'rate_limited',
    );
    await visitor('192.0.2.201').links.start({ token: other, name: 'Val', email: email() });
  });

  it("the owner's cap (max_uses): at the cap the link says it is full; codes asked for before it fail after", async () => {
    const { tpl, token, caller } = await linkedTemplate({ max_uses: 2 });
    const starts = [];
    for (let i = 0; i < 3; i++) {
      const to = email();
      const v = visitor();
      starts.push({ v, to, started: await v.links.start({ token, name: 'Val', email: to }) });
    }
    const results = [];
    for (const s of starts)
      results.push(
        await codeOf(s.v.links.confirm({ token, visit: s.started.visit, code: await codeFor(s.to) })),
      );
    expect(results).toEqual([null, null, 'not_open']);
    expect(await visitor().links.open({ token })).toMatchObject({ status: 'full' });
    expect(await codeOf(visitor().links.start({ token, name: 'Val', email: email() }))).toBe('not_open');
    const made = await h.db
      .selectFrom('signature_requests')
      .select('id')
      .where('template_id', '=', tpl.id)
      .execute();
    expect(made).toHaveLength(2);
    await caller.signingLinks.update({ id: tpl.id, max_uses: 3 });
    expect(await visitor().links.open({ token })).toMatchObject({ status: 'open' });
  });
});
