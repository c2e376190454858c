import { createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { createWebhookEndpoint } from '@esign/core/operator';
import { drainJobs } from '@esign/core/testing';
import { fourParts, partsTemplate } from '@esign/testing/parts';
import { sendRequest, tokenOf, trpc } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../packages/core/test/webhook-receiver.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 47: signer.approved, signer.rejected and signer.viewed_confirmed reach the endpoints that
// chose them, signed like every other event (spec, Events, Signature verification).

let t: TestApp;
let owner: TestAccount;
let receiver: Receiver;
let tplId: number;
const logger = createLogger('silent', 'test');

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  owner = await createTestAccount(t.db, { lifetime: true });
  tplId = (await partsTemplate(t, owner)).id;
  receiver = await startReceiver();
  const { secret } = await createWebhookEndpoint(
    t.db,
    { accountId: owner.accountId, environment: 'live' },
    {
      input: {
        url: receiver.url,
        events: ['signer.approved', 'signer.rejected', 'signer.viewed_confirmed', 'signer.declined'],
      },
      config: t.config,
      now: () => new Date(),
    },
  );
  receiver.secret = secret;
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const deliver = () =>
  drainJobs({ db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() }, jobHandlers);

describe('issue 47: the new webhook events', () => {
  it('signer.approved, signer.viewed_confirmed, then signer.rejected with signer.declined: signed, data the Signer with its kind and reason', async () => {
    const one = await sendRequest(t, owner, {
      template_id: tplId,
      signers: fourParts('hook1'),
      send_email: false,
    });
    expect((await trpc(t, 'approve', { token: tokenOf(one.body.signers[0].signing_url) })).error).toBeNull();
    expect(
      (await trpc(t, 'acknowledge', { token: tokenOf(one.body.signers[1].signing_url) })).error,
    ).toBeNull();
    const two = await sendRequest(t, owner, {
      template_id: tplId,
      signers: fourParts('hook2'),
      send_email: false,
    });
    const reject = await trpc(t, 'reject', {
      token: tokenOf(two.body.signers[0].signing_url),
      reason: 'Over budget',
    });
    expect(reject.error).toBeNull();
    await deliver();
    await receiver.waitFor(4, 20_000);
    const got = receiver.requests.map((r) => ({
      type: r.json.type,
      header: r.headers[`x-${t.config.WEBHOOK_SERVICE_NAME.toLowerCase()}-event`],
      verified: r.verified,
      signer: r.json.data.id,
      kind: r.json.data.kind,
      reason: r.json.data.decline_reason,
    }));
    const byType = (type: string) => got.filter((g) => g.type === type);
    expect(got.every((g) => g.verified && g.header === g.type)).toBe(true);
    expect(byType('signer.approved')).toEqual([
      expect.objectContaining({ signer: one.body.signers[0].id, kind: 'approver' }),
    ]);
    expect(byType('signer.viewed_confirmed')).toEqual([
      expect.objectContaining({ signer: one.body.signers[1].id, kind: 'viewer' }),
    ]);
    for (const type of ['signer.rejected', 'signer.declined']) {
      expect(byType(type)).toEqual([
        expect.objectContaining({ signer: two.body.signers[0].id, kind: 'approver', reason: 'Over budget' }),
      ]);
    }
  });
});
