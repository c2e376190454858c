import { createCaller, createContext, createLogger, type Metrics } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { createMetrics, drainJobs, type JobContext, SEAL_JOB } from '@esign/core/testing';
import { parseExposition, sampleValue } from '@esign/testing/metrics';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signaturePng } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 27, item 6: sealing failures are counted where the worker's sealing fails an attempt or
// gives up, with the job runs' outcomes beside them.

let t: TestApp;
let owner: TestAccount;
let metrics: Metrics;
let jctx: JobContext;
let shiftMs = 0;
const logger = createLogger('silent', 'test');

beforeAll(async () => {
  metrics = createMetrics({ restarts: 0 });
  t = await startTestApp({}, { metrics });
  owner = await createTestAccount(t.db, { lifetime: true });
  jctx = { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date(Date.now() + shiftMs) };
});
afterAll(() => t.close());

/** A one-signer request, signed: completed, its sealing job queued. */
async function completedRequest() {
  const tpl = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Metrics',
      documents: [{ name: 'Doc', file: b64(await plainPdf(1, 'Metrics page')) }],
      fields: [
        {
          name: 'Signature',
          type: 'signature',
          role: 'Client',
          areas: [{ page: 1, x: 0.1, y: 0.3, w: 0.4, h: 0.06 }],
        },
      ],
    },
  });
  expect(tpl.status, tpl.text).toBe(201);
  const sent = await t.api('POST', 'signature_requests', {
    key: owner.key,
    body: {
      template_id: tpl.body.id,
      signers: [{ role: 'Client', name: 'Cy Client', email: 'cy@example.com' }],
    },
  });
  expect(sent.status, sent.text).toBe(201);
  const token = new URL(sent.body.signers[0].signing_url).pathname.split('/').pop()!;
  const caller = createCaller(
    createContext({ db: t.db, logger, config: t.config, deps: t.rt.deps, source: 'link' }),
  );
  await caller.signing.complete({ token, values: { Signature: signaturePng() } });
  return sent.body.id as number;
}

const sample = async (name: string, labels: Record<string, string>) =>
  sampleValue(parseExposition(await metrics.exposition()), name, labels);

describe('sealing failures in the metrics (issue 27.6)', () => {
  it('a failed sealing attempt counts esign_sealing_failures_total{job="request.seal",outcome="retry"}; the last one outcome="failed"; the seal job runs by outcome', async () => {
    const id = await completedRequest();
    const row = await t.db
      .selectFrom('signature_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const key = (row.snapshot as { documents: { storage_key: string }[] }).documents[0]!.storage_key;
    await t.rt.deps.storage.delete(key);

    await drainJobs(jctx, jobHandlers);
    expect(await sample('esign_sealing_failures_total', { job: SEAL_JOB, outcome: 'retry' })).toBe(1);
    expect(await sample('esign_sealing_failures_total', { job: SEAL_JOB, outcome: 'failed' })).toBe(0);
    expect(await sample('esign_job_runs_total', { kind: SEAL_JOB, outcome: 'retry' })).toBe(1);

    // The last attempt gives up.
    await t.db.updateTable('jobs').set({ attempts: 7 }).where('kind', '=', SEAL_JOB).execute();
    shiftMs = 3_600_000;
    await drainJobs(jctx, jobHandlers);
    shiftMs = 0;
    expect(await sample('esign_sealing_failures_total', { job: SEAL_JOB, outcome: 'failed' })).toBe(1);
    expect(await sample('esign_job_runs_total', { kind: SEAL_JOB, outcome: 'failed' })).toBe(1);
    const after = await t.db
      .selectFrom('signature_requests')
      .select('sealing_status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after.sealing_status).toBe('failed');
  });
});
