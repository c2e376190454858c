import { makeTemplate } from '@esign/testing/fixtures';
import { esign } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

// Each test spawns the real `esign` process several times; on a loaded 2-core machine one start
// takes seconds, so these tests get more than the default minute.
vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  env = { DATABASE_URL: t.dbUrl, PUBLIC_URL: t.baseUrl };
});
afterAll(() => t.close());

const json = (s: string) => JSON.parse(s.trim());

describe('esign command line (operations.md §3)', () => {
  it('migrate --json prints {"applied": [...]}', async () => {
    const r = await esign(['migrate', '--json'], env);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toEqual({ applied: [] });
  });

  it('account create, key create: the printed key works on GET /api/v1/me', async () => {
    const created = await esign(
      [
        'account',
        'create',
        '--email',
        'cli@example.com',
        '--name',
        'Cli User',
        '--account-name',
        'Acme',
        '--credits',
        '7',
        '--billing-country',
        'de',
        '--json',
      ],
      env,
    );
    expect(created.code).toBe(0);
    const out = json(created.stdout);
    expect(out).toEqual({
      account: { id: expect.any(Number), name: 'Acme' },
      user: { id: expect.any(Number), email: 'cli@example.com', name: 'Cli User' },
    });

    const key = await esign(
      ['key', 'create', '--email', 'cli@example.com', '--permission', 'read', '--name', 'CI', '--json'],
      env,
    );
    expect(key.code).toBe(0);
    const k = json(key.stdout);
    expect(k).toEqual({
      id: expect.any(Number),
      key: expect.stringMatching(/^svc_live_/),
      environment: 'live',
      permission: 'read',
      expires_at: null,
    });
    const me = await t.api('GET', 'me', { key: k.key });
    expect(me.status).toBe(200);
    expect(me.body.api_key).toEqual({ id: k.id, name: 'CI', permission: 'read', expires_at: null });
    expect((await t.api('GET', 'credits', { key: k.key })).body.available).toBe(7);

    const test = json(
      (await esign(['key', 'create', '--email', 'cli@example.com', '--env', 'test', '--json'], env)).stdout,
    );
    expect(test.key).toMatch(/^svc_test_/);

    const revoked = await esign(['key', 'revoke', '--id', String(k.id), '--json'], env);
    expect(json(revoked.stdout)).toEqual({ id: k.id, revoked_at: expect.any(String) });
    expect((await t.api('GET', 'me', { key: k.key })).status).toBe(401);
  });

  it('credits grant prints the Credits object; user create/update; account archive', async () => {
    await esign(['account', 'create', '--email', 'owner2@example.com', '--json'], env);
    const credits = json(
      (await esign(['credits', 'grant', '--email', 'owner2@example.com', '--credits', '5', '--json'], env))
        .stdout,
    );
    expect(credits).toMatchObject({
      object: 'credits',
      unlimited: false,
      available: 5,
      overdraft_limit: 0,
      can_send: true,
    });

    const acct = json(
      (
        await esign(
          ['account', 'create', '--email', 'boss@example.com', '--lifetime', '--overdraft', '-3', '--json'],
          env,
        )
      ).stdout,
    );
    const user = json(
      (
        await esign(
          [
            'user',
            'create',
            '--account-id',
            String(acct.account.id),
            '--email',
            'viewer@example.com',
            '--role',
            'viewer',
            '--json',
          ],
          env,
        )
      ).stdout,
    );
    expect(user.user).toMatchObject({
      email: 'viewer@example.com',
      role: 'viewer',
      account_id: acct.account.id,
    });
    const updated = json(
      (
        await esign(
          [
            'user',
            'update',
            '--email',
            'viewer@example.com',
            '--billing-country',
            'fr',
            '--name',
            'Vee',
            '--json',
          ],
          env,
        )
      ).stdout,
    );
    expect(updated.user).toMatchObject({ name: 'Vee', billing_country: 'FR' });

    const archived = json(
      (await esign(['account', 'archive', '--id', String(acct.account.id), '--json'], env)).stdout,
    );
    expect(archived).toEqual({ account: { id: acct.account.id, archived_at: expect.any(String) } });
  });

  it('mail list --json prints {"data": [...]} newest first', async () => {
    const r = await esign(['mail', 'list', '--limit', '5', '--json'], env);
    expect(r.code).toBe(0);
    expect(Array.isArray(json(r.stdout).data)).toBe(true);
  });

  it('issue 32: sms list [--to PHONE] [--limit N] --json prints {"data": [{id, to, text, links, status, created_at}]} newest first', async () => {
    const owner = await createTestAccount(t.db, { credits: 5 });
    const template = await makeTemplate(t, owner);
    const sent = [];
    for (const phone of ['+49 30 1234567', '+49 30 7654321', '0049 30 1234567']) {
      const res = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: { template_id: template.id, signers: [{ phone }] },
      });
      expect(res.status).toBe(201);
      sent.push(res.body.signers[0]);
    }
    const r = await esign(['sms', 'list', '--to', '+49 30 1234567', '--limit', '5', '--json'], env);
    expect(r.code).toBe(0);
    const { data } = json(r.stdout);
    expect(data.map((m: any) => m.links[0])).toEqual([sent[2].signing_url, sent[0].signing_url]);
    expect(data[0]).toMatchObject({
      id: expect.any(Number),
      to: '+49301234567',
      text: expect.stringContaining(sent[2].signing_url),
      status: 'kept',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(data[0].id).toBeGreaterThan(data[1].id);
    const one = json((await esign(['sms', 'list', '--limit', '1', '--json'], env)).stdout);
    expect(one.data).toHaveLength(1);
    const bad = await esign(['sms', 'list', '--to', '+1 555', '--json'], env);
    expect(json(bad.stdout).error.code).toBe('invalid_parameter');
  });

  it('failures print {"error":{code,message}} with --json and exit non-zero', async () => {
    const dup = await esign(['account', 'create', '--email', 'cli@example.com', '--json'], env);
    expect(dup.code).not.toBe(0);
    expect(json(dup.stdout)).toEqual({
      error: { code: 'invalid_parameter', message: expect.stringContaining('already exists') },
    });
    const missing = await esign(['key', 'create', '--json'], env);
    expect(json(missing.stdout).error.code).toBe('missing_parameter');
    const unknown = await esign(['frobnicate', '--json'], env);
    expect(unknown.code).not.toBe(0);
    expect(json(unknown.stdout).error.code).toBe('invalid_parameter');
    const nokey = await esign(['key', 'revoke', '--id', '999999', '--json'], env);
    expect(json(nokey.stdout).error.code).toBe('not_found');
  });

  it('a bad configuration value stops the command naming the variable', async () => {
    const r = await esign(['mail', 'list', '--json'], { ...env, RATE_LIMIT_PER_MINUTE: 'lots' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('RATE_LIMIT_PER_MINUTE');
  });
});
