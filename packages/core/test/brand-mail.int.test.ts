import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHarness, codeOf, startCore, twoRoleTemplate } from './caller.ts';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.ts';

// Issue 44 items 2 to 4: a brand's own words and identity on the emails that carry a signing link,
// received by a real SMTP server.

let h: CoreHarness;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  h = await startCore({ SMTP_URL: smtp.url, MAIL_FROM: 'Signing <sign@example.test>' });
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

/** The MIME message's parts decoded (quoted-printable or base64, as UTF-8), headers unfolded. */
function decode(raw: string) {
  const qp = (s: string) =>
    Buffer.from(
      s
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  const word = (s: string) =>
    s.replace(/=\?UTF-8\?([QB])\?(.*?)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : qp(text.replace(/_/g, ' ')),
    );
  const headers = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  // Whitespace between two encoded words is not part of the text (RFC 2047, 6.2).
  const header = (name: string) =>
    word((new RegExp(`^${name}: (.*)$`, 'mi').exec(headers)?.[1] ?? '').replace(/\?=\s+=\?/g, '?==?'));
  const part = (type: string) => {
    const m = new RegExp(
      `Content-Type: ${type}[^]*?Content-Transfer-Encoding: (\\S+)\\r?\\n\\r?\\n([^]*?)\\r?\\n--`,
      'i',
    ).exec(raw);
    if (!m) return '';
    return m[1]!.toLowerCase() === 'base64'
      ? Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64').toString('utf8')
      : qp(m[2]!);
  };
  return { header, text: part('text/plain'), html: part('text/html') };
}

function logo(): string {
  const canvas = createCanvas(60, 20);
  canvas.getContext('2d').fillRect(0, 0, 60, 20);
  return canvas.toBuffer('image/png').toString('base64');
}

describe('issue 44.3: your own words', () => {
  it('a French custom invitation arrives with its values filled, HTML and text alike, under the brand (From name, Reply-To, logo, colour, footer)', async () => {
    const owner = await h.account({ credits: 5 });
    const caller = await h.as(owner.key);
    const brand = await caller.brands.create({
      name: 'Agence <Dupont> & fils',
      logo: logo(),
      primary_color: '#7c3aed',
      from_name: 'Agence Dupont',
      reply_to: 'contact@dupont.example',
      support_email: 'aide@dupont.example',
      legal_footer: 'Agence Dupont SARL, 75001 Paris',
      email_texts: {
        invitation: {
          fr: {
            subject: '{{sender.name}} vous invite à signer « {{request.title}} »',
            body: 'Bonjour {{signer.name}},\n\nMerci de signer « {{request.title}} » ici : {{link}}\n\nÀ bientôt, {{brand.name}}',
          },
        },
      },
    });
    const tpl = await twoRoleTemplate(caller, 'Contrat de service');
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      brand_id: brand.id,
      locale: 'fr',
      signers: [{ name: 'Élodie Martin', email: 'elodie@example.com' }, { email: 'agent@example.com' }],
    });
    const mail = smtp.received.find((m) => m.to.includes('elodie@example.com'));
    expect(mail).toBeDefined();
    const { header, text, html } = decode(mail!.raw);
    const link = sent.signers[0]!.signing_url!;
    expect(header('Subject')).toMatch(/^User \d+ vous invite à signer « Contrat de service »$/);
    expect(header('From')).toMatch(/^"?Agence Dupont"? <sign@example\.test>$/);
    expect(header('Reply-To')).toBe('contact@dupont.example');
    expect(text).toContain('Bonjour Élodie Martin,');
    expect(text).toContain(`Merci de signer « Contrat de service » ici : ${link}`);
    expect(text).toContain('À bientôt, Agence <Dupont> & fils');
    expect(text).toContain('Agence Dupont SARL, 75001 Paris');
    expect(text).not.toMatch(/\{\{|powered by/i);
    expect(html).toContain('Bonjour Élodie Martin,');
    expect(html).toContain(`<a href="${link}"`);
    // The brand's name is escaped wherever the HTML shows it.
    expect(html).toContain('Agence &#60;Dupont&#62; &#38; fils');
    expect(html).not.toContain('<Dupont>');
    expect(html).toContain('src="cid:brand-logo"');
    expect(html).toContain('#7c3aed');
    expect(html).toContain('aide@dupont.example');
    expect(html).not.toMatch(/powered by/i);
    expect(mail!.raw).toMatch(/Content-ID: <brand-logo>/i);
  });

  it('without words for the language, the service’s words go out in the brand’s layout; a request without a brand uses the default brand', async () => {
    const owner = await h.account({ credits: 5 });
    const caller = await h.as(owner.key);
    await caller.brands.create({
      name: 'Default Brand GmbH',
      from_name: 'Default Brand',
      legal_footer: 'Impressum: Berlin',
    });
    const tpl = await twoRoleTemplate(caller, 'Vertrag');
    await caller.signatureRequests.create({
      template_id: tpl.id,
      locale: 'de',
      signers: [{ name: 'Jonas', email: 'jonas@example.com' }, { email: 'agent2@example.com' }],
    });
    const mail = smtp.received.find((m) => m.to.includes('jonas@example.com'));
    const { header, text } = decode(mail!.raw);
    expect(header('From')).toMatch(/^"?Default Brand"? <sign@example\.test>$/);
    expect(text).toContain('Default Brand GmbH');
    expect(text).toContain('Impressum: Berlin');
    expect(text).toContain('Jonas');
  });

  it('issue 44.2: an SMS invitation names the brand as its sender', async () => {
    const owner = await h.account({ credits: 5 });
    const caller = await h.as(owner.key);
    const brand = await caller.brands.create({ name: 'Studio Nord', is_default: false });
    const tpl = await twoRoleTemplate(caller, 'Mietvertrag');
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      brand_id: brand.id,
      signers: [{ phone: '+49 151 23456789' }, { email: 'agent3@example.com' }],
    });
    const sms = await h.db
      .selectFrom('sms_outbox')
      .select('text_body')
      .where('signature_request_id', '=', sent.id)
      .executeTakeFirstOrThrow();
    expect(sms.text_body).toContain('Studio Nord');
    expect(sms.text_body).toContain(sent.signers[0]!.signing_url!);
  });

  it('a brand with an unknown variable is refused when saved (422 naming it), and nothing is stored', async () => {
    const owner = await h.account();
    const caller = await h.as(owner.key);
    const call = caller.brands.create({
      name: 'Broken',
      email_texts: { invitation: { fr: { subject: 'Signez {{contrat}}', body: '{{link}}' } } },
    });
    expect(await codeOf(call)).toBe('invalid_parameter');
    expect((await caller.brands.list({})).data).toEqual([]);
  });
});
