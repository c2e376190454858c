import { randomBytes, scryptSync } from 'node:crypto';
import type { Db } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCoreDeps } from '../src/context.ts';
import { jobHandlers } from '../src/jobs.ts';
import { createLogger } from '../src/logger.ts';
import { authenticateWebRequest } from '../src/services/sessions/sessions.ts';
import { EMAIL_LINK_JOB, SIGN_IN_RATE_LIMITS } from '../src/services/sessions/sign-in.ts';
import { drainJobs } from '../src/services/worker.ts';
import {
  accountWithPassword,
  codeOf,
  cookieOf,
  dashboardConfig,
  type Harness,
  harness,
  newBrowser,
  PUBLIC_URL,
  signIn,
  uniqueEmail,
} from './dashboard-helpers.ts';

// operations.md §5: sign-in with a password or a one-time link, sessions as database rows,
// CSRF protection, rate-limited attempts, password reset.

let tdb: TestDatabase;
let db: Db;
let h: Harness;
const clock = { now: new Date('2031-03-01T10:00:00Z') };
const config = dashboardConfig();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  h = harness(db, config, clock);
});
afterAll(async () => tdb.drop());
// Each test starts in a fresh rate-limit window.
beforeEach(() => {
  clock.now = new Date(clock.now.getTime() + 120_000);
});

/** The link emailed to an address: the emailing job runs first (the request only queues it). */
const linkFor = async (email: string, kind: string) => {
  await drainJobs(
    {
      db,
      logger: createLogger('silent', 'test'),
      config,
      deps: createCoreDeps(config),
      now: () => clock.now,
    },
    { [EMAIL_LINK_JOB]: jobHandlers[EMAIL_LINK_JOB] },
  );
  const mail = await db
    .selectFrom('mail_outbox')
    .select(['links', 'kind'])
    .where('to_address', '=', email)
    .where('kind', '=', kind)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return mail?.links[0] ?? null;
};
const tokenIn = (link: string) => new URL(link).hash.replace('#token=', '');

describe('password sign-in', () => {
  it('signs a user created with a password in: a session row, an HttpOnly cookie, their role', async () => {
    const acct = await accountWithPassword(db);
    const { actor } = await signIn(h, acct.admin.email, acct.admin.password, newBrowser('203.0.113.7'));
    expect(actor).toMatchObject({
      kind: 'session',
      userId: acct.admin.id,
      userRole: 'admin',
      environment: 'live',
    });
    const rows = await db.selectFrom('sessions').selectAll().where('user_id', '=', acct.admin.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ip).toBe('203.0.113.7');
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const acct = await accountWithPassword(db);
    const b = newBrowser();
    await expect(h.caller(b).auth.signIn({ email: acct.admin.email, password: 'nope nope' })).rejects.toThrow(
      'The email address or the password is wrong',
    );
    await expect(
      h.caller(b).auth.signIn({ email: uniqueEmail('ghost'), password: 'nope nope' }),
    ).rejects.toThrow('The email address or the password is wrong');
    expect(b.token).toBeNull();
  });

  it('verifies a password stored with the old scrypt scheme and replaces it with argon2id', async () => {
    const acct = await accountWithPassword(db);
    const salt = randomBytes(16);
    const key = scryptSync('legacy password', salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    await db
      .updateTable('users')
      .set({ password_hash: `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}` })
      .where('id', '=', acct.admin.id)
      .execute();
    await signIn(h, acct.admin.email, 'legacy password');
    const user = await db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', acct.admin.id)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    await signIn(h, acct.admin.email, 'legacy password');
  });

  it(`rate-limits attempts per account: the ${SIGN_IN_RATE_LIMITS.password.perAccount + 1}th in a minute is refused, even with the right password`, async () => {
    const acct = await accountWithPassword(db);
    for (let i = 0; i < SIGN_IN_RATE_LIMITS.password.perAccount; i++) {
      const ip = `198.51.100.${i + 1}`;
      expect(
        await codeOf(h.caller(newBrowser(ip)).auth.signIn({ email: acct.admin.email, password: 'wrong' })),
      ).toBe('unauthenticated');
    }
    const b = newBrowser('198.51.100.99');
    expect(
      await codeOf(h.caller(b).auth.signIn({ email: acct.admin.email, password: acct.admin.password })),
    ).toBe('rate_limited');
    expect(b.token).toBeNull();
    clock.now = new Date(clock.now.getTime() + 61_000);
    await signIn(h, acct.admin.email, acct.admin.password, b);
  });

  it(`rate-limits attempts per address: ${SIGN_IN_RATE_LIMITS.password.perAddress} a minute from one IP`, async () => {
    const b = newBrowser('192.0.2.50');
    for (let i = 0; i < SIGN_IN_RATE_LIMITS.password.perAddress; i++) {
      await codeOf(h.caller(b).auth.signIn({ email: uniqueEmail('spray'), password: 'x' }));
    }
    expect(await codeOf(h.caller(b).auth.signIn({ email: uniqueEmail('spray'), password: 'x' }))).toBe(
      'rate_limited',
    );
  });

  it('refuses sign-in forms posted from another site (login CSRF)', async () => {
    const acct = await accountWithPassword(db);
    const b = { ...newBrowser(), origin: 'https://evil.example' };
    expect(
      await codeOf(h.caller(b).auth.signIn({ email: acct.admin.email, password: acct.admin.password })),
    ).toBe('forbidden');
    expect(b.token).toBeNull();
  });

  it('webProcedure (issue 28, item 5): every sign-in form and sign-out runs only in the dashboard (not_available without the web adapter) and only from our own pages (forbidden from another site), checked before the input is read', async () => {
    const callsOf = (c: ReturnType<Harness['caller']>) => ({
      signIn: () => c.auth.signIn({} as never),
      requestSignInLink: () => c.auth.requestSignInLink({} as never),
      signInWithLink: () => c.auth.signInWithLink({} as never),
      requestPasswordReset: () => c.auth.requestPasswordReset({} as never),
      resetPassword: () => c.auth.resetPassword({} as never),
      signUp: () => c.auth.signUp({} as never),
      acceptInvitation: () => c.auth.acceptInvitation({} as never),
      signOut: () => c.auth.signOut(),
    });
    const elsewhere = { ...newBrowser(), origin: 'https://evil.example' };
    for (const [name, call] of Object.entries(callsOf(h.caller(null)))) {
      expect(await codeOf(call()), name).toBe('not_available');
    }
    for (const [name, call] of Object.entries(callsOf(h.caller(elsewhere)))) {
      expect(await codeOf(call()), name).toBe('forbidden');
    }
    // From our own pages the same calls get as far as reading the input.
    for (const [name, call] of Object.entries(callsOf(h.caller(newBrowser())))) {
      if (name !== 'signOut') expect(await codeOf(call()), name).toBe('missing_parameter');
    }
  });

  it('a removed member cannot sign in', async () => {
    const acct = await accountWithPassword(db);
    const member = await acct.addUser('member');
    await db.updateTable('users').set({ disabled_at: clock.now }).where('id', '=', member.id).execute();
    expect(
      await codeOf(h.caller(newBrowser()).auth.signIn({ email: member.email, password: member.password })),
    ).toBe('unauthenticated');
  });
});

describe('sessions are database rows', () => {
  it('sign-out revokes the row, so the same cookie no longer works in any process', async () => {
    const acct = await accountWithPassword(db);
    const { browser } = await signIn(h, acct.admin.email, acct.admin.password);
    const token = browser.token!;
    await h.caller(browser, await h.actorOf(browser)).auth.signOut();
    expect(browser.token).toBeNull();
    expect(await h.actorOf({ ...browser, token })).toBeNull();
  });

  it('an expired session is no session', async () => {
    const acct = await accountWithPassword(db);
    const { browser } = await signIn(h, acct.admin.email, acct.admin.password);
    clock.now = new Date(clock.now.getTime() + 31 * 86400_000);
    expect(await h.actorOf(browser)).toBeNull();
  });

  it('lists the sessions, marks this one, and "sign out other sessions" keeps only this one', async () => {
    const acct = await accountWithPassword(db);
    const first = await signIn(h, acct.admin.email, acct.admin.password);
    const second = await signIn(h, acct.admin.email, acct.admin.password, newBrowser('203.0.113.8'));
    const list = await h.caller(second.browser, second.actor).sessions.list();
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current).map((s) => s.id)).toEqual([second.actor.sessionId]);
    expect(await h.caller(second.browser, second.actor).sessions.revokeOthers()).toEqual({
      signed_out_sessions: 1,
    });
    expect(await h.actorOf(first.browser)).toBeNull();
    expect(await h.actorOf(second.browser)).not.toBeNull();
  });

  it("another user's session id is not found", async () => {
    const a = await accountWithPassword(db);
    const b = await accountWithPassword(db);
    const sa = await signIn(h, a.admin.email, a.admin.password);
    const sb = await signIn(h, b.admin.email, b.admin.password);
    expect(await codeOf(h.caller(sa.browser, sa.actor).sessions.revoke({ id: sb.actor.sessionId! }))).toBe(
      'not_found',
    );
    expect(await h.actorOf(sb.browser)).not.toBeNull();
  });

  it('the live/test switch changes the side the session acts on', async () => {
    const acct = await accountWithPassword(db);
    const s = await signIn(h, acct.admin.email, acct.admin.password);
    await h.caller(s.browser, s.actor).sessions.setEnvironment({ environment: 'test' });
    expect((await h.actorOf(s.browser))?.environment).toBe('test');
  });
});

describe('CSRF protection on changes made with the session cookie', () => {
  const request = async (method: string, token: string, extra: { csrf?: string; origin?: string } = {}) =>
    authenticateWebRequest(db, config, {
      method,
      cookie: cookieOf(config, token),
      csrfToken: extra.csrf,
      origin: extra.origin,
      now: clock.now,
    });

  it('a change without the CSRF token is refused with 403 forbidden; reads need none', async () => {
    const acct = await accountWithPassword(db);
    const s = await signIn(h, acct.admin.email, acct.admin.password);
    const read = await request('GET', s.browser.token!);
    expect(read.actor?.userId).toBe(acct.admin.id);
    const missing = await request('POST', s.browser.token!, { origin: PUBLIC_URL });
    expect(missing.actor).toBeNull();
    expect(missing.failure?.code).toBe('forbidden');
  });

  it('a change with the right token from our origin passes; a wrong token or another origin does not', async () => {
    const acct = await accountWithPassword(db);
    const s = await signIn(h, acct.admin.email, acct.admin.password);
    const { session } = await h.caller(s.browser, s.actor).auth.session();
    const csrf = session!.csrf_token;
    expect((await request('POST', s.browser.token!, { csrf, origin: PUBLIC_URL })).actor?.userId).toBe(
      acct.admin.id,
    );
    expect((await request('POST', s.browser.token!, { csrf })).actor?.userId).toBe(acct.admin.id);
    expect((await request('POST', s.browser.token!, { csrf: `${csrf.slice(0, -1)}x` })).failure?.code).toBe(
      'forbidden',
    );
    expect(
      (await request('POST', s.browser.token!, { csrf, origin: 'https://evil.example' })).failure?.code,
    ).toBe('forbidden');
  });
});

describe('one-time sign-in links by email', () => {
  it('emails a link that signs in once; a second use is refused', async () => {
    const acct = await accountWithPassword(db);
    expect(await h.caller(newBrowser()).auth.requestSignInLink({ email: acct.admin.email })).toEqual({
      sent: true,
    });
    const link = await linkFor(acct.admin.email, 'sign_in_link');
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/login/link#token=`));
    const b = newBrowser();
    await h.caller(b).auth.signInWithLink({ token: tokenIn(link!) });
    expect((await h.actorOf(b))?.userId).toBe(acct.admin.id);
    expect(await codeOf(h.caller(newBrowser()).auth.signInWithLink({ token: tokenIn(link!) }))).toBe(
      'invalid_request',
    );
  });

  it('the link returns to where sign-in was asked to (next, a path on this site: the OAuth consent page); other places are refused', async () => {
    const acct = await accountWithPassword(db);
    const next = '/oauth/authorize?client_id=abc&scope=read%20write';
    await h.caller(newBrowser()).auth.requestSignInLink({ email: acct.admin.email, next });
    const link = await linkFor(acct.admin.email, 'sign_in_link');
    expect(link).toBe(`${PUBLIC_URL}/login/link?next=${encodeURIComponent(next)}#token=${tokenIn(link!)}`);
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'oauth/authorize']) {
      expect(
        await codeOf(h.caller(newBrowser()).auth.requestSignInLink({ email: acct.admin.email, next: bad })),
      ).toBe('invalid_parameter');
    }
  });

  it('an expired link is refused', async () => {
    const acct = await accountWithPassword(db);
    await h.caller(newBrowser()).auth.requestSignInLink({ email: acct.admin.email });
    const link = await linkFor(acct.admin.email, 'sign_in_link');
    clock.now = new Date(clock.now.getTime() + 16 * 60_000);
    expect(await codeOf(h.caller(newBrowser()).auth.signInWithLink({ token: tokenIn(link!) }))).toBe(
      'invalid_request',
    );
  });

  it('an unknown address gets the same answer and no email', async () => {
    const email = uniqueEmail('nobody');
    expect(await h.caller(newBrowser()).auth.requestSignInLink({ email })).toEqual({ sent: true });
    expect(await linkFor(email, 'sign_in_link')).toBeNull();
  });

  it(`emails are rate-limited: ${SIGN_IN_RATE_LIMITS.mail.perAccount} a minute per address`, async () => {
    const acct = await accountWithPassword(db);
    for (let i = 0; i < SIGN_IN_RATE_LIMITS.mail.perAccount; i++) {
      await h.caller(newBrowser(`192.0.2.${i + 1}`)).auth.requestSignInLink({ email: acct.admin.email });
    }
    expect(
      await codeOf(h.caller(newBrowser('192.0.2.99')).auth.requestSignInLink({ email: acct.admin.email })),
    ).toBe('rate_limited');
  });
});

describe('password reset by email', () => {
  it('sets a new password once, signs out every other session, and the link is single-use', async () => {
    const acct = await accountWithPassword(db);
    const old = await signIn(h, acct.admin.email, acct.admin.password);
    await h.caller(newBrowser()).auth.requestPasswordReset({ email: acct.admin.email });
    const link = await linkFor(acct.admin.email, 'password_reset');
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/reset-password#token=`));
    const b = newBrowser();
    await h.caller(b).auth.resetPassword({ token: tokenIn(link!), password: 'a brand new password' });
    expect((await h.actorOf(b))?.userId).toBe(acct.admin.id);
    expect(await h.actorOf(old.browser)).toBeNull();
    expect(
      await codeOf(
        h.caller(newBrowser()).auth.resetPassword({ token: tokenIn(link!), password: 'another new one' }),
      ),
    ).toBe('invalid_request');
    expect(
      await codeOf(
        h.caller(newBrowser()).auth.signIn({ email: acct.admin.email, password: acct.admin.password }),
      ),
    ).toBe('unauthenticated');
    await signIn(h, acct.admin.email, 'a brand new password');
  });

  it('a new password must have at least 8 characters', async () => {
    expect(
      await codeOf(h.caller(newBrowser()).auth.resetPassword({ token: 'x'.repeat(43), password: 'short' })),
    ).toBe('invalid_parameter');
  });

  it('changing the password asks for the current one and signs out the other sessions', async () => {
    const acct = await accountWithPassword(db);
    const a = await signIn(h, acct.admin.email, acct.admin.password);
    const b = await signIn(h, acct.admin.email, acct.admin.password);
    expect(
      await codeOf(
        h
          .caller(b.browser, b.actor)
          .sessions.changePassword({ current_password: 'wrong', password: 'new password 2' }),
      ),
    ).toBe('invalid_parameter');
    expect(
      await h
        .caller(b.browser, b.actor)
        .sessions.changePassword({ current_password: acct.admin.password, password: 'new password 2' }),
    ).toEqual({ signed_out_sessions: 1 });
    expect(await h.actorOf(a.browser)).toBeNull();
    expect(await h.actorOf(b.browser)).not.toBeNull();
  });
});

describe('self-service sign-up (SIGNUP_ENABLED, off by default)', () => {
  it('is refused while the operator has not turned it on', async () => {
    expect(
      await codeOf(
        h.caller(newBrowser()).auth.signUp({ email: uniqueEmail('new'), password: 'long enough pw' }),
      ),
    ).toBe('not_available');
  });

  it('creates an account with its admin and signs in when turned on', async () => {
    const on = harness(db, dashboardConfig({ SIGNUP_ENABLED: 'true' }), clock);
    const b = newBrowser();
    const email = uniqueEmail('new');
    await on.caller(b).auth.signUp({ email, password: 'long enough pw', account_name: 'New Co' });
    expect(await on.actorOf(b)).toMatchObject({ userEmail: email, userRole: 'admin' });
  });

  it('a new account starts with SIGNUP_CREDITS credits (default 0: sending is blocked until credits are bought or given; issue 33 item 8)', async () => {
    const none = harness(db, dashboardConfig({ SIGNUP_ENABLED: 'true' }), clock);
    const first = newBrowser();
    await none.caller(first).auth.signUp({ email: uniqueEmail('zero'), password: 'long enough pw' });
    expect(await none.caller(first, await none.actorOf(first)).account.credits()).toMatchObject({
      available: 0,
      can_send: false,
    });
    const some = harness(db, dashboardConfig({ SIGNUP_ENABLED: 'true', SIGNUP_CREDITS: '5' }), clock);
    const second = newBrowser();
    await some.caller(second).auth.signUp({ email: uniqueEmail('five'), password: 'long enough pw' });
    expect(await some.caller(second, await some.actorOf(second)).account.credits()).toMatchObject({
      available: 5,
      can_send: true,
    });
  });
});
