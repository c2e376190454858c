import { LOCALES, type Locale } from '@esign/i18n';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.ts';
import { shortFileLink } from '../src/services/short-file-links.ts';
import { signingUrl } from '../src/services/signature-requests/invitations.ts';
import { isGsm7, smsSegments } from '../src/services/sms/segments.ts';
import { smsText } from '../src/services/sms/texts.ts';

// Issue 42.2: an SMS is paid per segment. The texts are GSM-7 wherever the language allows, the
// completion SMS carries a short link, and each kind of SMS stays within its budget in every
// language, with long names and titles and a production-length PUBLIC_URL.

describe('issue 42.2: segments are counted as the networks count them (3GPP TS 23.038 / 23.040)', () => {
  it('GSM-7: 160 characters make one segment, then 153 a segment', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(smsSegments('a'.repeat(161)).segments).toBe(2);
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('an extension-table character (€ [ ] { } ~ ^ | \\) takes two septets and is never split', () => {
    expect(smsSegments('€'.repeat(80)).segments).toBe(1);
    expect(smsSegments(`${'a'.repeat(159)}€`).segments).toBe(2);
    // 152 septets, then an escape pair that does not fit in the first segment's last septet
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`).segments).toBe(3);
  });

  it('one character outside GSM-7 makes the whole text UCS-2: 70 code units, then 67', () => {
    expect(smsSegments(`${'a'.repeat(69)}„`)).toEqual({ encoding: 'UCS-2', segments: 1 });
    expect(smsSegments(`${'a'.repeat(70)}„`).segments).toBe(2);
    expect(smsSegments(`${'a'.repeat(133)}’`).segments).toBe(2);
    expect(smsSegments(`${'a'.repeat(134)}’`).segments).toBe(3);
    // an emoji is two code units, never split: 66 + 2 + 66 units are three segments, not two
    expect(smsSegments(`${'a'.repeat(66)}😀${'a'.repeat(66)}`).segments).toBe(3);
  });

  it('the GSM-7 letters of the languages we write are GSM-7, typographic quotes are not', () => {
    expect(isGsm7('äöüß ÄÖÜ é è à ù ì ò ñ É Ç')).toBe(true);
    for (const ch of ['„', '“', '”', '‘', '’', '«', '»', '…', 'ç', 'ã', 'ó', 'í', 'ł', 'È'])
      expect(isGsm7(ch), ch).toBe(false);
  });
});

const config = parseConfig({
  PUBLIC_URL: 'https://signatures.example-company.com',
  SECRET_KEY: 'k'.repeat(32),
});
const now = new Date('2030-08-20T09:00:00Z');
// August and October: months whose medium names leave GSM-7 in French (août) and Polish (paź).
const dates = [new Date('2030-08-24T00:00:00Z'), new Date('2030-10-24T00:00:00Z')];
const invite = signingUrl(config, 'n'.repeat(32));
const shortDone = shortFileLink(
  config,
  { requestId: 4_000_000_000, sha256: 'ab'.repeat(32) },
  { now, ttlSeconds: 30 * 86400 },
);

/** Long, real-looking names and titles in each language, in its GSM-7 letters. */
const PEOPLE: Record<Locale, { sender: string; title: string }> = {
  en: {
    sender: 'Alexandra Worthington-Smythe',
    title: 'Residential tenancy agreement, Flat 4B, 27 Kensington Gardens',
  },
  de: {
    sender: 'Wolfgang Müller-Lüdenscheidt',
    title: 'Mietvertrag Wohnung 3. OG links, Hauptstraße 127, München',
  },
  fr: {
    sender: 'Marie-Hélène Delacroix-Dupré',
    title: "Contrat de bail d'habitation, appartement 12, rue de la Paix",
  },
  es: {
    sender: 'Francisco Javier Muñoz Castellanos',
    title: 'Contrato de arrendamiento de vivienda, calle Mayor 45, piso 3 B',
  },
  it: {
    sender: 'Giovanni Battista Di Pietrantonio',
    title: 'Contratto di locazione ad uso abitativo, via Garibaldi 118',
  },
  pt: {
    sender: 'Maria Eduarda Vasconcelos Pereira',
    title: 'Contrato de arrendamento residencial, Rua Augusta 245, 3 Esq',
  },
  nl: {
    sender: 'Johannes van der Berg-Vermeulen',
    title: 'Huurovereenkomst woonruimte, Keizersgracht 452, Amsterdam',
  },
  pl: {
    sender: 'Katarzyna Nowak-Zielinska',
    title: 'Umowa najmu lokalu mieszkalnego, ul. Marszalkowska 104/122',
  },
  ar: { sender: 'عبد الرحمن بن خالد العتيبي', title: 'عقد إيجار شقة سكنية، حي الملقا، الرياض' },
};

/** The segments each kind may take: GSM-7 languages; Arabic is UCS-2 and pinned where it stands. */
const BUDGET = { invitation: 2, next_signer: 2, reminder: 2, resend: 2, otp: 1, 'request.completed': 2 };
const UCS2_BUDGET = { invitation: 4, next_signer: 4, reminder: 4, resend: 4, otp: 2, 'request.completed': 4 };

function allTexts(locale: Locale): [keyof typeof BUDGET, string][] {
  const { sender, title } = PEOPLE[locale];
  const out: [keyof typeof BUDGET, string][] = [];
  for (const expiresAt of [null, ...dates]) {
    for (const kind of ['invitation', 'next_signer', 'reminder', 'resend'] as const)
      out.push([kind, smsText(kind, { senderName: sender, title, url: invite, expiresAt }, locale)]);
  }
  out.push(['otp', smsText('otp', { code: '482913', minutes: 10, senderName: sender, title }, locale)]);
  for (const until of dates)
    for (const test of [false, true])
      out.push([
        'request.completed',
        smsText('request.completed', { title, urls: [shortDone], until, test }, locale),
      ]);
  return out;
}

describe('issue 42.2: every SMS kind in every language stays within its segment budget', () => {
  it('the short completion link is a fraction of a signed file link (under 80 characters)', () => {
    expect(shortDone.length).toBeLessThan(80);
    expect(shortDone).toMatch(/^https:\/\/signatures\.example-company\.com\/d\/[\w-]{35}$/);
  });

  it('every SMS text but Arabic is GSM-7, with names and titles in GSM-7 letters', () => {
    for (const locale of LOCALES.filter((l) => l !== 'ar'))
      for (const [kind, text] of allTexts(locale))
        expect(smsSegments(text).encoding, `${locale} ${kind}: ${text}`).toBe('GSM-7');
  });

  it('invitation and reminder ≤ 2 segments, code ≤ 1, completion ≤ 2 (GSM-7 languages; Arabic UCS-2 pinned)', () => {
    const measured: string[] = [];
    for (const locale of LOCALES) {
      const budget = locale === 'ar' ? UCS2_BUDGET : BUDGET;
      for (const [kind, text] of allTexts(locale)) {
        const { segments } = smsSegments(text);
        measured.push(`${locale} ${kind} ${segments}`);
        expect(segments, `${locale} ${kind}: ${text}`).toBeLessThanOrEqual(budget[kind]);
      }
    }
    expect(measured.length).toBe(LOCALES.length * 17);
    if (process.env.SMS_SEGMENTS_REPORT) console.log(measured.join('\n'));
  });

  it('the code SMS names the sender and the document, and a long title is shortened to keep one segment', () => {
    const text = smsText('otp', { code: '482913', minutes: 10, senderName: 'Ann Lee', title: 'Lease' }, 'en');
    expect(text).toContain('"Lease", sent by Ann Lee');
    const long = smsText(
      'otp',
      {
        code: '482913',
        minutes: 10,
        senderName: 'Alexandra Worthington-Smythe',
        title: 'Residential tenancy agreement '.repeat(4),
      },
      'en',
    );
    expect(smsSegments(long)).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(long).toMatch(/"Residential tenancy agreement .*\.\.\.", sent by Alexandra Worthington-Smythe\./);
  });

  it('an expiry date whose month name is not GSM-7 is written in figures (French août, Polish paź)', () => {
    const link = { senderName: 'Ann', title: 'Bail', url: invite, expiresAt: dates[0]! };
    expect(smsText('invitation', link, 'fr')).toContain("Lien valable jusqu'au 24/08/2030.");
    expect(smsText('invitation', { ...link, expiresAt: dates[1]! }, 'pl')).toContain(
      'Link wygasa 24.10.2030.',
    );
    expect(smsText('invitation', link, 'en')).toContain('Link expires Aug 24, 2030.');
  });

  it('issue 47: the approver and viewer invitations and reminders keep the same rules (GSM-7 but Arabic, ≤ 2 segments, Arabic ≤ 4), in every language', () => {
    const measured: string[] = [];
    for (const locale of LOCALES) {
      const { sender, title } = PEOPLE[locale];
      for (const part of ['approver', 'viewer'] as const)
        for (const kind of ['invitation', 'next_signer', 'reminder', 'resend'] as const)
          for (const expiresAt of [null, ...dates]) {
            const text = smsText(kind, { senderName: sender, title, url: invite, expiresAt, part }, locale);
            const { encoding, segments } = smsSegments(text);
            measured.push(`${locale} ${part} ${kind} ${segments}`);
            expect(encoding, `${locale} ${part} ${kind}: ${text}`).toBe(locale === 'ar' ? 'UCS-2' : 'GSM-7');
            expect(segments, `${locale} ${part} ${kind}: ${text}`).toBeLessThanOrEqual(
              locale === 'ar' ? 4 : 2,
            );
            expect(text.endsWith(`\n${invite}`)).toBe(true);
          }
    }
    expect(measured.length).toBe(LOCALES.length * 2 * 4 * (1 + dates.length));
    if (process.env.SMS_SEGMENTS_REPORT) console.log(measured.join('\n'));
  });
});
