import type { Db } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { relyingParty } from '../src/services/sessions/passkeys.ts';
import {
  accountWithPassword,
  codeOf,
  dashboardConfig,
  type Harness,
  harness,
  newBrowser,
  signIn,
} from './dashboard-helpers.ts';

// Issue 45 item 2, the server's side without a browser: no cross-account access to passkeys, a
// registration ticket is its user's only, spent tickets and unknown credentials are refused. The
// WebAuthn ceremonies themselves run in Chromium (apps/web/test/passkeys.int.test.ts).

let tdb: TestDatabase;
let db: Db;
let h: Harness;
const clock = { now: new Date('2031-07-01T10:00:00Z') };
const config = dashboardConfig();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  h = harness(db, config, clock);
});
afterAll(async () => tdb.drop());
beforeEach(() => {
  clock.now = new Date(clock.now.getTime() + 120_000);
});

const assertion = (id: string) => ({
  id,
  rawId: id,
  type: 'public-key' as const,
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
});

async function twoUsers() {
  const a = await accountWithPassword(db);
  const b = await accountWithPassword(db);
  const alice = await signIn(h, a.admin.email, a.admin.password);
  const bob = await signIn(h, b.admin.email, b.admin.password);
  const [row] = await db
    .insertInto('user_passkeys')
    .values({
      user_id: a.admin.id,
      credential_id: `cred-${a.admin.id}`,
      public_key: Buffer.from([1]),
      name: 'Alice laptop',
    })
    .returning('id')
    .execute();
  return { alice, bob, passkeyId: Number(row!.id), a };
}

describe('passkeys: the server side', () => {
  it('the relying party is PUBLIC_URL: its host name the RP ID, its origin the one origin', () => {
    expect(relyingParty({ PUBLIC_URL: 'https://sign.example.com:8443' })).toEqual({
      rpID: 'sign.example.com',
      origin: 'https://sign.example.com:8443',
      rpName: 'sign.example.com:8443',
    });
  });

  it('attack: another account’s user cannot list, rename or remove a passkey (not_found), nor finish a registration with its ticket', async () => {
    const { alice, bob, passkeyId } = await twoUsers();
    const asBob = h.caller(bob.browser, bob.actor);
    expect(await asBob.passkeys.list()).toEqual([]);
    expect(await codeOf(asBob.passkeys.rename({ id: passkeyId, name: 'Mine now' }))).toBe('not_found');
    expect(await codeOf(asBob.passkeys.remove({ id: passkeyId }))).toBe('not_found');
    const asAlice = h.caller(alice.browser, alice.actor);
    expect((await asAlice.passkeys.list()).map((p) => p.name)).toEqual(['Alice laptop']);
    // Alice's registration ticket, sent by Bob: refused, and spent.
    const { ticket, options } = await asAlice.passkeys.startRegistration();
    expect(options.rp.id).toBe(new URL(config.PUBLIC_URL).hostname);
    expect(options.authenticatorSelection?.residentKey).toBe('required');
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([`cred-${alice.actor.userId}`]);
    const response = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: { clientDataJSON: 'e30', attestationObject: 'AAAA' },
    };
    expect(await codeOf(asBob.passkeys.finishRegistration({ ticket, name: 'Stolen', response }))).toBe(
      'invalid_request',
    );
    expect(await codeOf(asAlice.passkeys.finishRegistration({ ticket, name: 'Late', response }))).toBe(
      'invalid_request',
    );
  });

  it('a passkey sign-in: an unknown credential is refused and its ticket is spent; an unknown ticket is refused', async () => {
    const b = newBrowser();
    const { ticket, options } = await h.caller(b).passkeys.startSignIn();
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(await codeOf(h.caller(b).passkeys.signIn({ ticket, response: assertion('bm90LWEta2V5') }))).toBe(
      'invalid_parameter',
    );
    expect(await codeOf(h.caller(b).passkeys.signIn({ ticket, response: assertion('bm90LWEta2V5') }))).toBe(
      'invalid_request',
    );
    expect(b.token).toBeNull();
  });

  it('as the second step: only the user’s own passkeys are offered; another user’s passkey is refused and counted as a wrong second step', async () => {
    const { a } = await twoUsers();
    const b = newBrowser();
    // Alice has a passkey: her password gives a challenge naming it.
    const first = await h.caller(b).auth.signIn({ email: a.admin.email, password: a.admin.password });
    expect(first.signed_in).toBe(false);
    if (first.signed_in) return;
    expect(first.second_step.methods).toEqual(['passkey']);
    const options = await h.caller(b).passkeys.startSecondStep({ token: first.second_step.token });
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([`cred-${a.admin.id}`]);
    // Another user's passkey as her second step: refused, and counted as a wrong second step.
    const other = await db
      .insertInto('user_passkeys')
      .values({
        user_id: (await a.addUser('member')).id,
        credential_id: `other-${a.admin.id}`,
        public_key: Buffer.from([1]),
        name: 'x',
      })
      .returning('credential_id')
      .executeTakeFirstOrThrow();
    const token = first.second_step.token;
    expect(
      await codeOf(
        h.caller(b).passkeys.completeSecondStep({ token, response: assertion(other.credential_id) }),
      ),
    ).toBe('invalid_parameter');
    const failures = await db
      .selectFrom('audit_events')
      .select('type')
      .where('type', '=', 'user.second_step_failed')
      .where('actor_id', '=', String(a.admin.id))
      .execute();
    expect(failures).toHaveLength(1);
    expect(b.token).toBeNull();
  });
});
