import type { Db } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../src/services/api-keys.ts';
import {
  accountWithPassword,
  codeOf,
  dashboardConfig,
  type Harness,
  harness,
  newBrowser,
  signIn,
  uniqueEmail,
} from './dashboard-helpers.ts';
import { startReceiver } from './webhook-receiver.ts';

// operations.md §5 roles, enforced in core for every caller: admin (everything, including keys,
// webhooks and billing), member (templates and requests), viewer (read only) → 403 forbidden;
// another account's ids → 404 not_found.

let tdb: TestDatabase;
let db: Db;
let h: Harness;
const clock = { now: new Date() };
const config = dashboardConfig();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  h = harness(db, config, clock);
});
afterAll(async () => tdb.drop());

async function team() {
  const acct = await accountWithPassword(db);
  const member = await acct.addUser('member');
  const viewer = await acct.addUser('viewer');
  const admin = await signIn(h, acct.admin.email, acct.admin.password);
  const asMember = await signIn(h, member.email, member.password);
  const asViewer = await signIn(h, viewer.email, viewer.password);
  return {
    acct,
    member,
    viewer,
    admin: h.caller(admin.browser, admin.actor),
    memberCaller: h.caller(asMember.browser, asMember.actor),
    viewerCaller: h.caller(asViewer.browser, asViewer.actor),
  };
}

describe('API keys are created and revoked in the dashboard, by admins', () => {
  it('an admin creates a key (secret shown once) that authenticates, and a revoked key gets 401', async () => {
    const t = await team();
    const issued = await t.admin.apiKeys.create({ environment: 'test', permission: 'read', name: 'CI' });
    expect(issued.key).toMatch(/^svc_test_/);
    const actor = await authenticateApiKey(db, `Bearer ${issued.key}`, new Date());
    expect(actor).toMatchObject({ environment: 'test', canWrite: false, userId: t.acct.admin.id });
    const list = await t.admin.apiKeys.list();
    const row = list.find((k) => k.id === issued.id)!;
    expect(row).toMatchObject({ name: 'CI', permission: 'read', environment: 'test', revoked_at: null });
    expect(JSON.stringify(list)).not.toContain(issued.key);
    await t.admin.apiKeys.revoke({ id: issued.id });
    expect(await codeOf(authenticateApiKey(db, `Bearer ${issued.key}`, new Date()))).toBe('unauthenticated');
  });

  it('an expiry in the past is refused', async () => {
    const t = await team();
    expect(
      await codeOf(
        t.admin.apiKeys.create({
          environment: 'live',
          permission: 'full',
          expires_at: '2001-01-01T00:00:00Z',
        }),
      ),
    ).toBe('invalid_parameter');
  });

  it('a member cannot manage keys (403 forbidden), nor can a viewer', async () => {
    const t = await team();
    for (const c of [t.memberCaller, t.viewerCaller]) {
      expect(await codeOf(c.apiKeys.create({ environment: 'live', permission: 'full' }))).toBe('forbidden');
      expect(await codeOf(c.apiKeys.list())).toBe('forbidden');
    }
    const key = await t.admin.apiKeys.create({ environment: 'live', permission: 'full' });
    expect(await codeOf(t.memberCaller.apiKeys.revoke({ id: key.id }))).toBe('forbidden');
  });

  it("another account's key id is 404 not_found", async () => {
    const t = await team();
    const other = await team();
    const key = await other.admin.apiKeys.create({ environment: 'live', permission: 'full' });
    expect(await codeOf(t.admin.apiKeys.revoke({ id: key.id }))).toBe('not_found');
    expect(await authenticateApiKey(db, `Bearer ${key.key}`, new Date())).toBeTruthy();
  });
});

describe('a viewer changes nothing', () => {
  it('templates, requests, members, webhooks and account settings are refused with 403 forbidden', async () => {
    const t = await team();
    expect(
      await codeOf(t.viewerCaller.templates.create({ documents: [{ file: 'JVBERi0=' }] } as never)),
    ).toBe('forbidden');
    expect(await codeOf(t.viewerCaller.signatureRequests.cancel({ id: 1 }))).toBe('forbidden');
    expect(await codeOf(t.viewerCaller.members.invite({ email: uniqueEmail('x'), role: 'member' }))).toBe(
      'forbidden',
    );
    expect(await codeOf(t.viewerCaller.webhookEndpoints.create({ url: 'https://example.com/hook' }))).toBe(
      'forbidden',
    );
    expect(await codeOf(t.viewerCaller.members.updateAccount({ name: 'Taken over' }))).toBe('forbidden');
    // Reading is fine.
    expect((await t.viewerCaller.members.list()).members).toHaveLength(3);
    expect((await t.viewerCaller.templates.list({})).data).toEqual([]);
  });

  it("a viewer's own sessions and password are still theirs to manage", async () => {
    const t = await team();
    expect(await t.viewerCaller.sessions.list()).toHaveLength(1);
    await t.viewerCaller.sessions.setEnvironment({ environment: 'test' });
  });

  it('a member may not manage members or webhooks', async () => {
    const t = await team();
    expect(await codeOf(t.memberCaller.members.invite({ email: uniqueEmail('x'), role: 'viewer' }))).toBe(
      'forbidden',
    );
    expect(await codeOf(t.memberCaller.members.changeRole({ id: t.viewer.id, role: 'admin' }))).toBe(
      'forbidden',
    );
    expect(await codeOf(t.memberCaller.webhookEndpoints.list())).toBe('forbidden');
  });
});

describe('members and invitations', () => {
  it('an admin invites by email with a role; the link lets the person join once and signs them in', async () => {
    const t = await team();
    const email = uniqueEmail('invitee');
    const inv = await t.admin.members.invite({ email, role: 'viewer' });
    expect(inv).toMatchObject({ email, role: 'viewer' });
    const mail = await db
      .selectFrom('mail_outbox')
      .select(['links', 'subject'])
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    const token = new URL(mail.links[0]!).hash.replace('#token=', '');
    expect(await h.caller(newBrowser()).auth.invitation({ token })).toMatchObject({
      email,
      role: 'viewer',
      account_name: 'Acme',
    });
    const b = newBrowser();
    await h.caller(b).auth.acceptInvitation({ token, name: 'Vera', password: 'viewer password' });
    expect(await h.actorOf(b)).toMatchObject({
      userEmail: email,
      userRole: 'viewer',
      accountId: t.acct.accountId,
    });
    expect(
      await codeOf(
        h.caller(newBrowser()).auth.acceptInvitation({ token, name: 'Again', password: 'pw pw pw pw' }),
      ),
    ).toBe('not_found');
    expect((await t.admin.members.list()).invitations).toEqual([]);
  });

  it('a withdrawn invitation no longer works', async () => {
    const t = await team();
    const email = uniqueEmail('invitee');
    const inv = await t.admin.members.invite({ email, role: 'member' });
    const mail = await db
      .selectFrom('mail_outbox')
      .select('links')
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    await t.admin.members.revokeInvitation({ id: inv.id });
    const token = new URL(mail.links[0]!).hash.replace('#token=', '');
    expect(await codeOf(h.caller(newBrowser()).auth.invitation({ token }))).toBe('not_found');
  });

  it('someone who already has an account cannot be invited', async () => {
    const t = await team();
    const other = await accountWithPassword(db);
    expect(await codeOf(t.admin.members.invite({ email: other.admin.email, role: 'member' }))).toBe(
      'invalid_parameter',
    );
    expect(await codeOf(t.admin.members.invite({ email: t.member.email, role: 'member' }))).toBe(
      'invalid_parameter',
    );
  });

  it('the last admin can be neither demoted nor removed', async () => {
    const t = await team();
    expect(await codeOf(t.admin.members.changeRole({ id: t.acct.admin.id, role: 'member' }))).toBe(
      'invalid_request',
    );
    expect(await codeOf(t.admin.members.remove({ id: t.acct.admin.id }))).toBe('invalid_request');
    await t.admin.members.changeRole({ id: t.member.id, role: 'admin' });
    await t.admin.members.changeRole({ id: t.acct.admin.id, role: 'member' });
  });

  it('a removed member loses their sessions and API keys at once', async () => {
    const t = await team();
    const b = await signIn(h, t.member.email, t.member.password);
    const key = await h.caller(b.browser, b.actor).templates.list({});
    expect(key.data).toEqual([]);
    const memberKey = await db
      .insertInto('api_keys')
      .values({
        account_id: t.acct.accountId,
        user_id: t.member.id,
        environment: 'live',
        permission: 'full',
        key_hash: 'x'.repeat(64),
        key_prefix: 'svc_live_xxxxxxx',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.admin.members.remove({ id: t.member.id });
    expect(await h.actorOf(b.browser)).toBeNull();
    const revoked = await db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', memberKey.id)
      .executeTakeFirstOrThrow();
    expect(revoked.revoked_at).not.toBeNull();
    expect((await t.admin.members.list()).members.map((m) => m.id)).not.toContain(t.member.id);
  });

  it("another account's member id is 404 not_found", async () => {
    const t = await team();
    const other = await team();
    expect(await codeOf(t.admin.members.changeRole({ id: other.member.id, role: 'admin' }))).toBe(
      'not_found',
    );
    expect(await codeOf(t.admin.members.remove({ id: other.member.id }))).toBe('not_found');
  });
});

describe('webhooks from the dashboard (admins)', () => {
  it('create, reveal and rotate the secret, send a test, see the delivery and retry it now', async () => {
    const t = await team();
    // The receiver fails the first request, then accepts.
    const receiver = await startReceiver({ reply: (_req, i) => (i === 0 ? 500 : 200) });
    try {
      const { endpoint, secret } = await t.admin.webhookEndpoints.create({
        url: receiver.url,
        headers: { 'X-Team': 'blue' },
      });
      receiver.secret = secret;
      expect((await t.admin.webhookEndpoints.revealSecret({ id: endpoint.id })).secret).toBe(secret);
      const rotated = await t.admin.webhookEndpoints.rotateSecret({ id: endpoint.id });
      expect(rotated.secret).not.toBe(secret);
      expect((await t.admin.webhookEndpoints.revealSecret({ id: endpoint.id })).secret).toBe(rotated.secret);
      receiver.secret = rotated.secret;
      const delivery = await t.admin.webhookEndpoints.test({ id: endpoint.id });
      expect(delivery).toMatchObject({
        status: 'failed',
        last_status_code: 500,
        event: { type: 'webhook.test' },
      });
      expect(receiver.requests[0]?.verified).toBe(true);
      expect(receiver.requests[0]?.headers['x-team']).toBe('blue');
      // webhook.test is never retried on its own; "retry now" still makes one more attempt.
      const again = await t.admin.webhookEndpoints.retryDelivery({ id: delivery.id });
      expect(again).toMatchObject({ id: delivery.id, status: 'succeeded', attempt_count: 2 });
      expect(again.attempts.map((a) => a.status_code)).toEqual([500, 200]);
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1]?.json.id).toBe(delivery.event.id);
      const log = await t.admin.webhookEndpoints.deliveries({ endpoint_id: endpoint.id });
      expect(log.data.map((d) => d.id)).toEqual([delivery.id]);
    } finally {
      await receiver.close();
    }
  });

  it("another account's endpoint and delivery ids are 404 not_found", async () => {
    const t = await team();
    const other = await team();
    const { endpoint } = await other.admin.webhookEndpoints.create({ url: 'http://127.0.0.1:9/hook' });
    expect(await codeOf(t.admin.webhookEndpoints.revealSecret({ id: endpoint.id }))).toBe('not_found');
    expect(await codeOf(t.admin.webhookEndpoints.rotateSecret({ id: endpoint.id }))).toBe('not_found');
    expect(await codeOf(t.admin.webhookEndpoints.test({ id: endpoint.id }))).toBe('not_found');
  });
});

describe('overview and request timeline', () => {
  it('the overview shows credits, waiting requests and recent activity of the session side', async () => {
    const t = await team();
    const o = await t.viewerCaller.dashboard.overview();
    expect(o).toMatchObject({ waiting_on_others: 0, active_templates: 0, recent_activity: [] });
    expect(o.credits).toMatchObject({ unlimited: false });
  });

  it("another account's request timeline is 404 not_found", async () => {
    const t = await team();
    expect(await codeOf(t.admin.dashboard.requestTimeline({ id: 999999 }))).toBe('not_found');
  });
});
