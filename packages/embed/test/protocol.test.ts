import { describe, expect, it } from 'vitest';
import { parseSigningUrl } from '../src/element.ts';
import { hostMessage, MESSAGE_SOURCE, parseHostMessage } from '../src/protocol.ts';

// The messages between the embedded signing page and <esign-form> (docs/embed.md): the element
// accepts only the shapes the page posts (issue 48.3: typed events, origin checked on both sides).

const field = { id: 'f1', name: 'Signature', type: 'signature', required: true };

describe('parseHostMessage (issue 48.3: the element accepts only the signing page messages)', () => {
  it('accepts each message type the page posts, as built by hostMessage', () => {
    const messages = [
      hostMessage('loaded', { status: 'ready' }),
      hostMessage('loaded', { status: 'code_required' }),
      hostMessage('field-completed', { field, completed: 1, total: 2 }),
      hostMessage('signed', { signature_request_id: 7 }),
      hostMessage('declined', { signature_request_id: 7 }),
      hostMessage('error', { code: 'not_found', message: 'No such link' }),
      hostMessage('resize', { height: 812 }),
    ];
    for (const m of messages) {
      expect(m.source).toBe(MESSAGE_SOURCE);
      expect(parseHostMessage(structuredClone(m))).toEqual(m);
    }
  });

  it('refuses other scripts messages and bad shapes', () => {
    const bad: unknown[] = [
      null,
      'loaded',
      42,
      { type: 'loaded', status: 'ready' }, // no marker
      { source: 'other', type: 'loaded', status: 'ready' },
      { source: MESSAGE_SOURCE, type: 'completed', signature_request_id: 1 }, // the old name, never posted
      { source: MESSAGE_SOURCE, type: 'toString' }, // not an own key of the checks
      { source: MESSAGE_SOURCE, type: 'loaded', status: 'done' },
      { source: MESSAGE_SOURCE, type: 'signed', signature_request_id: '7' },
      { source: MESSAGE_SOURCE, type: 'signed', signature_request_id: 0 },
      { source: MESSAGE_SOURCE, type: 'declined' },
      { source: MESSAGE_SOURCE, type: 'field-completed', field: null, completed: 1, total: 1 },
      {
        source: MESSAGE_SOURCE,
        type: 'field-completed',
        field: { ...field, required: 'yes' },
        completed: 1,
        total: 1,
      },
      { source: MESSAGE_SOURCE, type: 'field-completed', field, completed: -1, total: 1 },
      { source: MESSAGE_SOURCE, type: 'error', code: 'x' },
      { source: MESSAGE_SOURCE, type: 'resize', height: Number.NaN },
      { source: MESSAGE_SOURCE, type: 'resize', height: -5 },
    ];
    for (const data of bad) expect(parseHostMessage(data), JSON.stringify(data)).toBeNull();
  });
});

describe('parseSigningUrl (the element frames only signing links of the service)', () => {
  const token = 'a'.repeat(43);
  it('takes /s/{token} and /e/{token} and returns the origin and token', () => {
    expect(parseSigningUrl(`https://sign.example.com/s/${token}`)).toEqual({
      origin: 'https://sign.example.com',
      token,
    });
    expect(parseSigningUrl(`http://localhost:3000/e/${token}`, 'http://localhost:3000')).toEqual({
      origin: 'http://localhost:3000',
      token,
    });
    // A relative URL is the service's own.
    expect(parseSigningUrl(`/s/${token}`, 'https://sign.example.com')?.origin).toBe(
      'https://sign.example.com',
    );
  });

  it('refuses another origin than the service, other paths, short tokens and other schemes', () => {
    expect(parseSigningUrl(`https://evil.example/s/${token}`, 'https://sign.example.com')).toBeNull();
    expect(parseSigningUrl(`https://sign.example.com/x/${token}`)).toBeNull();
    expect(parseSigningUrl(`https://sign.example.com/s/${token}?next=1`)?.token).toBe(token);
    expect(parseSigningUrl('https://sign.example.com/s/short')).toBeNull();
    expect(parseSigningUrl(`javascript:/s/${token}`)).toBeNull();
    expect(parseSigningUrl('not a url')).toBeNull();
    // A malformed service (the attribute) refuses every URL instead of throwing.
    expect(parseSigningUrl(`https://sign.example.com/s/${token}`, 'sign.example.com')).toBeNull();
    expect(parseSigningUrl(null)).toBeNull();
    expect(parseSigningUrl('')).toBeNull();
  });
});
