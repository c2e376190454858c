import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { en } from '../src/catalogues/en.ts';
import { CATALOGUES, LOCALES, t } from '../src/index.ts';
import { precompile } from '../src/precompile.ts';

/** Every argument a message uses, with its kind: `name:plural`, `title:argument`, … */
function argumentsOf(elements: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.argument) out.add(`${el.value}:argument`);
    else if (el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time)
      out.add(`${el.value}:${TYPE[el.type]}`);
    else if (el.type === TYPE.plural || el.type === TYPE.select) {
      out.add(`${el.value}:${el.type === TYPE.plural ? 'plural' : 'select'}`);
      for (const option of Object.values(el.options)) argumentsOf(option.value, out);
    } else if (el.type === TYPE.tag) argumentsOf(el.children, out);
  }
  return out;
}

/** Plural arguments may be a plain argument in a language that needs no plural there. */
const names = (args: Set<string>) => new Set([...args].map((a) => a.split(':')[0] ?? a));

describe('issue 32 (languages): one catalogue per language', () => {
  const keys = Object.keys(en).sort();

  for (const locale of LOCALES) {
    it(`issue 32: ${locale} has every key of the English catalogue and no other`, () => {
      const catalogue = CATALOGUES[locale];
      const missing = keys.filter((k) => !(k in catalogue));
      const extra = Object.keys(catalogue).filter((k) => !(k in en));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      for (const k of keys) expect(catalogue[k as keyof typeof en].trim(), `${locale} ${k}`).not.toBe('');
    });

    it(`issue 32: ${locale} messages parse as ICU and use the same arguments as English`, () => {
      const problems: string[] = [];
      for (const key of keys) {
        const source = names(argumentsOf(parse(en[key as keyof typeof en])));
        let args: Set<string>;
        try {
          args = names(argumentsOf(parse(CATALOGUES[locale][key as keyof typeof en])));
        } catch (e) {
          problems.push(`${key}: does not parse (${(e as Error).message})`);
          continue;
        }
        const lacking = [...source].filter((a) => !args.has(a));
        const unknown = [...args].filter((a) => !source.has(a));
        if (lacking.length || unknown.length)
          problems.push(`${key}: missing {${lacking.join(', ')}} unknown {${unknown.join(', ')}}`);
      }
      expect(problems).toEqual([]);
    });
  }

  it('issue 32: non-English catalogues are translated (at most product names and formats equal English)', () => {
    // Messages that are the same in a language by nature: argument-only templates, codes, "Test".
    const sameByNature = (s: string) =>
      /^[{}\w\s(),.:#·—-]*$/.test(s.replace(/\{[^}]*\}/g, '')) && s.length < 16;
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const same = keys.filter((k) => {
        const v = CATALOGUES[locale][k as keyof typeof en];
        return v === en[k as keyof typeof en] && !sameByNature(v);
      });
      // A handful of words are spelled alike (Document, Test, Email); more means English was left in.
      expect(same.length, `${locale}: ${same.join(', ')}`).toBeLessThanOrEqual(4);
    }
  });

  it('issue 32: plurals follow each language (Polish few/many, Arabic two)', () => {
    expect(t('en', 'fill.left', { count: 1 })).toBe('1 required field left.');
    expect(t('pl', 'fill.left', { count: 3 })).toBe('Zostały 3 wymagane pola.');
    expect(t('pl', 'fill.left', { count: 5 })).toBe('Zostało 5 wymaganych pól.');
    expect(t('ar', 'fill.left', { count: 2 })).toBe('بقي حقلان إلزاميان.');
    expect(t('de', 'sig.use_mine', { initials: 'true' })).toBe('Meine Initialen verwenden');
  });
});

describe('issue 32: the signing page formats messages parsed at build time', () => {
  it('precompile parses each message as intl-messageformat does at run time, in every language', () => {
    for (const locale of LOCALES) {
      const compiled = precompile(CATALOGUES[locale], locale);
      for (const key of Object.keys(en) as (keyof typeof en)[])
        expect(compiled[key], `${locale} ${key}`).toEqual(
          new IntlMessageFormat(CATALOGUES[locale][key], locale).getAst(),
        );
    }
  });
});
