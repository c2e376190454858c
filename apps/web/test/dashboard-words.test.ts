import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untranslatedWords } from './dashboard-words.ts';

describe("issue 32: the dashboard's strings are ready to translate", () => {
  it('no dashboard source writes English inline: every word a user reads comes from dashboard/src/messages/', () => {
    const findings = untranslatedWords().map((f) => `${f.file}:${f.line} ${f.text}`);
    expect(findings).toEqual([]);
  });

  it('the reader finds English in text, labels, toasts, conditionals and templates, and leaves code alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-words-'));
    mkdirSync(join(dir, 'messages'));
    writeFileSync(join(dir, 'messages', 'index.ts'), "export const m = { 'a.b': 'Saved' };\n");
    writeFileSync(
      join(dir, 'page.tsx'),
      [
        'export function Page({ on, n, who }: { on: boolean; n: number; who: string }) {',
        "  toast('Endpoint saved');",
        '  const line = `${who} signed the document`;',
        "  if (who === 'Enter') return null;",
        '  return (',
        '    <section className="card big" aria-label="Close dialog">',
        '      <p>Saved</p>',
        "      <b>{on ? 'enabled' : 'disabled'}</b>",
        "      <input {...register('email')} placeholder={msg('a.b')} type=\"email\" />",
        '      <a href="/requests">{line}</a>',
        '    </section>',
        '  );',
        '}',
      ].join('\n'),
    );
    expect(untranslatedWords(dir).map((f) => `${f.line} ${f.text}`)).toEqual([
      '2 Endpoint saved',
      '3 signed the document',
      '6 Close dialog',
      '7 Saved',
      '8 enabled',
      '8 disabled',
    ]);
  });
});
