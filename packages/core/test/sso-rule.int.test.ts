import type { Db } from '@esign/db';
import { insertSignInToken } from '@esign/db/queries/sessions';
import { saveAccountSso } from '@esign/db/queries/sso';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCoreDeps } from '../src/context.ts';
import { sha256Hex } from '../src/crypto.ts';
import { createLogger } from '../src/logger.ts';
import { authenticateSession, createSession } from '../src/services/sessions/sessions.ts';
import { finishSsoSignIn, roleFromClaims, startSsoSignIn } from '../src/services/sessions/sso.ts';
import { openClientSecret, sealClientSecret } from '../src/services/sessions/sso-client.ts';
import { pruneSignInAttempts } from '../src/services/sessions/sso-rule.ts';
import {
  accountWithPassword,
  codeOf,
  cookieOf,
  dashboardConfig,
  type Harness,
  harness,
  newBrowser,
  uniqueEmail,
} from './dashboard-helpers.ts';

// Issue 45 items 3-5 for the new ways in: "require single sign-on for everyone but a break-glass
// admin" cannot be skipped by any route (password, emailed link, tRPC, the OAuth consent page's
// reader of the cookie, a session opened before the rule); passkey-alone and SSO sessions count
// as a second step for the account rule; the client secret is sealed at rest; nothing secret in
// the log.

let tdb: TestDatabase;
let db: Db;
let h: Harness;
const clock = { now: new Date('2031-06-01T10:00:00Z') };
const config = dashboardConfig();
const CLIENT_SECRET = 'the-client-secret-0123456789abcdef';

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  h = harness(db, config, clock);
});
afterAll(async () => tdb.drop());
beforeEach(() => {
  clock.now = new Date(clock.now.getTime() + 120_000);
});

async function ssoAccount(values: {
  required: boolean;
  breakGlass: number | null;
  accountId: number;
  domain: string;
}) {
  await saveAccountSso(
    db,
    {
      account_id: values.accountId,
      issuer: 'https://idp.example.com',
      client_id: 'esign',
      client_secret_sealed: sealClientSecret(config, values.accountId, CLIENT_SECRET),
      default_role: 'member',
      role_claim: null,
      role_map: {},
      required: values.required,
      break_glass_user_id: values.breakGlass,
      now: clock.now,
    },
    [values.domain],
  );
}

const consentSees = (token: string) =>
  authenticateSession(db, config, { cookieHeader: cookieOf(config, token), now: clock.now });

describe('require single sign-on for everyone but the break-glass admin', () => {
  it('attack: a member’s password, emailed link and earlier session are all refused; the break-glass admin’s password still works', async () => {
    const acct = await accountWithPassword(db);
    const member = await acct.addUser('member');
    const other = await acct.addUser('admin');
    // Sessions opened before the rule.
    const before = await createSession(db, member.id, { ip: null, userAgent: null, now: clock.now });
    const otherAdmin = await createSession(db, other.id, { ip: null, userAgent: null, now: clock.now });
    await ssoAccount({
      required: true,
      breakGlass: acct.admin.id,
      accountId: acct.accountId,
      domain: `d${acct.accountId}.example.com`,
    });

    const mb = newBrowser();
    expect(await codeOf(h.caller(mb).auth.signIn({ email: member.email, password: member.password }))).toBe(
      'forbidden',
    );
    expect(mb.token).toBeNull();
    // An emailed sign-in link (its token as the email job makes it).
    const linkToken = 'a-sign-in-link-token-of-the-member-0123456789';
    await insertSignInToken(db, {
      tokenHash: sha256Hex(linkToken),
      userId: member.id,
      purpose: 'sign_in',
      now: clock.now,
      expiresAt: new Date(clock.now.getTime() + 600_000),
    });
    expect(await codeOf(h.caller(mb).auth.signInWithLink({ token: linkToken }))).toBe('forbidden');
    expect(mb.token).toBeNull();
    // Another admin is not the break-glass admin.
    expect(
      await codeOf(h.caller(newBrowser()).auth.signIn({ email: other.email, password: other.password })),
    ).toBe('forbidden');
    // The earlier sessions: no route sees them (tRPC's reader with enrolment allowed, the consent page's).
    expect(await consentSees(before.token)).toBeNull();
    expect(await consentSees(otherAdmin.token)).toBeNull();
    expect(
      await authenticateSession(db, config, {
        cookieHeader: cookieOf(config, before.token),
        now: clock.now,
        allowEnrolment: true,
      }),
    ).toBeNull();
    // A session of single sign-on is seen.
    const sso = await createSession(db, member.id, {
      ip: null,
      userAgent: null,
      now: clock.now,
      method: 'sso',
    });
    expect((await consentSees(sso.token))?.actor.userId).toBe(member.id);
    // The break-glass admin signs in with the password.
    const ab = newBrowser();
    expect(
      (await h.caller(ab).auth.signIn({ email: acct.admin.email, password: acct.admin.password })).signed_in,
    ).toBe(true);
    expect(await h.actorOf(ab)).not.toBeNull();
  });

  it('a passkey-alone or SSO session satisfies the second-step rule; a password-only one does not', async () => {
    const acct = await accountWithPassword(db);
    const member = await acct.addUser('member');
    await db
      .updateTable('accounts')
      .set({ require_second_step: true })
      .where('id', '=', acct.accountId)
      .execute();
    const meta = { ip: null, userAgent: null, now: clock.now };
    for (const method of ['passkey', 'sso', 'password+passkey', 'link+passkey']) {
      const s = await createSession(db, member.id, { ...meta, method });
      expect((await consentSees(s.token))?.actor.secondStepRequired, method).toBeUndefined();
    }
    const plain = await createSession(db, member.id, { ...meta, method: 'password' });
    expect(await consentSees(plain.token)).toBeNull();
  });
});

describe('the session list (item 5)', () => {
  it('shows each session’s method (password, passkey, sso, password+passkey) and signs any of them out the same way', async () => {
    const acct = await accountWithPassword(db);
    const meta = { ip: null, userAgent: null, now: clock.now };
    const mine = newBrowser();
    await h.caller(mine).auth.signIn({ email: acct.admin.email, password: acct.admin.password });
    const others = [];
    for (const method of ['passkey', 'sso', 'password+passkey']) {
      others.push({ method, ...(await createSession(db, acct.admin.id, { ...meta, method })) });
    }
    const actor = (await h.actorOf(mine))!;
    const listed = await h.caller(mine, actor).sessions.list();
    expect(listed.map((s) => s.method).sort()).toEqual(
      ['password', 'passkey', 'password+passkey', 'sso'].sort(),
    );
    for (const o of others) {
      await h.caller(mine, actor).sessions.revoke({ id: o.id });
      expect(await consentSees(o.token), o.method).toBeNull();
    }
    expect((await h.caller(mine, actor).sessions.list()).map((s) => s.method)).toEqual(['password']);
  });
});

describe('single sign-on sign-in, without a provider', () => {
  it('an email of a domain no account claims gets unknown_domain; a forged or missing state gets expired', async () => {
    const sc = {
      db,
      config,
      logger: createLogger('silent', 'test'),
      deps: createCoreDeps(config),
      now: () => clock.now,
    };
    await expect(
      startSsoSignIn(sc, { email: uniqueEmail('x'), next: null, ip: '10.9.9.9' }),
    ).rejects.toMatchObject({
      reason: 'unknown_domain',
    });
    const meta = { ip: null, userAgent: null };
    await expect(
      finishSsoSignIn(sc, { query: 'code=abc&state=forged', cookieState: 'other' }, meta),
    ).rejects.toMatchObject({
      reason: 'expired',
    });
    await expect(
      finishSsoSignIn(sc, { query: 'code=abc&state=same', cookieState: 'same' }, meta),
    ).rejects.toMatchObject({
      reason: 'expired',
    });
    await expect(finishSsoSignIn(sc, { query: 'code=abc', cookieState: null }, meta)).rejects.toMatchObject({
      reason: 'expired',
    });
  });

  it('roles from a claim: the strongest mapped value wins, unmapped values give the default role', () => {
    const sso = {
      default_role: 'viewer' as const,
      role_claim: 'groups',
      role_map: { staff: 'member', bosses: 'admin' },
    };
    expect(roleFromClaims(sso, { groups: ['staff', 'bosses'] })).toBe('admin');
    expect(roleFromClaims(sso, { groups: 'staff' })).toBe('member');
    expect(roleFromClaims(sso, { groups: ['visitors'] })).toBe('viewer');
    expect(roleFromClaims({ ...sso, role_claim: null }, { groups: ['bosses'] })).toBe('viewer');
    // A mapped value that is no role is ignored.
    expect(roleFromClaims({ ...sso, role_map: { staff: 'owner' } }, { groups: ['staff'] })).toBe('viewer');
  });

  it('housekeeping removes sign-ins that can no longer complete, an hour after they expired', async () => {
    const acct = await accountWithPassword(db);
    const at = (minutes: number) => new Date(clock.now.getTime() + minutes * 60_000);
    for (const [hash, expires] of [
      [`old-${acct.accountId}`, at(-61)],
      [`new-${acct.accountId}`, at(-59)],
    ] as const) {
      await db
        .insertInto('sso_logins')
        .values({
          state_hash: hash,
          account_id: acct.accountId,
          nonce: 'n',
          code_verifier: 'v',
          expires_at: expires,
        })
        .execute();
      await db
        .insertInto('webauthn_challenges')
        .values({ ticket_hash: hash, purpose: 'sign_in', challenge: 'c', expires_at: expires })
        .execute();
    }
    const gone = await db.transaction().execute((tx) => pruneSignInAttempts(tx, clock.now));
    expect(gone.sso).toBeGreaterThanOrEqual(1);
    expect(gone.webauthn).toBeGreaterThanOrEqual(1);
    const left = await db
      .selectFrom('sso_logins')
      .select('state_hash')
      .where('account_id', '=', acct.accountId)
      .execute();
    expect(left.map((r) => r.state_hash)).toEqual([`new-${acct.accountId}`]);
  });

  it('the client secret is sealed at rest, bound to its account', async () => {
    const acct = await accountWithPassword(db);
    await ssoAccount({
      required: false,
      breakGlass: null,
      accountId: acct.accountId,
      domain: `s${acct.accountId}.example.com`,
    });
    const row = await db
      .selectFrom('account_sso')
      .select('client_secret_sealed')
      .where('account_id', '=', acct.accountId)
      .executeTakeFirstOrThrow();
    expect(row.client_secret_sealed).toMatch(/^enc:v1:/);
    expect(row.client_secret_sealed).not.toContain(CLIENT_SECRET);
    expect(openClientSecret(config, acct.accountId, row.client_secret_sealed)).toBe(CLIENT_SECRET);
    expect(() => openClientSecret(config, acct.accountId + 1, row.client_secret_sealed)).toThrow();
  });
});
