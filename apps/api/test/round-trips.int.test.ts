import { makeRequest, makeTemplate } from '@esign/testing/fixtures';
import { cloneRow, recordStatements } from '@esign/testing/statements';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 16: a list or get costs a fixed number of statements whatever the page size (no query per
// row for created_by, folder, signers or the template's state), and authentication + the shared
// rate-limit window cost one statement together.

let t: TestApp;
let owner: TestAccount;
let templateId: number;
let requestId: number;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 10 });
  const tpl = await makeTemplate(t, owner, { folder: 'Sales' });
  templateId = tpl.id;
  requestId = (await makeRequest(t, owner)).id;
  // A dashboard user made them: created_by must be filled in for every row of a page.
  await sql`update templates set created_by_user_id = ${owner.userId} where account_id = ${owner.accountId}`.execute(
    t.db,
  );
  await sql`update signature_requests set created_by_user_id = ${owner.userId} where id = ${requestId}`.execute(
    t.db,
  );
  await cloneRow(t.db, 'templates', templateId, 120);
  await cloneRow(t.db, 'signature_requests', requestId, 120);
}, 120_000);
afterAll(() => t.close());

/** The statements one REST call sends, and its response. */
async function call(path: string) {
  const { result, statements } = await recordStatements(() => t.api('GET', path, { key: owner.key }));
  expect(result.status, result.text).toBe(200);
  return { body: result.body, statements };
}

describe('round trips per request (issue 16: at most ~3 statements whatever the page size)', () => {
  for (const limit of [1, 100]) {
    it(`GET /templates?limit=${limit}: authentication + rate limit in one statement, the page in one`, async () => {
      const { body, statements } = await call(`templates?limit=${limit}`);
      expect(body.data).toHaveLength(limit);
      expect(body.data.at(-1)).toMatchObject({
        folder: 'Sales',
        created_by: { id: owner.userId, email: owner.email },
      });
      expect(statements).toHaveLength(2);
      expect(statements[0]).toContain('rate_limit_windows');
    });

    it(`GET /signature_requests?limit=${limit}: the page and all its signers in two statements`, async () => {
      const { body, statements } = await call(`signature_requests?limit=${limit}`);
      expect(body.data).toHaveLength(limit);
      expect(body.data[0].created_by).toMatchObject({ id: owner.userId, email: owner.email });
      expect(body.data[0].signers[0]).toMatchObject({ email: 'fixture@example.com' });
      expect(statements).toHaveLength(3);
    });

    it(`GET /signature_requests?q=…&status=sent&limit=${limit}: filters add no statement`, async () => {
      const { body, statements } = await call(`signature_requests?q=fixture&status=sent&limit=${limit}`);
      expect(body.data).toHaveLength(limit);
      expect(statements).toHaveLength(3);
    });
  }

  it('GET /templates?folder=Sales: the folder filter is part of the list statement', async () => {
    const { body, statements } = await call('templates?folder=Sales&limit=5');
    expect(body.data).toHaveLength(5);
    expect(statements).toHaveLength(2);
    expect((await call('templates?folder=Nope')).body.data).toHaveLength(0);
  });

  it('GET /templates/{id}: the template with creator and folder, its fields, its documents (4 with auth)', async () => {
    const { body, statements } = await call(`templates/${templateId}`);
    expect(body).toMatchObject({ id: templateId, folder: 'Sales', created_by: { id: owner.userId } });
    expect(body.fields.length).toBeGreaterThan(0);
    expect(statements).toHaveLength(4);
  });

  it('GET /signature_requests/{id} and GET /signers/{id}: three statements each with auth', async () => {
    const request = await call(`signature_requests/${requestId}`);
    expect(request.body.created_by).toMatchObject({ id: owner.userId });
    expect(request.statements).toHaveLength(3);
    const signer = await call(`signers/${request.body.signers[0].id}`);
    expect(signer.body).toMatchObject({ object: 'signer', signature_request_id: requestId });
    expect(signer.statements).toHaveLength(3);
  });

  it('POST /signature_requests (issue 31): the template with its fields, documents and the credits in one statement locked FOR SHARE, the audit entry written by the statement of the event, the 201 built from the rows written: 7 statements in all, as the floor', async () => {
    const { result, statements } = await recordStatements(() =>
      t.api('POST', 'signature_requests', {
        key: owner.key,
        body: {
          template_id: templateId,
          signers: [{ name: 'Round Trip', email: 'round.trip@example.com' }],
          send_email: false,
        },
      }),
    );
    expect(result.status, result.text).toBe(201);
    expect(result.body).toMatchObject({
      template: { id: templateId },
      created_by: { id: owner.userId },
      signers: [{ email: 'round.trip@example.com', status: 'ready', signing_url: expect.any(String) }],
    });
    const templateReads = statements.filter((s) => /from "templates"/.test(s) && !/^insert/.test(s));
    expect(templateReads).toHaveLength(1);
    expect(templateReads[0]).toMatch(/for share$/);
    expect(templateReads[0]).toContain('template_fields');
    expect(templateReads[0]).toContain('template_documents');
    expect(templateReads[0]).toContain('credit_ledger');
    expect(statements.filter((s) => / for update/.test(s))).toEqual([]);
    // Auth 1; begin, template (+ fields, documents, credits, creator), request, signers, event +
    // audit + endpoints, commit; no read of the answer (issue 31: was 13, then 8).
    expect(statements).toHaveLength(7);
    expect(statements.filter((s) => s.includes('"audit_events"'))).toEqual([
      expect.stringMatching(
        /^with "recorded" as \(insert into "webhook_events".*"audited" as \(insert into "audit_events"/s,
      ),
    ]);
  });

  it('POST /signature_requests with an invitation: 16 statements in all; credits, the event and its endpoints, a job and its wake-up each one statement', async () => {
    const { result, statements } = await recordStatements(() =>
      t.api('POST', 'signature_requests', {
        key: owner.key,
        body: { template_id: templateId, signers: [{ name: 'Counted', email: 'counted@example.com' }] },
      }),
    );
    expect(result.status, result.text).toBe(201);
    expect(result.body.signers[0]).toMatchObject({ email: 'counted@example.com', status: 'sent' });
    // Auth 1; the transaction 8 (begin, template with fields, documents and credits, request,
    // signers with last_emailed_at, the request's brand (issue 44), mail, job + notify, event +
    // audit + endpoints, commit); the invitation sent after the commit 5; the signers read again
    // for the answer, 1 (they are `sent` now) (issue 16: was 25, issue 31: was 21, then 16, 15).
    expect(statements).toHaveLength(16);
    expect(statements.filter((s) => s.includes('credit_ledger'))).toHaveLength(1);
    expect(statements.filter((s) => s.includes('pg_notify'))).toEqual([
      expect.stringMatching(/^with written as \(insert into jobs/),
    ]);
    expect(statements.filter((s) => s.includes('webhook_e'))).toEqual([
      expect.stringMatching(/^with "recorded" as \(insert into "webhook_events".*from "webhook_endpoints"/s),
    ]);
  });
});
