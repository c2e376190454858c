import { createCaller, createContext, createLogger } from '@esign/core';
import { createAccount } from '@esign/core/operator';
import { sealTotpSeed } from '@esign/core/testing';
import { esign } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

// Issue 45: `esign user reset-2fa --email E` lets a locked-out user (an admin who lost their app
// and their recovery codes) sign in with their password again.

vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  env = { DATABASE_URL: t.dbUrl, PUBLIC_URL: t.baseUrl, DATA_DIR: t.config.DATA_DIR };
});
afterAll(() => t.close());

/** The first step of a dashboard sign-in, as the web adapter calls it. */
async function passwordStep(email: string, password: string) {
  const caller = createCaller(
    createContext({
      db: t.db,
      logger: createLogger('silent', 'test'),
      config: t.config,
      deps: t.rt.deps,
      actor: null,
      source: 'invite',
      ip: '192.0.2.9',
      userAgent: 'vitest',
      now: () => new Date(),
      web: { origin: t.baseUrl, setCookie: () => {}, clearCookie: () => {} },
    }),
  );
  return caller.auth.signIn({ email, password });
}

describe('esign user reset-2fa', () => {
  it('removes the authenticator app and recovery codes of a locked-out admin, ends their sessions, records it in the audit log; the password alone signs in again', async () => {
    const email = `locked-${Date.now()}@example.com`;
    const password = 'locked out admin 1';
    const { user, account } = await t.db
      .transaction()
      .execute((tx) =>
        createAccount(tx, { email, password, name: 'Lou', accountName: 'Locked' }, new Date()),
      );
    await t.db
      .insertInto('user_totp')
      .values({
        user_id: user.id,
        secret_sealed: sealTotpSeed(t.config, user.id, 'JBSWY3DPEHPK3PXP'),
        confirmed_at: new Date(),
      })
      .execute();
    await t.db
      .insertInto('user_recovery_codes')
      .values({ user_id: user.id, code_hash: 'x'.repeat(64) })
      .execute();
    expect((await passwordStep(email, password)).signed_in).toBe(false);

    const r = await esign(['user', 'reset-2fa', '--email', email, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      user: { id: user.id, email },
      second_step_removed: true,
      passkeys_removed: 0,
      signed_out_sessions: 0,
    });
    expect(
      await t.db.selectFrom('user_recovery_codes').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['type', 'actor_type'])
      .where('account_id', '=', account.id)
      .where('type', '=', 'user.totp_removed')
      .execute();
    expect(audit).toEqual([{ type: 'user.totp_removed', actor_type: 'system' }]);
    expect((await passwordStep(email, password)).signed_in).toBe(true);
  });

  it('removes a user’s passkeys too (a lost phone held them), recorded in the audit log', async () => {
    const email = `passkey-lost-${Date.now()}@example.com`;
    const { user, account } = await t.db
      .transaction()
      .execute((tx) =>
        createAccount(
          tx,
          { email, password: 'lost passkey 1', name: 'Pia', accountName: 'Lost' },
          new Date(),
        ),
      );
    await t.db
      .insertInto('user_passkeys')
      .values({
        user_id: user.id,
        credential_id: `cred-${user.id}`,
        public_key: Buffer.from([1, 2, 3]),
        name: 'Phone',
      })
      .execute();
    expect((await passwordStep(email, 'lost passkey 1')).signed_in).toBe(false);
    const r = await esign(['user', 'reset-2fa', '--email', email, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ second_step_removed: true, passkeys_removed: 1 });
    const audit = await t.db
      .selectFrom('audit_events')
      .select('type')
      .where('account_id', '=', account.id)
      .where('type', '=', 'user.passkey_removed')
      .execute();
    expect(audit).toHaveLength(1);
    expect((await passwordStep(email, 'lost passkey 1')).signed_in).toBe(true);
  });

  it('esign account sso-optional: an account that requires single sign-on (its provider down) lets passwords in again', async () => {
    const email = `sso-locked-${Date.now()}@example.com`;
    const password = 'sso locked out 1';
    const { account } = await t.db
      .transaction()
      .execute((tx) => createAccount(tx, { email, password, name: 'Sol', accountName: 'SSO' }, new Date()));
    await t.db
      .insertInto('account_sso')
      .values({
        account_id: account.id,
        issuer: 'https://idp.example.com',
        client_id: 'esign',
        client_secret_sealed: 'enc:v1:x.y.z',
        required: true,
      })
      .execute();
    expect(await passwordStep(email, password).catch((e: Error) => e.message)).toMatch(/single sign-on/);
    const r = await esign(['account', 'sso-optional', '--email', email, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ account_id: account.id, sso_required: false, changed: true });
    expect((await passwordStep(email, password)).signed_in).toBe(true);
  });

  it('an unknown email: exit status non-zero and the not_found error', async () => {
    const r = await esign(['user', 'reset-2fa', '--email', 'nobody-here@example.com', '--json'], env);
    expect(r.code).not.toBe(0);
    expect(JSON.parse(r.stdout).error.code).toBe('not_found');
  });
});
