import type { Db } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCoreDeps } from '../src/context.ts';
import { jobHandlers } from '../src/jobs.ts';
import { createLogger } from '../src/logger.ts';
import {
  SECOND_STEP_FAILURES_PER_HOUR,
  SECOND_STEP_MAX_ATTEMPTS,
} from '../src/services/sessions/second-step.ts';
import { EMAIL_LINK_JOB } from '../src/services/sessions/sign-in.ts';
import { openTotpSeed, sealTotpSeed } from '../src/services/sessions/totp.ts';
import { drainJobs } from '../src/services/worker.ts';
import {
  accountWithPassword,
  type Browser,
  codeOf,
  dashboardConfig,
  type Harness,
  harness,
  newBrowser,
  signIn,
} from './dashboard-helpers.ts';

// Issue 45 item 1: authenticator-app codes (TOTP, RFC 6238) as the second step of a sign-in.

let tdb: TestDatabase;
let db: Db;
let h: Harness;
const clock = { now: new Date('2031-04-01T10:00:00Z') };
const config = dashboardConfig();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  h = harness(db, config, clock);
});
afterAll(async () => tdb.drop());
// Each test starts in a fresh rate-limit window and a later time step.
beforeEach(() => {
  clock.now = new Date(clock.now.getTime() + 120_000);
});

/** A caller as the signed-in user of this browser (the web adapter reads the actor from the cookie). */
async function as(browser: Browser) {
  return h.caller(browser, await h.actorOf(browser));
}

/** The code an authenticator app with this key shows at the test clock (`stepsLater` steps on). */
const codeAt = (secret: string, stepsLater = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: clock.now.getTime() + stepsLater * 30_000,
  });

/** A user with the app set up: their password, key, recovery codes and a signed-in browser. */
async function enrolledUser() {
  const acct = await accountWithPassword(db);
  const { browser } = await signIn(h, acct.admin.email, acct.admin.password);
  const started = await (await as(browser)).twoStep.startTotp();
  const { recovery_codes } = await (await as(browser)).twoStep.confirmTotp({ code: codeAt(started.secret) });
  clock.now = new Date(clock.now.getTime() + 30_000);
  return { ...acct.admin, accountId: acct.accountId, secret: started.secret, recovery_codes, browser };
}

/** The first step: password right, no cookie yet, the challenge for the second step. */
async function firstStep(email: string, password: string, browser = newBrowser()) {
  const r = await h.caller(browser).auth.signIn({ email, password });
  expect(r.signed_in).toBe(false);
  expect(browser.token).toBeNull();
  if (r.signed_in) throw new Error('expected a second step');
  return { browser, token: r.second_step.token };
}

const auditTypes = async (userId: number) =>
  (
    await db
      .selectFrom('audit_events')
      .select('type')
      .where('actor_type', '=', 'user')
      .where('actor_id', '=', String(userId))
      .orderBy('id')
      .execute()
  ).map((r) => r.type);

describe('enrolment', () => {
  it('gives a QR code and a manual key; a first code confirms it and returns ten recovery codes once, stored hashed; the seed is stored encrypted', async () => {
    const acct = await accountWithPassword(db);
    const { browser, actor } = await signIn(h, acct.admin.email, acct.admin.password);
    const started = await (await as(browser)).twoStep.startTotp();
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.otpauth_uri).toMatch(/^otpauth:\/\/totp\/.*secret=[A-Z2-7]{32}/);
    expect(started.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(started.qr_code.split(',')[1]!, 'base64').toString()).toContain('<svg');
    const row = await db
      .selectFrom('user_totp')
      .selectAll()
      .where('user_id', '=', actor.userId)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(started.secret);
    expect(row.secret_sealed).toMatch(/^enc:v1:/);
    expect(openTotpSeed(config, actor.userId, row.secret_sealed)).toBe(started.secret);
    // Bound to its user: the same value does not open for another.
    expect(() => openTotpSeed(config, actor.userId + 1, row.secret_sealed)).toThrow();
    expect((await (await as(browser)).twoStep.status()).totp_enabled).toBe(false);

    expect(await codeOf((await as(browser)).twoStep.confirmTotp({ code: '000000' }))).toBe(
      'invalid_parameter',
    );
    const { recovery_codes } = await (await as(browser)).twoStep.confirmTotp({
      code: codeAt(started.secret),
    });
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    for (const c of recovery_codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await db
      .selectFrom('user_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', actor.userId)
      .execute();
    expect(stored).toHaveLength(10);
    for (const s of stored) expect(recovery_codes.join()).not.toContain(s.code_hash);
    expect(await (await as(browser)).twoStep.status()).toEqual({
      totp_enabled: true,
      recovery_codes_left: 10,
    });
    expect(await auditTypes(actor.userId)).toEqual(['user.second_step_failed', 'user.totp_enrolled']);
    // A second app cannot replace the first one without removing it.
    expect(await codeOf((await as(browser)).twoStep.startTotp())).toBe('invalid_request');
  });
});

describe('signing in with a second step', () => {
  it('asks for the code after the password at every sign-in; the code opens a session whose method is password+totp', async () => {
    const u = await enrolledUser();
    const { browser, token } = await firstStep(u.email, u.password);
    await h.caller(browser).auth.completeSecondStep({ token, code: codeAt(u.secret) });
    expect(browser.token).not.toBeNull();
    expect(await h.actorOf(browser)).toMatchObject({ userId: u.id });
    const list = await (await as(browser)).sessions.list();
    expect(list.find((s) => s.current)?.method).toBe('password+totp');
    // The challenge is single-use.
    clock.now = new Date(clock.now.getTime() + 30_000);
    expect(
      await codeOf(h.caller(newBrowser()).auth.completeSecondStep({ token, code: codeAt(u.secret) })),
    ).toBe('invalid_request');
  });

  it('refuses the replay of a used code (the last used time step is stored), even on a new sign-in', async () => {
    const u = await enrolledUser();
    const code = codeAt(u.secret);
    const first = await firstStep(u.email, u.password);
    await h.caller(first.browser).auth.completeSecondStep({ token: first.token, code });
    const again = await firstStep(u.email, u.password);
    expect(await codeOf(h.caller(again.browser).auth.completeSecondStep({ token: again.token, code }))).toBe(
      'invalid_parameter',
    );
    expect(again.browser.token).toBeNull();
    // An earlier code (the step before) is refused too once a later one was used.
    expect(
      await codeOf(
        h.caller(again.browser).auth.completeSecondStep({ token: again.token, code: codeAt(u.secret, -1) }),
      ),
    ).toBe('invalid_parameter');
    // The next step's code works.
    await h.caller(again.browser).auth.completeSecondStep({ token: again.token, code: codeAt(u.secret, 1) });
    expect(again.browser.token).not.toBeNull();
  });

  it('signs in with a recovery code once; its use is in the audit log and a second use is refused', async () => {
    const u = await enrolledUser();
    const code = u.recovery_codes[3]!;
    const first = await firstStep(u.email, u.password);
    await h
      .caller(first.browser)
      .auth.completeSecondStep({ token: first.token, code: ` ${code.toUpperCase()} ` });
    const list = await (await as(first.browser)).sessions.list();
    expect(list.find((s) => s.current)?.method).toBe('password+recovery_code');
    expect((await (await as(first.browser)).twoStep.status()).recovery_codes_left).toBe(9);
    expect(await auditTypes(u.id)).toContain('user.recovery_code_used');
    const again = await firstStep(u.email, u.password);
    expect(await codeOf(h.caller(again.browser).auth.completeSecondStep({ token: again.token, code }))).toBe(
      'invalid_parameter',
    );
  });

  it(`limits guessing like the email codes: a challenge takes ${SECOND_STEP_MAX_ATTEMPTS} wrong codes, then even the right one is refused; each failure is in the audit log`, async () => {
    const u = await enrolledUser();
    const { browser, token } = await firstStep(u.email, u.password);
    for (let i = 0; i < SECOND_STEP_MAX_ATTEMPTS; i++) {
      expect(await codeOf(h.caller(browser).auth.completeSecondStep({ token, code: '123456' }))).toBe(
        'invalid_parameter',
      );
    }
    expect(await codeOf(h.caller(browser).auth.completeSecondStep({ token, code: codeAt(u.secret) }))).toBe(
      'invalid_request',
    );
    expect(browser.token).toBeNull();
    const failures = (await auditTypes(u.id)).filter((t) => t === 'user.second_step_failed');
    expect(failures).toHaveLength(SECOND_STEP_MAX_ATTEMPTS);
  });

  it(`allows at most ${SECOND_STEP_FAILURES_PER_HOUR} wrong codes an hour per user over all challenges`, async () => {
    const u = await enrolledUser();
    for (let i = 0; i < SECOND_STEP_FAILURES_PER_HOUR; i++) {
      if (i % 2 === 0) clock.now = new Date(clock.now.getTime() + 61_000); // password attempts are limited per minute
      const { browser, token } = await firstStep(u.email, u.password);
      expect(await codeOf(h.caller(browser).auth.completeSecondStep({ token, code: '654321' }))).toBe(
        'invalid_parameter',
      );
    }
    clock.now = new Date(clock.now.getTime() + 61_000);
    const { browser, token } = await firstStep(u.email, u.password);
    expect(await codeOf(h.caller(browser).auth.completeSecondStep({ token, code: codeAt(u.secret) }))).toBe(
      'rate_limited',
    );
    clock.now = new Date(clock.now.getTime() + 3600_000);
    const later = await firstStep(u.email, u.password);
    await h.caller(later.browser).auth.completeSecondStep({ token: later.token, code: codeAt(u.secret) });
    expect(later.browser.token).not.toBeNull();
  });

  it('a challenge expires after 10 minutes', async () => {
    const u = await enrolledUser();
    const { browser, token } = await firstStep(u.email, u.password);
    clock.now = new Date(clock.now.getTime() + 10 * 60_000 + 1000);
    expect(await codeOf(h.caller(browser).auth.completeSecondStep({ token, code: codeAt(u.secret) }))).toBe(
      'invalid_request',
    );
  });

  it('a wrong password never reaches the second step', async () => {
    const u = await enrolledUser();
    expect(
      await codeOf(h.caller(newBrowser()).auth.signIn({ email: u.email, password: 'not it at all' })),
    ).toBe('unauthenticated');
  });
});

/** The token of the newest link of this kind emailed to an address (the emailing job runs first). */
async function emailedToken(email: string, kind: 'sign_in_link' | 'password_reset') {
  const jobCtx = {
    db,
    logger: createLogger('silent', 'test'),
    config,
    deps: createCoreDeps(config),
    now: () => clock.now,
  };
  await drainJobs(jobCtx, { [EMAIL_LINK_JOB]: jobHandlers[EMAIL_LINK_JOB] });
  const mail = await db
    .selectFrom('mail_outbox')
    .select('links')
    .where('to_address', '=', email)
    .where('kind', '=', kind)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return new URL(mail.links[0]!).hash.replace('#token=', '');
}

describe('no other first step skips the second', () => {
  it('an emailed sign-in link gives the challenge, not a session; the code then opens a link+totp session', async () => {
    const u = await enrolledUser();
    await h.caller(newBrowser()).auth.requestSignInLink({ email: u.email });
    const b = newBrowser();
    const r = await h.caller(b).auth.signInWithLink({ token: await emailedToken(u.email, 'sign_in_link') });
    expect(b.token).toBeNull();
    if (r.signed_in) throw new Error('expected a second step');
    await h.caller(b).auth.completeSecondStep({ token: r.second_step.token, code: codeAt(u.secret) });
    expect((await (await as(b)).sessions.list()).find((s) => s.current)?.method).toBe('link+totp');
  });

  it('a password reset sets the password but gives the challenge, not a session', async () => {
    const u = await enrolledUser();
    await h.caller(newBrowser()).auth.requestPasswordReset({ email: u.email });
    const b = newBrowser();
    const token = await emailedToken(u.email, 'password_reset');
    const r = await h.caller(b).auth.resetPassword({ token, password: 'a new long password' });
    expect(r.signed_in).toBe(false);
    expect(b.token).toBeNull();
    await firstStep(u.email, 'a new long password');
  });
});

describe('removing the app', () => {
  it('needs a fresh code or a recovery code: a wrong or replayed one is refused; removal is in the audit log and the next sign-in needs only the password', async () => {
    const u = await enrolledUser();
    const used = codeAt(u.secret);
    const s = await firstStep(u.email, u.password);
    await h.caller(s.browser).auth.completeSecondStep({ token: s.token, code: used });
    const c = await as(s.browser);
    expect(await codeOf(c.twoStep.removeTotp({ code: '999999' }))).toBe('invalid_parameter');
    expect(await codeOf(c.twoStep.removeTotp({ code: used }))).toBe('invalid_parameter');
    expect((await c.twoStep.status()).totp_enabled).toBe(true);
    await c.twoStep.removeTotp({ code: u.recovery_codes[0]! });
    expect(await c.twoStep.status()).toEqual({ totp_enabled: false, recovery_codes_left: 0 });
    expect(
      await db.selectFrom('user_recovery_codes').select('id').where('user_id', '=', u.id).execute(),
    ).toEqual([]);
    expect(await auditTypes(u.id)).toEqual(
      expect.arrayContaining(['user.totp_enrolled', 'user.recovery_code_used', 'user.totp_removed']),
    );
    const again = await signIn(h, u.email, u.password);
    expect(again.actor.userId).toBe(u.id);
  });

  it('renewing the recovery codes needs a fresh code; the old ones stop working', async () => {
    const u = await enrolledUser();
    const { recovery_codes } = await (await as(u.browser)).twoStep.renewRecoveryCodes({
      code: codeAt(u.secret),
    });
    expect(recovery_codes).toHaveLength(10);
    const s = await firstStep(u.email, u.password);
    expect(
      await codeOf(
        h.caller(s.browser).auth.completeSecondStep({ token: s.token, code: u.recovery_codes[0]! }),
      ),
    ).toBe('invalid_parameter');
    await h.caller(s.browser).auth.completeSecondStep({ token: s.token, code: recovery_codes[0]! });
    expect(s.browser.token).not.toBeNull();
  });
});

it('seals seeds with the server secret: another SECRET_KEY cannot open them', () => {
  const sealed = sealTotpSeed(config, 7, 'JBSWY3DPEHPK3PXP');
  expect(openTotpSeed(config, 7, sealed)).toBe('JBSWY3DPEHPK3PXP');
  expect(() =>
    openTotpSeed(dashboardConfig({ SECRET_KEY: 'another-server-secret-0123456789abcd' }), 7, sealed),
  ).toThrow();
});
