import { describe, expect, it } from 'vitest';
import { codeErrorMessage } from '../src/signing/client/status.ts';

// What the email-code form says when asking for or entering a code fails (the link still works).
describe('email code messages on the signing page', () => {
  it('too many code requests: when the signer may ask again, from Retry-After', () => {
    expect(codeErrorMessage('request', 'rate_limited', 'x', 3445)).toBe(
      'We cannot send another code yet. You can ask again in 58 minutes.',
    );
    expect(codeErrorMessage('request', 'rate_limited', 'x', 20)).toBe(
      'We cannot send another code yet. You can ask again in 20 seconds.',
    );
    expect(codeErrorMessage('request', 'rate_limited', 'x', null)).toMatch(/in a minute/);
  });

  it("a wrong, expired or locked code: the server's words, which say what to do", () => {
    const locked = 'Too many wrong codes: this code no longer works. Ask for a new code.';
    expect(codeErrorMessage('verify', 'invalid_request', locked, null)).toBe(locked);
    expect(
      codeErrorMessage('verify', 'invalid_request', 'This code has expired; ask for a new one', null),
    ).toMatch(/expired/);
    expect(
      codeErrorMessage('verify', 'invalid_request', 'That code is not correct; 4 tries left', null),
    ).toMatch(/4 tries left/);
  });

  it('a lost connection says so', () => {
    expect(codeErrorMessage('verify', 'network', 'Could not reach the server.', null)).toMatch(/connection/);
  });
});
