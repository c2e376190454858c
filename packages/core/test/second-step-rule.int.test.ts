import type { Db } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appRouter } from '../src/app-router.ts';
import type { Actor } from '../src/context.ts';
import { authenticateSession, authenticateWebRequest } from '../src/services/sessions/sessions.ts';
import { procedureMeta } from '../src/trpc.ts';
import {
  accountWithPassword,
  type Browser,
  codeOf,
  cookieOf,
  dashboardConfig,
  type Harness,
  harness,
  newBrowser,
  PUBLIC_URL,
} from './dashboard-helpers.ts';

// Issue 45 item 2: an admin requires a second step of every member. A session opened without one
// may only set one up; no route skips it: tRPC procedures, the OAuth consent page (which reads the
// session with authenticateSession), a session opened before the rule was turned on.

let tdb: TestDatabase;
let db: Db;
let h: Harness;
const clock = { now: new Date('2031-05-01T10:00:00Z') };
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

const codeAt = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now.getTime() });

/** The actor the dashboard's tRPC adapter builds from this browser's cookie (a GET: no CSRF check). */
async function webActor(b: Browser): Promise<Actor | null> {
  const { actor } = await authenticateWebRequest(db, config, {
    method: 'GET',
    cookie: cookieOf(config, b.token!),
    csrfToken: undefined,
    origin: PUBLIC_URL,
    now: clock.now,
  });
  return actor;
}
const web = async (b: Browser) => h.caller(b, await webActor(b));

/** What the OAuth consent page sees of this browser. */
const consentSees = async (b: Browser) =>
  authenticateSession(db, config, { cookieHeader: cookieOf(config, b.token!), now: clock.now });

/** An account whose admin requires a second step, and a member without one. */
async function ruledAccount() {
  const acct = await accountWithPassword(db);
  const admin = newBrowser();
  await h.caller(admin).auth.signIn({ email: acct.admin.email, password: acct.admin.password });
  const member = await acct.addUser('member');
  return { acct, admin, member };
}

describe('the account rule', () => {
  it('only an admin turns it on; it is recorded in the audit log', async () => {
    const { acct, admin, member } = await ruledAccount();
    const mb = newBrowser();
    await h.caller(mb).auth.signIn({ email: member.email, password: member.password });
    expect(await codeOf((await web(mb)).twoStep.setAccountRule({ required: true }))).toBe('forbidden');
    await (await web(admin)).twoStep.setAccountRule({ required: true });
    expect(await (await web(mb)).twoStep.accountRule().catch(() => 'refused')).toBe('refused');
    const audit = await db
      .selectFrom('audit_events')
      .select(['type', 'actor_id'])
      .where('account_id', '=', acct.accountId)
      .where('type', '=', 'account.second_step_required')
      .execute();
    expect(audit).toEqual([{ type: 'account.second_step_required', actor_id: String(acct.admin.id) }]);
  });

  it('attack: a member without a second step gets a session that can only set one up: every other tRPC procedure refuses it (forbidden)', async () => {
    const { admin, member } = await ruledAccount();
    await (await web(admin)).twoStep.setAccountRule({ required: true });
    const mb = newBrowser();
    const r = await h.caller(mb).auth.signIn({ email: member.email, password: member.password });
    expect(r.signed_in).toBe(true);
    const c = await web(mb);
    expect((await c.auth.session()).session?.second_step_required).toBe(true);
    // auth.signOut would end the session this test goes on with.
    const allowed = new Set([
      'twoStep.status',
      'twoStep.startTotp',
      'twoStep.confirmTotp',
      'auth.signOut',
      // A passkey is a second step too: registering one is part of enrolment.
      'passkeys.list',
      'passkeys.startRegistration',
      'passkeys.finishRegistration',
    ]);
    const refused: string[] = [];
    const others: string[] = [];
    for (const p of procedureMeta(appRouter)) {
      if (allowed.has(p.path)) continue;
      let target: any = c;
      for (const part of p.path.split('.')) target = target[part];
      try {
        await target({});
        others.push(`${p.path}: succeeded`);
      } catch (err) {
        const code = await codeOf(Promise.reject(err)).catch(() => 'internal_error');
        if (code === 'forbidden') refused.push(p.path);
        else others.push(`${p.path}: ${code}`);
      }
    }
    expect(refused).toEqual(
      expect.arrayContaining(['templates.list', 'apiKeys.create', 'sessions.list', 'members.list']),
    );
    expect(refused.length).toBeGreaterThan(50);
    // What is not refused needs no signed-in user at all: the sign-in forms, the signing page,
    // public links and pages. Any procedure added later that needs one is refused by the same rule.
    const noActorNeeded =
      /^(auth\.|passkeys\.(startSignIn|signIn|startSecondStep|completeSecondStep)$|signing\.|links\.(open|start|confirm)$|billing\.(checkoutPage|answerCheckoutPage)$|documents\.verifyPublic$|recipients\.view$)/;
    expect(others.filter((line) => !noActorNeeded.test(line.split(':')[0]!))).toEqual([]);
    // The enrolment procedures answer.
    expect((await c.twoStep.status()).totp_enabled).toBe(false);
  });

  it('attack: the OAuth consent page sees no session for it (so it cannot approve an MCP connection), and neither does any other reader of the cookie', async () => {
    const { admin, member } = await ruledAccount();
    await (await web(admin)).twoStep.setAccountRule({ required: true });
    const mb = newBrowser();
    await h.caller(mb).auth.signIn({ email: member.email, password: member.password });
    expect(await consentSees(mb)).toBeNull();
    expect(await h.actorOf(mb)).toBeNull();
  });

  it('attack: a session opened before the rule was turned on is held to it too (no refresh keeps it alive)', async () => {
    const { acct, admin, member } = await ruledAccount();
    const mb = newBrowser();
    await h.caller(mb).auth.signIn({ email: member.email, password: member.password });
    expect(await (await web(mb)).templates.list({})).toBeDefined();
    await (await web(admin)).twoStep.setAccountRule({ required: true });
    expect(await codeOf((await web(mb)).templates.list({}))).toBe('forbidden');
    expect(await consentSees(mb)).toBeNull();
    // The admin's own password-only session too.
    expect(await codeOf((await web(admin)).templates.list({}))).toBe('forbidden');
    expect(acct.accountId).toBeGreaterThan(0);
  });

  it('leads the member through enrolment: once the app is confirmed the same session works, and the next sign-in asks for a code', async () => {
    const { admin, member } = await ruledAccount();
    await (await web(admin)).twoStep.setAccountRule({ required: true });
    const mb = newBrowser();
    await h.caller(mb).auth.signIn({ email: member.email, password: member.password });
    const c = await web(mb);
    const started = await c.twoStep.startTotp();
    await c.twoStep.confirmTotp({ code: codeAt(started.secret) });
    const after = await web(mb);
    expect((await after.auth.session()).session?.second_step_required).toBe(false);
    expect(await after.templates.list({})).toBeDefined();
    expect(await consentSees(mb)).not.toBeNull();
    expect((await after.sessions.list()).find((s) => s.current)?.method).toBe('password+totp');
    const again = await h
      .caller(newBrowser())
      .auth.signIn({ email: member.email, password: member.password });
    expect(again.signed_in).toBe(false);
  });

  it('turned off again, password-only sessions work as before', async () => {
    const { admin, member } = await ruledAccount();
    await (await web(admin)).twoStep.setAccountRule({ required: true });
    const mb = newBrowser();
    await h.caller(mb).auth.signIn({ email: member.email, password: member.password });
    expect(await codeOf((await web(mb)).templates.list({}))).toBe('forbidden');
    // The admin sets up their own app first (their session is held to the rule as well).
    const ac = await web(admin);
    const started = await ac.twoStep.startTotp();
    await ac.twoStep.confirmTotp({ code: codeAt(started.secret) });
    await (await web(admin)).twoStep.setAccountRule({ required: false });
    expect(await (await web(mb)).templates.list({})).toBeDefined();
  });
});
