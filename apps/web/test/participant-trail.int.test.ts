import { createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { dashboardSession, fourParts, hostSigner, partsTemplate } from '@esign/testing/parts';
import { sendRequest, tokenOf, trpc } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pdfText,
  requireTool,
  signaturePng,
  tempDir,
  writeTemp,
} from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 47: the sealed audit trail names every participant's part, time and method.

let t: TestApp;
let owner: TestAccount;
const logger = createLogger('silent', 'test');

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
});
afterAll(() => t.close());

async function sealedTrail(requestId: number): Promise<string> {
  await drainJobs(
    { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
    jobHandlers,
  );
  const done = await t.api('GET', `signature_requests/${requestId}`, { key: owner.key });
  expect(done.body.audit_trail_url, done.text).toBeTruthy();
  const pdf = new Uint8Array(await (await fetch(done.body.audit_trail_url)).arrayBuffer());
  return pdfText(writeTemp(tempDir('parts'), `trail-${requestId}.pdf`, pdf)).replace(/\s+/g, ' ');
}

describe('issue 47: the sealed audit trail', () => {
  it('names the approver (approved), the viewer (confirmed having read), the signers, and the in-person signer with host and device', async () => {
    requireTool('pdftotext');
    const tpl = await partsTemplate(t, owner);
    const sent = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers: fourParts('trail'),
      send_email: false,
    });
    expect(sent.status, sent.text).toBe(201);
    const [mgr, reader, client, agent] = sent.body.signers;
    expect((await trpc(t, 'approve', { token: tokenOf(mgr.signing_url) })).error).toBeNull();
    expect((await trpc(t, 'acknowledge', { token: tokenOf(reader.signing_url) })).error).toBeNull();
    // The client signs in person on the host's tablet.
    const host = await hostSigner(t, await dashboardSession(t, owner), client.id, 'Tablet/2.0 (front desk)');
    const headers = { cookie: host.hostCookie!, 'user-agent': 'Tablet/2.0 (front desk)' };
    const values = { 'Client signature': signaturePng(), 'Client name': 'Cleo Client' };
    const c = await trpc(
      t,
      'complete',
      { token: tokenOf(client.signing_url), hosted: true, confirmed_name: 'Cleo Client', values },
      'mutation',
      headers,
    );
    expect(c.error).toBeNull();
    const a = await trpc(t, 'complete', {
      token: tokenOf(agent.signing_url),
      values: { 'Agent signature': signaturePng() },
    });
    expect(a.error).toBeNull();
    const text = await sealedTrail(sent.body.id);
    const section = (name: string, next: string | null) =>
      text.slice(text.indexOf(name), next ? text.indexOf(next, text.indexOf(name) + name.length) : undefined);
    const m = section('1. Mia Manager', '2. Rob Reader');
    // pdftotext reads the label column, then the value column: "Part … Approved" then "Approver #id".
    expect(m).toMatch(/Part Signer ID .* Approved Approver #\d+ /);
    const r = section('2. Rob Reader', '3. Cleo Client');
    expect(r).toMatch(/Part Signer ID .* Confirmed having read Viewer #\d+ /);
    const cs = section('3. Cleo Client', '4. Avi Agent');
    expect(cs).toMatch(/Part Signer ID .* Signed Signer #\d+ /);
    expect(cs).toContain(`In person on the device of User`);
    expect(cs).toContain(
      '(Tablet/2.0 (front desk)); signer present; identity confirmed by the host instead of a code',
    );
    expect(section('4. Avi Agent', 'Events')).toMatch(/Signed Signer #\d+ /);
    for (const type of [
      'signer.approved',
      'signer.viewed_confirmed',
      'signer.hosting_started',
      'signer.signed',
    ]) {
      expect(text).toContain(` ${type} `);
    }
  });
});
