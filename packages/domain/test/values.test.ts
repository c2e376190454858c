import { describe, expect, it } from 'vitest';
import {
  EMAIL_PATTERN,
  effectiveValue,
  effectiveValues,
  IMAGE_DATA_URI_PATTERN,
  isEmail,
  isFilled,
  isImageDataUri,
  isValidDate,
  MAX_EMAIL_LENGTH,
  MAX_FILE_BYTES,
  MAX_FILE_CHARS,
  NUMBER_PATTERN,
  PHONE_PATTERN,
} from '../src/index.ts';

describe('email addresses (spec: signer `email` "valid email")', () => {
  it('accepts ordinary addresses, plus tags and sub-domains', () => {
    for (const ok of [
      'jane@example.com',
      'Jane.Doe+contracts@mail.example.co.uk',
      "o'brien@example.ie",
      'x@xn--bcher-kva.example',
      'a@b.c',
    ]) {
      expect(isEmail(ok), ok).toBe(true);
    }
  });

  it('refuses what is not one address', () => {
    for (const bad of [
      '',
      'nope',
      'not-an-email',
      'jane@',
      '@example.com',
      'jane@localhost',
      'jane@example..com',
      'jane@.example.com',
      'jane@example.com.',
      'jane@-example.com',
      'jane doe@example.com',
      'jane@exam ple.com',
      'Jane <jane@example.com>',
      'jane@example.com, bob@example.com',
      'jane@example.com\nBcc: bob@example.com',
      '"jane"@example.com',
      'jane@@example.com',
      ' jane@example.com',
    ]) {
      expect(isEmail(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses an address longer than 254 characters', () => {
    const domain = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.com`;
    const local = 'j'.repeat(MAX_EMAIL_LENGTH - domain.length - 1);
    expect(isEmail(`${local}@${domain}`)).toBe(true);
    expect(`${local}@${domain}`).toHaveLength(MAX_EMAIL_LENGTH);
    expect(isEmail(`${local}j@${domain}`)).toBe(false);
    expect(EMAIL_PATTERN.test(`${local}j@${domain}`)).toBe(true);
  });
});

describe('merging prefilled and entered values (one rule)', () => {
  it('takes what the signer entered over what the sender prefilled', () => {
    const signer = { prefill: { Name: 'Jane' }, values: { Name: 'Jane Q.' } };
    expect(effectiveValue(signer, 'Name')).toBe('Jane Q.');
    expect(effectiveValues(signer)).toEqual({ Name: 'Jane Q.' });
  });

  it('keeps the prefilled value when the signer stored null (a cleared field hides nothing)', () => {
    const signer = { prefill: { Company: 'ACME' }, values: { Company: null } };
    expect(effectiveValue(signer, 'Company')).toBe('ACME');
    expect(effectiveValues(signer)).toEqual({ Company: 'ACME' });
  });

  it('keeps false and 0 the signer entered (only null and missing mean no value)', () => {
    const signer = { prefill: { Agree: true, Count: 3 }, values: { Agree: false, Count: 0 } };
    expect(effectiveValues(signer)).toEqual({ Agree: false, Count: 0 });
  });

  it('gives null for a field nobody filled, and merges fields from both sides', () => {
    const signer = { prefill: { A: 'a', C: null }, values: { B: ['x'] } };
    expect(effectiveValue(signer, 'Missing')).toBeNull();
    expect(effectiveValues(signer)).toEqual({ A: 'a', B: ['x'], C: null });
    expect(effectiveValues({ prefill: null, values: undefined })).toEqual({});
  });

  it("reads only a record's own keys (fields named constructor or __proto__)", () => {
    expect(effectiveValue({ prefill: {}, values: {} }, 'constructor')).toBeNull();
    const values = JSON.parse('{"__proto__": "typed"}') as Record<string, unknown>;
    const merged = effectiveValues({ prefill: {}, values });
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(merged, '__proto__')?.value).toBe('typed');
  });
});

describe('field value rules', () => {
  it('counts null, empty text, an empty list and an unchecked checkbox as not filled', () => {
    for (const empty of [null, undefined, '', [], false]) expect(isFilled(empty)).toBe(false);
    for (const filled of ['x', 0, true, ['a'], { name: 'f', type: 't', data: 'data:,' }]) {
      expect(isFilled(filled)).toBe(true);
    }
  });

  it('takes dates as YYYY-MM-DD days of the calendar', () => {
    expect(isValidDate('2026-02-28')).toBe(true);
    expect(isValidDate('2028-02-29')).toBe(true);
    expect(isValidDate('2026-02-29')).toBe(false);
    expect(isValidDate('2026-2-28')).toBe(false);
    expect(isValidDate('2026-02-28T10:00:00Z')).toBe(false);
  });

  it('takes phone numbers of 3 to 30 digits, spaces and + ( ) - . /', () => {
    expect(PHONE_PATTERN.test('+1 (555) 010-0199')).toBe(true);
    expect(PHONE_PATTERN.test('12')).toBe(false);
    expect(PHONE_PATTERN.test('1'.repeat(31))).toBe(false);
    expect(PHONE_PATTERN.test('555-CALL')).toBe(false);
  });

  it('takes numbers written with a decimal point', () => {
    expect(NUMBER_PATTERN.test('-3.5')).toBe(true);
    expect(NUMBER_PATTERN.test('3,5')).toBe(false);
    expect(NUMBER_PATTERN.test('1e3')).toBe(false);
  });

  it('takes images as whole PNG or JPEG base64 data: URIs', () => {
    expect(isImageDataUri('data:image/png;base64,iVBORw0KGgo=')).toBe(true);
    expect(isImageDataUri('data:image/jpeg;base64,/9j/4AAQ')).toBe(true);
    expect(isImageDataUri('data:image/svg+xml;base64,PHN2Zz4=')).toBe(false);
    expect(isImageDataUri('data:image/png;base64,not base64!')).toBe(false);
    expect(isImageDataUri(42)).toBe(false);
    expect(IMAGE_DATA_URI_PATTERN.source.startsWith('^')).toBe(true);
  });

  it('leaves room in MAX_FILE_CHARS for a 10 MB file as a base64 data: URI, and no more', () => {
    const base64 = Math.ceil(MAX_FILE_BYTES / 3) * 4;
    const prefix = 'data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,';
    expect(base64 + prefix.length).toBeLessThanOrEqual(MAX_FILE_CHARS);
    expect(Math.ceil((MAX_FILE_BYTES * 1.1) / 3) * 4).toBeGreaterThan(MAX_FILE_CHARS);
  });
});
