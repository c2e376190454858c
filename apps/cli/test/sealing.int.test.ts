import { Writable } from 'node:stream';
import { createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs, type JobContext, SEAL_JOB } from '@esign/core/testing';
import { makeTemplate } from '@esign/testing/fixtures';
import { PNG_DOT, sendRequest, tokenOf, trpc } from '@esign/testing/signing';
import { esign } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Each test spawns the real `esign` process several times; on a loaded 2-core machine one start
// takes seconds, so these tests get more than the default minute.
vi.setConfig({ testTimeout: 180_000 });

// A request whose sealing gave up is visible (error log, audit entry, `esign sealing failed`) and
// recoverable (`esign sealing retry --id N`) once the cause is fixed.

let t: TestApp;
let owner: TestAccount;
let env: Record<string, string>;
const logLines: any[] = [];
let jctx: JobContext;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 10 });
  env = { DATABASE_URL: t.dbUrl, PUBLIC_URL: t.baseUrl };
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  jctx = {
    db: t.db,
    logger: createLogger('warn', 'test', sink),
    config: t.config,
    deps: t.rt.deps,
    now: () => new Date(),
  };
});
afterAll(() => t.close());

const json = (s: string) => JSON.parse(s.trim());
const forRequest = (id: number) => (eb: any) =>
  eb(eb.ref('payload', '->>').key('requestId'), '=', String(id));

async function completedRequest(): Promise<number> {
  const tpl = await makeTemplate(t, owner);
  const res = await sendRequest(t, owner, {
    template_id: tpl.id,
    signers: [{ email: 'seal.me@example.com' }],
  });
  const signer = res.body.signers[0];
  const field = tpl.fields[0].name;
  const done = await trpc(t, 'complete', {
    token: tokenOf(signer.signing_url),
    values: { [field]: PNG_DOT },
  });
  if (done.error) throw new Error(done.error.message);
  return res.body.id;
}

const requestRow = (id: number) =>
  t.db.selectFrom('signature_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('esign sealing failed / esign sealing retry', () => {
  it('when sealing gives up: an error log, an audit entry, listed by `sealing failed`; `sealing retry` seals it once the cause is fixed', async () => {
    const id = await completedRequest();
    const row = await requestRow(id);
    const key = (row.snapshot as { documents: { storage_key: string }[] }).documents[0]!.storage_key;
    const original = await t.rt.deps.storage.get(key);
    await t.rt.deps.storage.delete(key);
    // The next attempt is the last one.
    await t.db
      .updateTable('jobs')
      .set({ attempts: 7 })
      .where('kind', '=', SEAL_JOB)
      .where(forRequest(id))
      .execute();
    await drainJobs(jctx, jobHandlers);
    const failed = await requestRow(id);
    expect(failed.sealing_status).toBe('failed');
    expect(failed.documents).toBeNull();

    const gaveUp = logLines.filter((l) => l.level === 50 && l.requestId === id);
    expect(gaveUp.map((l) => l.msg).join('\n')).toMatch(/esign sealing retry --id/);
    const audit = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('signature_request_id', '=', id)
      .where('type', '=', 'signature_request.sealing_failed')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_type: 'system',
      data: { attempts: 8, error: expect.any(String) },
    });

    const list = await esign(['sealing', 'failed', '--json'], env);
    expect(list.code).toBe(0);
    const listed = json(list.stdout).data.find((r: any) => r.id === id);
    expect(listed).toMatchObject({
      id,
      account_id: owner.accountId,
      environment: 'live',
      completed_at: expect.any(String),
      sealing_error: expect.stringMatching(/^attempt 8 of 8: /),
    });
    const text = await esign(['sealing', 'failed'], env);
    expect(text.stdout).toContain(`#${id}`);

    await t.rt.deps.storage.put(key, original, 'application/pdf');
    const retried = await esign(['sealing', 'retry', '--id', String(id), '--json'], env);
    expect(retried.code).toBe(0);
    expect(json(retried.stdout)).toEqual({ id, sealing_status: 'pending' });
    await drainJobs(jctx, jobHandlers);
    const sealed = await requestRow(id);
    expect(sealed.sealing_status).toBe('done');
    expect(sealed.documents).not.toBeNull();
    const api = await t.api('GET', `signature_requests/${id}`, { key: owner.key });
    expect(api.body.audit_trail_url).toEqual(expect.any(String));
    expect(
      json((await esign(['sealing', 'failed', '--json'], env)).stdout).data.map((r: any) => r.id),
    ).not.toContain(id);
  });

  it('retry of an unknown request is not_found; of a sealed one invalid_request; --id is required', async () => {
    const unknown = await esign(['sealing', 'retry', '--id', '999999', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(json(unknown.stdout).error.code).toBe('not_found');
    const id = await completedRequest();
    await drainJobs(jctx, jobHandlers);
    expect((await requestRow(id)).sealing_status).toBe('done');
    const done = await esign(['sealing', 'retry', '--id', String(id), '--json'], env);
    expect(done.code).toBe(1);
    expect(json(done.stdout).error.code).toBe('invalid_request');
    const missing = await esign(['sealing', 'retry', '--json'], env);
    expect(json(missing.stdout).error.code).toBe('missing_parameter');
  });
});
