import { downloadName } from '@esign/core/testing';
import { LOCALES, t } from '@esign/i18n';
import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../src/files/routes.ts';

// Issue 42.6: the files a signer or CC recipient downloads are named in their language, and the
// name reaches the browser as it is (not with every non-ASCII letter turned into "_").

describe('issue 42.6: download file names in the reader’s language', () => {
  it('the audit trail and the combined file are named in each language; a document keeps its own name', () => {
    for (const locale of LOCALES) {
      const trail = downloadName(locale, { kind: 'audit_trail', name: 'x' }, { title: 'Mietvertrag' });
      expect(trail).toBe(t(locale, 'file.audit_trail', { title: 'Mietvertrag' }));
      if (locale !== 'en') expect(trail).not.toBe('Mietvertrag - audit trail');
      expect(downloadName(locale, { kind: 'combined', name: 'x' }, { title: 'Mietvertrag' })).toBe(
        t(locale, 'file.combined', { title: 'Mietvertrag' }),
      );
      expect(downloadName(locale, { kind: 'document', name: 'Anlage Ä' }, { title: 'Mietvertrag' })).toBe(
        'Anlage Ä',
      );
    }
    expect(downloadName('de', { kind: 'audit_trail', name: '' }, { title: 'Mietvertrag' })).toBe(
      'Mietvertrag - Prüfprotokoll',
    );
  });

  it('Content-Disposition carries the UTF-8 name in filename* (RFC 8187) beside an ASCII fallback', () => {
    const header = contentDisposition('Mietvertrag - Prüfprotokoll.pdf');
    expect(header).toBe(
      `inline; filename="Mietvertrag - Pr_fprotokoll.pdf"; filename*=UTF-8''Mietvertrag%20-%20Pr%C3%BCfprotokoll.pdf`,
    );
    const arabic = contentDisposition('عقد (موقّع).pdf');
    expect(decodeURIComponent(arabic.split("UTF-8''")[1]!)).toBe('عقد (موقّع).pdf');
    expect(arabic.split("UTF-8''")[1]).not.toMatch(/[()'" ;]/);
  });
});
