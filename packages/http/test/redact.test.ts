import { describe, expect, it } from 'vitest';
import { redactUrl } from '../src/redact.ts';

describe('redactUrl: signing credentials never reach the logs', () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';

  it('the signing page token in /s/<token>', () => {
    expect(redactUrl(`/s/${token}`)).toBe('/s/[redacted]');
    expect(redactUrl(`/s/${token}?lang=en`)).toBe('/s/[redacted]?lang=en');
    expect(redactUrl('/s/assets/signing.abc123.js')).toBe('/s/assets/signing.abc123.js');
  });

  it('single sign-on’s answer /sso/callback: the authorization code and the state (issue 45 item 4)', () => {
    expect(redactUrl(`/sso/callback?code=${token}&state=${token}&iss=https%3A%2F%2Fidp.example`)).toBe(
      '/sso/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp.example',
    );
  });

  it('the signed payload of /files/<token>/<name>', () => {
    expect(redactUrl(`/files/${token}.sig/Contract.pdf`)).toBe('/files/[redacted]/Contract.pdf');
  });

  it('the short file link /d/<token> of a completion SMS (issue 42.2)', () => {
    expect(redactUrl(`/d/${token}`)).toBe('/d/[redacted]');
  });

  it('the signing token of the embeddable page /e/<token> (issue 29 item 5)', () => {
    expect(redactUrl(`/e/${token}`)).toBe('/e/[redacted]');
    expect(redactUrl('/embed/esign-form.js')).toBe('/embed/esign-form.js');
  });

  it('the public link token in /l/<token> (issue 29 item 5), also on its confirm step', () => {
    expect(redactUrl(`/l/${token}`)).toBe('/l/[redacted]');
    expect(redactUrl(`/l/${token}?lang=en`)).toBe('/l/[redacted]?lang=en');
    expect(redactUrl(`/l/${token}/confirm`)).toBe('/l/[redacted]/confirm');
  });

  it('tRPC input (it carries the token), also in batches and percent-encoded names', () => {
    const input = encodeURIComponent(JSON.stringify({ token }));
    expect(redactUrl(`/trpc/signing.open?input=${input}`)).toBe('/trpc/signing.open?input=[redacted]');
    expect(redactUrl(`/trpc/signing.open,signing.x?batch=1&input=${input}`)).toBe(
      '/trpc/signing.open,signing.x?batch=1&input=[redacted]',
    );
    expect(redactUrl(`/x?%69nput=${token}&token=${token}&q=ok`)).toBe(
      '/x?%69nput=[redacted]&token=[redacted]&q=ok',
    );
  });

  it('other URLs are left alone', () => {
    expect(redactUrl('/api/v1/templates?limit=5&q=nda')).toBe('/api/v1/templates?limit=5&q=nda');
    expect(redactUrl('/healthz')).toBe('/healthz');
  });
});
