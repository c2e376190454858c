import { describe, expect, it } from 'vitest';
import { indexedFragment } from '../src/services/signature-requests/signer-search.ts';

// Issue 16: the signer search asks the trigram indexes only for the distinctive part of `q`; any
// substring of `q` gives the same results (the full term is checked on each candidate).
describe('indexedFragment: the part of q the trigram indexes look up', () => {
  it('a full email or its start: the local part with its @ (domains repeat across signers)', () => {
    expect(indexedFragment('c9077732a294@example.com')).toBe('c9077732a294@');
    expect(indexedFragment('Jane.Doe@Example')).toBe('Jane.Doe@');
    expect(indexedFragment('jane@example.com@x')).toBe('jane@');
  });

  it('a term without a local part of three letters or digits in a row is looked up whole', () => {
    expect(indexedFragment('@example.com')).toBe('@example.com');
    expect(indexedFragment('jane.doe@')).toBe('jane.doe@');
    expect(indexedFragment('jo@example.com')).toBe('jo@example.com');
    expect(indexedFragment('a.b.c@example.com')).toBe('a.b.c@example.com');
  });

  it('names, phones and fragments without @ are looked up whole', () => {
    for (const term of ['Jane Doe', '+44 20 7946 0000', 'c9077732', 'ab'])
      expect(indexedFragment(term)).toBe(term);
  });

  it('the fragment is always a substring of the term (so it never drops a match)', () => {
    for (const term of ['x@y', 'Ünïcødé@例え.jp', '%_\\@%_', 'abc@', '名前@example.com']) {
      expect(term).toContain(indexedFragment(term));
    }
  });
});
