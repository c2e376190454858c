import { createCaller, createContext, createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { setAccountLocale } from '@esign/db/queries/accounts';
import { t as tr } from '@esign/i18n';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, signaturePng, tempDir, writeTemp } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 32, Languages: which language a signer reads (signers[].locale > the request's locale >
// the account's default > the browser's Accept-Language > English), the emails and consent in it,
// and the audit trail's labels and times.

let t: TestApp;
let owner: TestAccount;
let templateId: number;
let dir: string;
const logger = createLogger('silent', 'test');
const area = (y: number) => ({ page: 1, x: 0.1, y, w: 0.4, h: 0.06, document: 0 });

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  dir = tempDir('languages');
  const tpl = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Mietvertrag',
      documents: [{ name: 'Mietvertrag', file: b64(await plainPdf(1, 'Mietvertrag')) }],
      fields: [
        { name: 'Name', type: 'text', role: 'Mieter', areas: [area(0.2)] },
        { name: 'Unterschrift', type: 'signature', role: 'Mieter', areas: [area(0.4)] },
      ],
    },
  });
  expect(tpl.status, tpl.text).toBe(201);
  templateId = tpl.body.id;
});
afterAll(() => t.close());

const caller = (acceptLanguage?: string) =>
  createCaller(
    createContext({ db: t.db, logger, config: t.config, deps: t.rt.deps, source: 'link', acceptLanguage }),
  );
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function send(body: Record<string, unknown>, signer: Record<string, unknown> = {}) {
  return t.api('POST', 'signature_requests', {
    key: owner.key,
    body: {
      template_id: templateId,
      signers: [{ role: 'Mieter', name: 'Jana Schmidt', email: 'jana@example.com', ...signer }],
      ...body,
    },
  });
}

async function openAs(req: { body: { signers: { signing_url: string }[] } }, acceptLanguage?: string) {
  const open = await caller(acceptLanguage).signing.open({
    token: tokenOf(req.body.signers[0]!.signing_url),
  });
  return { locale: open.locale, source: open.locale_source, consent: open.consent_text };
}

describe('issue 32: the language a signer reads', () => {
  it('issue 32: fallback order signer > request > account > Accept-Language > English, by language (pt-BR → pt)', async () => {
    await setAccountLocale(t.db, owner.accountId, { locale: 'es', now: new Date() });
    const accept = 'fr-CH,fr;q=0.9,en;q=0.5';
    const signer = await send({ locale: 'it' }, { locale: 'de' });
    expect(signer.status, signer.text).toBe(201);
    expect(signer.body.locale).toBe('it');
    expect(signer.body.signers[0].locale).toBe('de');
    expect(await openAs(signer, accept)).toEqual({
      locale: 'de',
      source: 'signer',
      consent: tr('de', 'consent.text'),
    });
    expect(await openAs(await send({ locale: 'it' }), accept)).toMatchObject({
      locale: 'it',
      source: 'request',
    });
    expect(await openAs(await send({}), accept)).toMatchObject({ locale: 'es', source: 'account' });
    await setAccountLocale(t.db, owner.accountId, { locale: null, now: new Date() });
    expect(await openAs(await send({}), accept)).toMatchObject({ locale: 'fr', source: 'browser' });
    expect(await openAs(await send({}))).toMatchObject({ locale: 'en', source: 'default' });
    // A valid tag reads its language; one we lack reads English, not the request's language.
    expect(await openAs(await send({}, { locale: 'pt-BR' }), accept)).toMatchObject({ locale: 'pt' });
    expect(await openAs(await send({ locale: 'de' }, { locale: 'zh-CN' }), accept)).toMatchObject({
      locale: 'en',
      source: 'signer',
    });
  });

  it("issue 32: a malformed BCP 47 tag is 422 (invalid_parameter; under signers[] the spec's invalid_signer); PATCH sets and clears a signer's locale", async () => {
    for (const [body, code] of [
      [{ signers: [{ role: 'Mieter', email: 'a@example.com', locale: 'de_DE' }] }, 'invalid_signer'],
      [{ locale: 'not a tag', signers: [{ role: 'Mieter', email: 'a@example.com' }] }, 'invalid_parameter'],
    ] as const) {
      const res = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: { template_id: templateId, ...body },
      });
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.message).toMatch(/locale: must be a BCP 47 language tag/);
    }
    const req = await send({});
    const id = req.body.signers[0].id;
    const bad = await t.api('PATCH', `signers/${id}`, { key: owner.key, body: { locale: 'english!' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('invalid_parameter');
    const set = await t.api('PATCH', `signers/${id}`, { key: owner.key, body: { locale: 'PT-br' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.locale).toBe('pt-BR');
    expect(await openAs(req)).toMatchObject({ locale: 'pt', source: 'signer' });
    const cleared = await t.api('PATCH', `signers/${id}`, { key: owner.key, body: { locale: null } });
    expect(cleared.body.locale).toBeNull();
  });

  it('issue 32: a German signer gets the invitation in German (outbox: subject, text, <html lang="de">)', async () => {
    const req = await send(
      { expires_at: '2030-05-04T10:00:00Z' },
      { locale: 'de', email: 'anna@example.de', name: 'Anna Weber' },
    );
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body', 'html_body'])
      .where('signer_id', '=', req.body.signers[0].id)
      .where('kind', '=', 'invitation')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Bitte unterschreiben Sie „Mietvertrag“');
    expect(mail.text_body).toContain('Guten Tag Anna Weber,');
    expect(mail.text_body).toContain('bittet Sie, „Mietvertrag“ zu prüfen und zu unterschreiben.');
    expect(mail.text_body).toContain('Der Link ist gültig bis 4. Mai 2030 um 10:00 UTC.');
    expect(mail.text_body).toContain('Prüfen und unterschreiben: http');
    expect(mail.text_body).toContain('Leiten Sie ihn nicht weiter.');
    expect(mail.html_body).toContain('<html lang="de" dir="ltr">');
    expect(mail.text_body).not.toMatch(/Review and sign|Hello|expires/);
  });

  it('issue 32: the consent recorded is the sentence the signer saw, in their language (and a switch on the page)', async () => {
    const req = await send({}, { locale: 'de' });
    const token = tokenOf(req.body.signers[0].signing_url);
    await caller().signing.complete({
      token,
      values: { Name: 'Jana Schmidt', Unterschrift: signaturePng() },
    });
    const switched = await send({}, { locale: 'de' });
    await caller().signing.complete({
      token: tokenOf(switched.body.signers[0].signing_url),
      values: { Name: 'Jana Schmidt', Unterschrift: signaturePng() },
      locale: 'ar',
    });
    const consents = await t.db
      .selectFrom('audit_events')
      .select(['signer_id', 'data'])
      .where('type', '=', 'signer.signed')
      .where('signer_id', 'in', [req.body.signers[0].id, switched.body.signers[0].id])
      .orderBy('id')
      .execute();
    expect(consents.map((c) => (c.data as { consent: string; locale: string }).locale)).toEqual(['de', 'ar']);
    expect((consents[0]!.data as { consent: string }).consent).toBe(tr('de', 'consent.text'));
    expect((consents[1]!.data as { consent: string }).consent).toBe(tr('ar', 'consent.text'));
  });

  it('issue 32: the audit trail of German signers is in German, quotes the German consent, and keeps ISO times', async () => {
    const req = await send({}, { locale: 'de' });
    await caller().signing.complete({
      token: tokenOf(req.body.signers[0].signing_url),
      values: { Name: 'Jana Schmidt', Unterschrift: signaturePng() },
      signature_methods: { Unterschrift: 'drawn' },
    });
    await drainJobs(
      { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
      jobHandlers,
    );
    const done = await t.api('GET', `signature_requests/${req.body.id}`, { key: owner.key });
    expect(done.body.audit_trail_url, done.text).toBeTruthy();
    const pdf = new Uint8Array(await (await fetch(done.body.audit_trail_url)).arrayBuffer());
    const text = pdfText(writeTemp(dir, `trail-${req.body.id}.pdf`, pdf)).replace(/\s+/g, ' ');
    for (const label of [
      'Prüfprotokoll',
      'Signaturanfrage',
      'Unterzeichnende',
      'Einwilligung in die elektronische Unterschrift',
      'Text der Einwilligung',
      'Ereignisse',
      'Seite 1 von',
      // Issue 32 item 3: the events and the authentication in German too, the type beside each event.
      'Link zum Unterschreiben per E-Mail an jana@example.com gesendet',
      'Zur Unterschrift gesendet',
      'request.sent',
      'Unterschrift (gezeichnet)',
    ])
      expect(text).toContain(label);
    expect(text).toContain(tr('de', 'consent.text'));
    // Times for German readers with the ISO time beside them.
    const year = new Date().getUTCFullYear();
    expect(text).toMatch(
      new RegExp(
        `\\d{1,2}\\. [A-ZÄÖÜa-zäöü]+ ${year} um \\d{2}:\\d{2} UTC \\(${year}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC\\)`,
      ),
    );
    expect(text).not.toContain('Consent text');
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('signer_id', '=', req.body.signers[0].id)
      .where('kind', '=', 'request.completed')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Abgeschlossen: Mietvertrag');
    expect(mail.text_body).toContain('Prüfprotokoll: http');
  });

  it("issue 32 (emails): a German signer reads every email in German (reminder, own signed copy, completion), and CC recipients read the request's language", async () => {
    const tpl = await t.api('POST', 'templates', {
      key: owner.key,
      body: {
        name: 'Untermietvertrag',
        documents: [{ name: 'Untermietvertrag', file: b64(await plainPdf(1, 'Untermietvertrag')) }],
        fields: [
          { name: 'Unterschrift A', type: 'signature', role: 'Mieter', areas: [area(0.2)] },
          { name: 'Unterschrift B', type: 'signature', role: 'Vermieter', areas: [area(0.5)] },
        ],
      },
    });
    expect(tpl.status, tpl.text).toBe(201);
    const req = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: {
        template_id: tpl.body.id,
        locale: 'de',
        cc: ['kopie@example.de'],
        signers: [
          { role: 'Mieter', name: 'Anna Weber', email: 'anna.weber@example.de' },
          { role: 'Vermieter', name: 'Max Huber', email: 'max.huber@example.de' },
        ],
      },
    });
    expect(req.status, req.text).toBe(201);
    const [anna, max] = req.body.signers as { id: number; signing_url: string }[];
    const mailTo = (to: string, kind: string) =>
      t.db
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body', 'html_body'])
        .where('to_address', '=', to)
        .where('kind', '=', kind)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();

    const cc = await mailTo('kopie@example.de', 'cc');
    expect(cc.subject).toBe('Kopie: „Untermietvertrag“ wurde zur Unterschrift gesendet');
    expect(cc.text_body).toContain('an Anna Weber und Max Huber zur Unterschrift gesendet');
    expect(cc.html_body).toContain('<html lang="de" dir="ltr">');

    const reminded = await t.api('POST', `signature_requests/${req.body.id}/remind`, { key: owner.key });
    expect(reminded.status, reminded.text).toBe(200);
    const reminder = await mailTo('anna.weber@example.de', 'reminder');
    expect(reminder.subject).toMatch(/„Untermietvertrag“/);
    expect(reminder.text_body).not.toMatch(/Hello|Review and sign|reminder/i);

    await caller().signing.complete({
      token: tokenOf(anna!.signing_url),
      values: { 'Unterschrift A': signaturePng() },
    });
    const jobs = { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() };
    await drainJobs(jobs, jobHandlers);
    const copy = await mailTo('anna.weber@example.de', 'signer.copy');
    expect(copy.subject).toBe('Ihre unterschriebene Fassung: Untermietvertrag');
    expect(copy.text_body).toContain('Guten Tag Anna Weber,');
    expect(copy.text_body).toContain('Sie haben „Untermietvertrag“ unterschrieben.');
    expect(copy.text_body).toMatch(/Diese Links sind gültig bis \d{1,2}\. [A-Za-zäöü]+ \d{4}/);
    expect(copy.html_body).toContain('<html lang="de" dir="ltr">');

    await caller().signing.complete({
      token: tokenOf(max!.signing_url),
      values: { 'Unterschrift B': signaturePng() },
    });
    await drainJobs(jobs, jobHandlers);
    const done = await mailTo('max.huber@example.de', 'request.completed');
    expect(done.subject).toBe('Abgeschlossen: Untermietvertrag');
    const ccDone = await mailTo('kopie@example.de', 'cc.completed');
    expect(ccDone.subject).toBe('Abgeschlossen: Untermietvertrag');
    expect(ccDone.text_body).toContain('Prüfprotokoll: http');
    expect(ccDone.text_body).not.toMatch(/Everyone|Audit trail|These links/);
    for (const m of [cc, reminder, copy, done, ccDone]) expect(m.text_body).not.toMatch(/\bHello\b/);
  });

  it("issue 32 item 3: a refusal the signer reads carries its catalogue message (tRPC data.messageKey), which the page words in the signer's language", async () => {
    const req = await send({ require_email_otp: true }, { locale: 'de' });
    const token = tokenOf(req.body.signers[0].signing_url);
    expect((await rpc('requestCode', { token })).error).toBeUndefined();
    const wrong = await rpc('verifyCode', { token, code: '000000' });
    expect(wrong.error.message).toBe('That code is not correct; 4 tries left');
    expect(wrong.error.data).toMatchObject({
      code: 'invalid_request',
      messageKey: 'error.code_wrong',
      messageValues: { left: 4 },
    });
    expect(tr('de', wrong.error.data.messageKey, wrong.error.data.messageValues)).toBe(
      'Dieser Code ist falsch; noch 4 Versuche',
    );
    const unknown = await rpc('open', { token: 'x'.repeat(30) });
    expect(unknown.error.data).toMatchObject({ code: 'not_found', messageKey: 'error.link_invalid' });
  });

  it("issue 32: a value the page would have refused (field-format checks) and the code refusals come in the signer's words too; REST keeps the English message", async () => {
    const req = await send({}, { locale: 'fr' });
    const token = tokenOf(req.body.signers[0].signing_url);
    const refusal = async (proc: string, input: Record<string, unknown>) => {
      const { error } = await rpc(proc, { token, ...input });
      return { english: error.message as string, data: error.data };
    };
    const cases = [
      {
        got: await refusal('saveValues', { values: { Name: 42 } }),
        key: 'error.value_text',
        french: '« Name » : saisissez du texte ici',
      },
      {
        got: await refusal('saveValues', { values: { Name: 'x'.repeat(10_001) } }),
        key: 'error.value_too_long',
        french: `« Name » : ${(10_000).toLocaleString('fr')} caractères au maximum`,
      },
      {
        got: await refusal('saveValues', { values: { Unterschrift: 'data:image/png;base64,AAAA' } }),
        key: 'error.value_image',
        french:
          '« Unterschrift » : cette image ne peut pas être utilisée ; utilisez une image PNG ou JPEG de 3 Mo au maximum',
      },
      {
        got: await refusal('saveValues', { values: { Alter: '7' } }),
        key: 'error.value_unknown',
        french: '« Alter » ne fait pas partie de vos champs dans ce document',
      },
      {
        got: await refusal('requestCode', {}),
        key: 'error.code_not_needed',
        french: 'Ce lien de signature ne demande pas de code',
      },
    ];
    for (const { got, key, french } of cases) {
      expect(got.data, key).toMatchObject({ code: 'invalid_request', messageKey: key });
      expect(tr('fr', got.data.messageKey, got.data.messageValues)).toBe(french);
      expect(got.english).toMatch(/^[ -~]+$/);
    }
    // Nothing was stored by the refused saves.
    const stored = await t.api('GET', `signature_requests/${req.body.id}`, { key: owner.key });
    expect(stored.body.signers[0].values).toEqual([]);
  });

  it('issue 32 item 4: signing.setLocale stores the language the signer switched to (after the code when one is asked), audited, and later emails use it', async () => {
    const req = await send({ require_email_otp: true }, { locale: 'de' });
    const signerId = req.body.signers[0].id as number;
    const token = tokenOf(req.body.signers[0].signing_url);
    const before = await rpc('setLocale', { token, locale: 'fr' });
    expect(before.error.data.code).toBe('forbidden');
    await rpc('requestCode', { token });
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('signer_id', '=', signerId)
      .where('kind', '=', 'otp')
      .executeTakeFirstOrThrow();
    const verified = await rpc('verifyCode', { token, code: /(\d{6})/.exec(mail.text_body)![1] });
    const session = verified.result.data.session as string;
    expect((await rpc('setLocale', { token, session, locale: 'fr' })).result.data).toEqual({
      locale: 'fr',
      changed: true,
    });
    expect((await rpc('setLocale', { token, session, locale: 'fr' })).result.data).toEqual({
      locale: 'fr',
      changed: false,
    });
    const signer = await t.api('GET', `signature_requests/${req.body.id}`, { key: owner.key });
    expect(signer.body.signers[0].locale).toBe('fr');
    const events = await t.db
      .selectFrom('audit_events')
      .select('data')
      .where('signer_id', '=', signerId)
      .where('type', '=', 'signer.locale')
      .execute();
    expect(events.map((e) => e.data)).toEqual([{ from: 'de', to: 'fr' }]);
    // The next email to this signer is French.
    const reminded = await t.api('POST', `signature_requests/${req.body.id}/remind`, { key: owner.key });
    expect(reminded.status, reminded.text).toBe(200);
    const reminder = await t.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('signer_id', '=', signerId)
      .where('kind', '=', 'reminder')
      .executeTakeFirstOrThrow();
    expect(reminder.subject).toBe(tr('fr', 'mail.reminder.subject', { title: 'Mietvertrag' }));
  });
});

/** A signing procedure over HTTP, as the page calls it: the answer's JSON (result or error). */
async function rpc(proc: string, input: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${t.baseUrl}/trpc/signing.${proc}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return res.json();
}
