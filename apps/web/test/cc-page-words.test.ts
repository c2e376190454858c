import type { CcView } from '@esign/core/schemas/recipients';
import { CATALOGUES, LOCALES, t } from '@esign/i18n';
import { describe, expect, it } from 'vitest';
import { ccNotFound, ccPage } from '../src/cc/views.ts';

// Issue 42.6: the CC page speaks the request's language. Every word on it is from that
// language's catalogue or data (the title, names, roles, document names, dates): once those are
// taken away, no letter is left (the file kind "PDF" aside).

const view = (locale: CcView['locale']): CcView => ({
  object: 'cc_view',
  locale,
  title: 'Zqx Contract',
  status: 'completed',
  sender: 'Quinn Qwerty',
  signers: [
    { role: 'Zrole', name: 'Xena Xylo', status: 'signed', signed_at: '2026-03-01T10:00:00Z' },
    { role: 'Yrole', name: null, status: 'ready', signed_at: null },
    { role: null, name: null, status: 'viewed', signed_at: null },
  ],
  documents: [{ name: 'Zqx Annex', url: 'https://esign.test/files/1' }],
  audit_trail_url: 'https://esign.test/files/2',
  created_at: '2026-02-27T09:30:00Z',
  completed_at: '2026-03-01T10:00:00Z',
  brand: null,
});

const DATA = ['Zqx Contract', 'Zqx Annex', 'Quinn Qwerty', 'Xena Xylo', 'Zrole', 'Yrole', 'PDF'];

/** The page's visible words, less data and the literal parts of the locale's messages. */
function leftover(html: string, locale: CcView['locale'], dates: string[]): string {
  let text = html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
  const pieces = [...DATA, ...dates];
  for (const m of Object.values(CATALOGUES[locale])) pieces.push(...m.split(/\{[^{}]*\}/));
  for (const p of pieces.filter((p) => p.trim()).sort((a, b) => b.length - a.length))
    text = text.split(p).join(' ');
  return text.replace(/[^\p{L}]+/gu, ' ').trim();
}

describe("issue 42.6: the CC page in the request's language", () => {
  for (const locale of LOCALES) {
    it(`${locale}: <html lang dir> of the language, and no word that is neither from its catalogue nor data`, () => {
      const html = ccPage(view(locale));
      expect(html).toContain(`<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">`);
      const dates = ['2026-03-01T10:00:00Z', '2026-02-27T09:30:00Z'].map((d) =>
        new Intl.DateTimeFormat(locale, {
          year: 'numeric',
          month: 'long',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          timeZone: 'UTC',
          timeZoneName: 'short',
        }).format(new Date(d)),
      );
      for (const d of dates) expect(html).toContain(d);
      expect(leftover(html, locale, dates)).toBe('');
      if (locale !== 'en') {
        expect(html).not.toContain(t('en', 'cc.lead_by', { sender: 'Quinn Qwerty' }));
        expect(html).toContain(t(locale, 'cc.status.completed'));
      }
    });
  }

  it('an unknown link says so in the given language', () => {
    const html = ccNotFound('fr');
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toContain(t('fr', 'cc.not_found.body'));
  });
});
