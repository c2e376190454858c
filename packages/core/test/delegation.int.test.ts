import { t } from '@esign/i18n';
import type { TestAccount } from '@esign/testing/accounts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookEndpoint } from '../src/services/webhooks/endpoints.ts';
import { type CoreHarness, codeOf, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// Issue 34.3: a signer hands their turn to someone else (signing.delegate) when the sender allowed it.

let h: CoreHarness;
let owner: TestAccount;
let caller: Awaited<ReturnType<CoreHarness['as']>>;
let tpl: Awaited<ReturnType<typeof twoRoleTemplate>>;

beforeAll(async () => {
  h = await startCore({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  owner = await h.account({ credits: 50 });
  caller = await h.as(owner.key);
  tpl = await twoRoleTemplate(caller);
});
afterAll(() => h?.close());

const signers = [
  { name: 'Cleo Client', email: 'cleo@example.com' },
  { name: 'Andy Agent', email: 'andy@example.com' },
];
const signer = () => h.anonymous().signing;

async function mailTo(address: string) {
  return h.db
    .selectFrom('mail_outbox')
    .select(['kind', 'subject', 'text_body'])
    .where('to_address', '=', address)
    .orderBy('id')
    .execute();
}

describe('issue 34.3: signing.delegate', () => {
  it('issue 34.3: allow_delegation defaults to false: the signing page offers nothing and delegate is 403 forbidden', async () => {
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers });
    const token = tokenOf(r.signers[0]!.signing_url);
    expect((await signer().open({ token })).allow_delegation).toBeUndefined();
    const call = signer().delegate({
      token,
      name: 'Dana Deputy',
      email: 'dana@example.com',
      reason: 'On leave',
    });
    expect(await codeOf(call)).toBe('forbidden');
    expect((await signer().open({ token })).signer.email).toBe('cleo@example.com');
  });

  it('issue 34.3: the new person is invited for the same role from an empty form; the delegated link is refused as an invalid link (404 not_found); the sender is emailed; the audit trail records it', async () => {
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      allow_delegation: true,
    });
    expect(sent.allow_delegation).toBe(true);
    const first = sent.signers[0]!;
    const token = tokenOf(first.signing_url);
    expect((await signer().open({ token })).allow_delegation).toBe(true);
    await signer().saveValues({ token, values: { 'Client name': 'Cleo draft' } });
    const result = await signer().delegate({
      token,
      name: 'Dana Deputy',
      email: 'dana@example.com',
      reason: 'I am on leave; Dana signs for our company',
    });
    expect(result).toEqual({ delegated: true });

    expect(await codeOf(signer().open({ token }))).toBe('not_found');
    expect(await codeOf(signer().saveValues({ token, values: { 'Client name': 'late' } }))).toBe('not_found');

    const after = await caller.signatureRequests.get({ id: sent.id });
    const moved = after.signers[0]!;
    expect(moved).toMatchObject({
      id: first.id,
      role: 'Client',
      name: 'Dana Deputy',
      email: 'dana@example.com',
    });
    expect(moved.values).toEqual([]);
    expect(moved.signing_url).not.toBe(first.signing_url);
    const opened = await signer().open({ token: tokenOf(moved.signing_url) });
    expect(opened.signer).toMatchObject({ name: 'Dana Deputy', role: 'Client' });
    const saved = await signer().saveValues({ token: tokenOf(moved.signing_url), values: {} });
    expect(saved.values).toEqual({});

    expect((await mailTo('dana@example.com')).map((m) => m.kind)).toEqual(['invitation']);
    const notice = (await mailTo(owner.email)).filter((m) => m.kind === 'delegation_notice');
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text_body).toContain('I am on leave; Dana signs for our company');
    expect(notice[0]!.text_body).toContain('Cleo Client (cleo@example.com)');
    // The first person's invitation no longer carries a working link.
    expect((await mailTo('cleo@example.com')).every((m) => !m.text_body.includes(token))).toBe(true);

    const audit = await h.db
      .selectFrom('audit_events')
      .select(['type', 'actor_type', 'actor_id', 'data'])
      .where('signature_request_id', '=', sent.id)
      .where('type', '=', 'signer.delegated')
      .execute();
    expect(audit).toEqual([
      {
        type: 'signer.delegated',
        actor_type: 'signer',
        actor_id: String(first.id),
        data: {
          from: { name: 'Cleo Client', email: 'cleo@example.com', phone: null },
          to: { name: 'Dana Deputy', email: 'dana@example.com', phone: null },
          reason: 'I am on leave; Dana signs for our company',
        },
      },
    ]);
  });

  it("issue 32: the new person reads the language the delegating signer chose (signing.delegate locale), else the request's, never the first signer's own", async () => {
    const title = tpl.name;
    const subjectOf = async (address: string) => (await mailTo(address)).map((m) => m.subject);
    const delegated = async (input: { locale?: string }, to: string) => {
      const sent = await caller.signatureRequests.create({
        template_id: tpl.id,
        locale: 'es',
        allow_delegation: true,
        signers: [{ ...signers[0]!, locale: 'de' }, signers[1]!],
      });
      const token = tokenOf(sent.signers[0]!.signing_url);
      expect((await signer().open({ token })).locale).toBe('de');
      await signer().delegate({ token, name: 'Dana Deputy', email: to, reason: 'On leave', ...input });
      const moved = (await caller.signatureRequests.get({ id: sent.id })).signers[0]!;
      return { moved, opened: await signer().open({ token: tokenOf(moved.signing_url) }) };
    };

    const chosen = await delegated({ locale: 'fr-CA' }, 'dana.fr@example.com');
    expect(chosen.moved.locale).toBe('fr-CA');
    expect(chosen.opened.locale).toBe('fr');
    expect(await subjectOf('dana.fr@example.com')).toEqual([t('fr', 'mail.invite.subject', { title })]);

    const unsaid = await delegated({}, 'dana.es@example.com');
    expect(unsaid.moved.locale).toBeNull();
    expect(unsaid.opened.locale).toBe('es');
    expect(await subjectOf('dana.es@example.com')).toEqual([t('es', 'mail.invite.subject', { title })]);

    const call = signer().delegate({
      token: tokenOf(unsaid.moved.signing_url),
      name: 'Eve',
      email: 'eve@example.com',
      reason: 'x',
      locale: 'not a tag!',
    });
    expect(await codeOf(call)).toBe('invalid_parameter');
  });

  it('issue 34.3: name and (email or phone) and a reason are required; not yourself; not before your turn', async () => {
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers, allow_delegation: true });
    const token = tokenOf(r.signers[0]!.signing_url);
    const base = { token, name: 'Dana', reason: 'Away' };
    expect(await codeOf(signer().delegate(base))).toBe('invalid_parameter');
    expect(await codeOf(signer().delegate({ ...base, email: 'not-an-email' }))).toBe('invalid_parameter');
    expect(await codeOf(signer().delegate({ ...base, email: 'CLEO@example.com' }))).toBe('invalid_parameter');
    expect(await codeOf(signer().delegate({ ...base, email: 'd@example.com', reason: ' ' }))).toBe(
      'invalid_parameter',
    );
    const waiting = tokenOf(r.signers[1]!.signing_url);
    expect(await codeOf(signer().delegate({ ...base, token: waiting, email: 'd@example.com' }))).toBe(
      'invalid_request',
    );
    // An impossible number is refused; a phone alone is enough: the new person is invited by SMS
    // (issue 32), the number stored in E.164.
    expect(await codeOf(signer().delegate({ ...base, phone: '+49 1' }))).toBe('invalid_parameter');
    await signer().delegate({ ...base, phone: '+49 30 1234567' });
    const after = await caller.signatureRequests.get({ id: r.id });
    expect(after.signers[0]).toMatchObject({
      name: 'Dana',
      email: null,
      phone: '+49301234567',
      status: 'sent',
    });
    const sms = await h.db
      .selectFrom('sms_outbox')
      .select(['to_number', 'kind'])
      .where('signer_id', '=', r.signers[0]!.id)
      .execute();
    expect(sms).toEqual([{ to_number: '+49301234567', kind: 'invitation' }]);
  });

  it('issue 34.3: the webhook event signer.delegated is an opt-in extension: endpoints on the default or every spec event never get it; one that names it does', async () => {
    const scope = { accountId: owner.accountId, environment: 'live' as const };
    const opts = { config: h.config, now: h.sc.now };
    const everySpec = [
      'signature_request.created',
      'signature_request.completed',
      'signature_request.canceled',
      'signer.viewed',
      'signer.started',
      'signer.signed',
      'signer.declined',
    ];
    const plain = await createWebhookEndpoint(h.db, scope, {
      input: { url: 'http://127.0.0.1:9/a' },
      ...opts,
    });
    const all = await createWebhookEndpoint(h.db, scope, {
      input: { url: 'http://127.0.0.1:9/b', events: everySpec },
      ...opts,
    });
    const chosen = await createWebhookEndpoint(h.db, scope, {
      input: { url: 'http://127.0.0.1:9/c', events: ['signer.delegated', 'signer.reminded'] },
      ...opts,
    });
    const r = await caller.signatureRequests.create({ template_id: tpl.id, signers, allow_delegation: true });
    await signer().delegate({
      token: tokenOf(r.signers[0]!.signing_url),
      name: 'Dana',
      email: 'dana2@example.com',
      reason: 'Away',
    });
    const { rows } = await sql<{ endpoint_id: number }>`
      select d.endpoint_id from webhook_deliveries d join webhook_events e on e.id = d.event_id
      where e.type = 'signer.delegated' and e.object_id = ${r.signers[0]!.id}`.execute(h.db);
    expect(rows.map((x) => x.endpoint_id)).toEqual([chosen.endpoint.id]);
    expect([plain.endpoint.id, all.endpoint.id]).not.toContain(chosen.endpoint.id);
  });
});
