import { describe, expect, it } from 'vitest';
import { nextPath, tokenFromHash } from '../dashboard/src/links.ts';

describe('dashboard links', () => {
  it('after sign-in, goes back only to a path on this site (no open redirect)', () => {
    expect(nextPath('?next=%2Frequests%3Fstatus%3Dopen')).toBe('/requests?status=open');
    expect(nextPath('')).toBe('/');
    expect(nextPath('?next=https%3A%2F%2Fevil.example')).toBe('/');
    expect(nextPath('?next=%2F%2Fevil.example')).toBe('/');
    expect(nextPath('?next=%2F%5Cevil.example')).toBe('/');
    expect(nextPath('?next=javascript%3Aalert(1)')).toBe('/');
  });

  it('reads one-time tokens from the fragment only when they look like ours', () => {
    const token = 'A'.repeat(43);
    expect(tokenFromHash(`#token=${token}`)).toBe(token);
    expect(tokenFromHash('#token=short')).toBeNull();
    expect(tokenFromHash('#token=<script>alert(1)</script>aaaaaaaaaaaaaaaaaaaa')).toBeNull();
    expect(tokenFromHash('')).toBeNull();
  });
});
