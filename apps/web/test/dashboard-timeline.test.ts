import { en } from '@esign/i18n/catalogues/en';
import { describe, expect, it } from 'vitest';
import { describeActivity } from '../dashboard/src/format.ts';

// Issue 42 item 8: the request timeline speaks plain words, never an event's internal name
// ("signer locale", "signer copy sealed"). The audit trail's catalogue names every audit type the
// service writes (`audit.event.<type>`), so each of them is checked here.

const AUDIT_TYPES = Object.keys(en)
  .filter((key) => key.startsWith('audit.event.'))
  .map((key) => key.slice('audit.event.'.length))
  .map((name) => name.replace(/^(signature_request|request|signer|otp|sms|link)_/, '$1.'));

const entry = (type: string, data: Record<string, unknown> = {}) => ({
  type,
  signer: { name: 'Carla Client', email: 'carla@example.com' },
  signature_request: { id: 7, title: 'Lease' },
  data,
});

describe('issue 42: the request timeline in plain words', () => {
  it('the audit types come from the trail catalogue (signer.locale and signer.copy_sealed among them)', () => {
    expect(AUDIT_TYPES).toEqual(
      expect.arrayContaining(['signer.locale', 'signer.copy_sealed', 'otp.locked']),
    );
    expect(AUDIT_TYPES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(AUDIT_TYPES)('%s has a sentence of its own, without its internal name', (type) => {
    const line = describeActivity(
      entry(type, { to: 'de', kind: 'invitation', status: 'sent', channel: 'email' }),
    );
    const internal = type.replace(/[._]/g, ' ');
    expect(line).not.toContain(internal);
    expect(line).not.toMatch(/[a-z]+[._][a-z]+/);
  });

  it('a language choice names the language, a hand-over both people and the reason', () => {
    expect(describeActivity(entry('signer.locale', { from: 'en', to: 'de' }))).toBe(
      'Carla Client chose Deutsch for “Lease”',
    );
    expect(
      describeActivity(
        entry('signer.delegated', {
          from: { name: 'Carla Client', email: 'carla@example.com', phone: null },
          to: { name: 'Dan Delegate', email: null, phone: '+4915112345678' },
          reason: 'On leave',
        }),
      ),
    ).toBe('Carla Client handed “Lease” on to Dan Delegate: “On leave”');
  });
});
