import type { TestAccount } from '@esign/testing/accounts';
import { PNG_DOT } from '@esign/testing/signing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../src/jobs.ts';
import { claimJob } from '../src/services/jobs.ts';
import { AUTO_REMIND_JOB } from '../src/services/signature-requests/auto-reminders.ts';
import { drainJobs, runClaimedJob, runOneJob } from '../src/services/worker.ts';
import { type CoreHarness, codeOf, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// Issue 34.2: automatic reminders, run by the durable job queue with the rules of /remind.

let h: CoreHarness;
let owner: TestAccount;
let caller: Awaited<ReturnType<CoreHarness['as']>>;
let tpl: Awaited<ReturnType<typeof twoRoleTemplate>>;

const HOUR = 3_600_000;
const T0 = new Date('2030-01-07T09:00:00Z');
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 50 });
  h.clock.now = T0;
  caller = await h.as(owner.key);
  tpl = await twoRoleTemplate(caller);
});
afterAll(() => h?.close());

const signers = [
  { name: 'Cleo Client', email: 'cleo@example.com' },
  { name: 'Andy Agent', email: 'andy@example.com' },
];

async function send(extra: Record<string, unknown> = {}) {
  h.clock.now = T0;
  const r = await caller.signatureRequests.create({ template_id: tpl.id, signers, ...extra });
  await drainJobs(h.sc, jobHandlers);
  return r;
}

/** The automatic reminder emails of a request, per signer id. */
async function remindersOf(requestId: number): Promise<Record<number, number>> {
  const { rows } = await sql<{ signer_id: number; n: number }>`
    select m.signer_id, count(*)::int as n from mail_outbox m join signers s on s.id = m.signer_id
    where s.signature_request_id = ${requestId} and m.kind = 'reminder' group by m.signer_id`.execute(h.db);
  return Object.fromEntries(rows.map((r) => [r.signer_id, r.n]));
}

async function autoJobs(requestId: number) {
  const { rows } = await sql<{ status: string; run_at: Date }>`
    select status, run_at from jobs where kind = ${AUTO_REMIND_JOB}
    and (payload->>'signature_request_id')::int = ${requestId} order by id`.execute(h.db);
  return rows;
}

/** Runs every job due at `hours` after T0. */
async function runAt(hours: number) {
  h.clock.now = at(hours);
  await drainJobs(h.sc, jobHandlers);
}

describe('issue 34.2: reminders on POST /signature_requests', () => {
  it('issue 34.2: every_hours below 24 or above 720, max 0 or above 10, or an unknown key is 422 invalid_parameter', async () => {
    for (const reminders of [
      { every_hours: 1, max: 3 },
      { every_hours: 721, max: 3 },
      { every_hours: 72, max: 0 },
      { every_hours: 72, max: 11 },
      { every_hours: 72.5, max: 3 },
      { every_hours: 72, max: 3, at: 'noon' },
    ]) {
      expect(await codeOf(caller.signatureRequests.create({ template_id: tpl.id, signers, reminders }))).toBe(
        'invalid_parameter',
      );
    }
  });

  it('issue 34.2: without reminders the request is as the spec has it (no key, no job)', async () => {
    const r = await send();
    expect(r).not.toHaveProperty('reminders');
    expect(r).not.toHaveProperty('allow_delegation');
    expect(await autoJobs(r.id)).toEqual([]);
  });

  it('issue 34.2: every 72 h at most 3 per signer: the signer whose turn it is gets exactly 3, the waiting one none; audited as automatic by the system', async () => {
    const r = await send({ reminders: { every_hours: 72, max: 3 } });
    expect(r.reminders).toEqual({ every_hours: 72, max: 3 });
    const [first, second] = r.signers;
    expect((await autoJobs(r.id)).map((j) => [j.status, j.run_at.getTime()])).toEqual([
      ['queued', at(72).getTime()],
    ]);
    await runAt(71);
    expect(await remindersOf(r.id)).toEqual({});
    for (const hours of [72, 144, 216, 288, 360, 432]) await runAt(hours);
    expect(await remindersOf(r.id)).toEqual({ [first!.id]: 3 });
    const audit = await h.db
      .selectFrom('audit_events')
      .select(['type', 'actor_type', 'data'])
      .where('signature_request_id', '=', r.id)
      .where('type', '=', 'request.reminded')
      .execute();
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatchObject({
      actor_type: 'system',
      data: { signer_ids: [first!.id], automatic: true },
    });
    expect(second!.status).toBe('waiting');
  });

  it("issue 42.4: reminders go by each signer's channel every time: phone-only signers get all 3 by SMS, not only the first", async () => {
    const r = await send({
      reminders: { every_hours: 72, max: 3 },
      signers: [
        { name: 'Pia Phone', phone: '+49 30 1234567' },
        { name: 'Paul Phone', phone: '+49 30 7654321' },
      ],
    });
    const [first, second] = r.signers;
    for (const hours of [72, 144, 216, 288, 360, 432]) await runAt(hours);
    const { rows } = await sql<{ signer_id: number; n: number }>`
      select signer_id, count(*)::int as n from sms_outbox
      where signer_id in (${first!.id}, ${second!.id}) and kind = 'reminder' group by signer_id`.execute(
      h.db,
    );
    // The second waits for the first's turn (sequential): only the first is reminded.
    expect(rows).toEqual([{ signer_id: first!.id, n: 3 }]);
    expect(await remindersOf(r.id)).toEqual({});
  });

  it('issue 34.2: the next signer in a sequential order gets their own reminders once it is their turn, counted from their invitation', async () => {
    const r = await send({ reminders: { every_hours: 48, max: 1 } });
    const [first, second] = r.signers;
    await runAt(48);
    expect(await remindersOf(r.id)).toEqual({ [first!.id]: 1 });
    h.clock.now = at(50);
    await h.anonymous().signing.complete({
      token: tokenOf(first!.signing_url),
      values: { 'Client signature': PNG_DOT, 'Client name': 'Cleo' },
    });
    for (const hours of [96, 97, 144, 200]) await runAt(hours);
    expect(await remindersOf(r.id)).toEqual({ [first!.id]: 1, [second!.id]: 1 });
  });

  it('issue 34.2 (leftover): a waiting signer is not re-checked every every_hours; their schedule starts when their turn comes', async () => {
    const r = await send({ reminders: { every_hours: 48, max: 1 } });
    const [first, second] = r.signers;
    await runAt(48);
    expect(await remindersOf(r.id)).toEqual({ [first!.id]: 1 });
    // The first signer has had their one reminder and the second is waiting: no run is queued.
    expect((await autoJobs(r.id)).filter((j) => j.status === 'queued')).toEqual([]);
    h.clock.now = at(50);
    await h.anonymous().signing.complete({
      token: tokenOf(first!.signing_url),
      values: { 'Client signature': PNG_DOT, 'Client name': 'Cleo' },
    });
    // Their turn came at 50 h: the schedule is re-armed for 48 h after their invitation.
    const queued = (await autoJobs(r.id)).filter((j) => j.status === 'queued');
    expect(queued.map((j) => j.run_at.getTime())).toEqual([at(98).getTime()]);
    await runAt(97);
    expect(await remindersOf(r.id)).toEqual({ [first!.id]: 1 });
    await runAt(98);
    expect(await remindersOf(r.id)).toEqual({ [first!.id]: 1, [second!.id]: 1 });
  });

  it("issue 34 leftover (a): the dashboard reads a request's schedule, its next run and the reminders each signer got of max; another account's request is 404", async () => {
    const r = await send({ reminders: { every_hours: 72, max: 2 } });
    const [first, second] = r.signers;
    expect(await caller.reminders.schedule({ id: r.id })).toEqual({
      object: 'reminder_schedule',
      signature_request_id: r.id,
      reminders: { every_hours: 72, max: 2 },
      open: true,
      next_run_at: at(72).toISOString(),
      signers: [
        { id: first!.id, sent: 0 },
        { id: second!.id, sent: 0 },
      ],
    });
    await runAt(72);
    const after = await caller.reminders.schedule({ id: r.id });
    expect(after.next_run_at).toBe(at(144).toISOString());
    expect(after.signers).toEqual([
      { id: first!.id, sent: 1 },
      { id: second!.id, sent: 0 },
    ]);
    await runAt(144);
    // The first signer had their 2 and the second waits for their turn: nothing is scheduled.
    expect(await caller.reminders.schedule({ id: r.id })).toMatchObject({
      next_run_at: null,
      signers: [{ sent: 2 }, { sent: 0 }],
    });
    const other = await h.as((await h.account({ credits: 1 })).key);
    expect(await codeOf(other.reminders.schedule({ id: r.id }))).toBe('not_found');
  });

  it('issue 42: a completed or canceled request shows no next reminder (open false, next_run_at null) though its last run is still queued', async () => {
    const done = await send({ reminders: { every_hours: 72, max: 3 } });
    h.clock.now = at(1);
    for (const [signer, values] of [
      [done.signers[0]!, { 'Client signature': PNG_DOT, 'Client name': 'Cleo' }],
      [done.signers[1]!, { 'Agent signature': PNG_DOT }],
    ] as const)
      await h.anonymous().signing.complete({ token: tokenOf(signer.signing_url), values });
    const canceled = await send({ reminders: { every_hours: 72, max: 3 } });
    h.clock.now = at(1);
    await caller.signatureRequests.cancel({ id: canceled.id });
    for (const r of [done, canceled]) {
      expect(
        (await autoJobs(r.id)).some((j) => j.status === 'queued'),
        `request ${r.id}`,
      ).toBe(true);
      expect(await caller.reminders.schedule({ id: r.id })).toMatchObject({
        reminders: { every_hours: 72, max: 3 },
        open: false,
        next_run_at: null,
      });
    }
    expect((await caller.signatureRequests.get({ id: done.id })).status).toBe('completed');
  });

  it('issue 34.2: never after cancel, decline, completion or expiry, and never to uninvited signers (send_email false): the schedule ends', async () => {
    const canceled = await send({ reminders: { every_hours: 24, max: 5 } });
    h.clock.now = at(1);
    await caller.signatureRequests.cancel({ id: canceled.id });
    const expiring = await send({ reminders: { every_hours: 24, max: 5 }, expires_at: at(30).toISOString() });
    const unsent = await send({ reminders: { every_hours: 24, max: 5 }, send_email: false });
    for (const hours of [24, 48, 72]) await runAt(hours);
    expect(await remindersOf(canceled.id)).toEqual({});
    expect(await remindersOf(unsent.id)).toEqual({});
    expect(await remindersOf(expiring.id)).toEqual({ [expiring.signers[0]!.id]: 1 });
    for (const r of [canceled, expiring])
      expect((await autoJobs(r.id)).every((j) => j.status === 'done')).toBe(true);
    expect(await autoJobs(unsent.id)).toEqual([]);
  });

  it('issue 34.2: the hourly limit of /remind holds: a manual reminder just before moves the automatic one, which then finds nobody due for another every_hours', async () => {
    const r = await send({ reminders: { every_hours: 24, max: 3 } });
    h.clock.now = at(23.5);
    await caller.signatureRequests.remind({ id: r.id });
    await runAt(24);
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 1 });
    await runAt(24.6);
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 1 });
    await runAt(47.6);
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 2 });
  });

  it("issue 34.2: the account's default (dashboard) applies when a request names none; null opts out; an explicit schedule wins", async () => {
    const admin = await h.as(owner.key);
    await admin.reminders.setDefaults({ reminders: { every_hours: 96, max: 2 } });
    expect((await admin.reminders.defaults()).reminders).toEqual({ every_hours: 96, max: 2 });
    const defaulted = await send();
    const none = await send({ reminders: null });
    const own = await send({ reminders: { every_hours: 24, max: 1 } });
    expect([defaulted.reminders, none.reminders, own.reminders]).toEqual([
      { every_hours: 96, max: 2 },
      undefined,
      { every_hours: 24, max: 1 },
    ]);
    expect(await autoJobs(none.id)).toEqual([]);
    await admin.reminders.setDefaults({ reminders: null });
    expect((await send()).reminders).toBeUndefined();
  });
});

describe('issue 34.2: durable schedule: worker restarts and racing workers never send a reminder twice', () => {
  it('issue 34.2: two workers racing for the due job: one sends, the other finds nothing; a worker that lost its lease sends nothing when it wakes up', async () => {
    const r = await send({ reminders: { every_hours: 24, max: 2 } });
    h.clock.now = at(24);
    const ran = await Promise.all([
      runOneJob(h.sc, { [AUTO_REMIND_JOB]: jobHandlers[AUTO_REMIND_JOB] }, { workerId: 'worker-a' }),
      runOneJob(h.sc, { [AUTO_REMIND_JOB]: jobHandlers[AUTO_REMIND_JOB] }, { workerId: 'worker-b' }),
    ]);
    expect(ran.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    await drainJobs(h.sc, jobHandlers);
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 1 });

    // The next run: worker A claims it and stalls past its lease; worker B takes it over and sends.
    h.clock.now = at(48);
    const stalled = await claimJob(h.db, {
      workerId: 'worker-a',
      now: h.clock.now,
      kinds: [AUTO_REMIND_JOB],
      leaseMs: 1_000,
    });
    expect(stalled?.kind).toBe(AUTO_REMIND_JOB);
    h.clock.now = at(48.01);
    const taken = await claimJob(h.db, { workerId: 'worker-b', now: h.clock.now, kinds: [AUTO_REMIND_JOB] });
    expect(taken?.id).toBe(stalled!.id);
    await runClaimedJob(h.sc, jobHandlers, { job: taken! });
    await runClaimedJob(h.sc, jobHandlers, { job: stalled! });
    await drainJobs(h.sc, jobHandlers);
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 2 });
  });

  it('issue 34.2: a worker killed mid-schedule (claimed, never finished): after its lease a restarted worker sends the reminder once, and the schedule goes on to max', async () => {
    const r = await send({ reminders: { every_hours: 24, max: 3 } });
    await runAt(24);
    // The worker dies holding the second run: no renewal, no outcome.
    h.clock.now = at(48);
    const dead = await claimJob(h.db, {
      workerId: 'dead-worker',
      now: h.clock.now,
      kinds: [AUTO_REMIND_JOB],
    });
    expect(dead).not.toBeNull();
    await runAt(48.001); // the lease (30 s) still holds: nothing is sent
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 1 });
    await runAt(48.01); // lease over: the restarted worker takes the job
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 2 });
    // Only one run is ever queued for the request, and the dead claim can no longer finish it.
    expect((await autoJobs(r.id)).filter((j) => j.status === 'queued')).toHaveLength(1);
    await runClaimedJob(h.sc, jobHandlers, { job: dead! });
    for (const hours of [72.01, 96.01, 120.01]) await runAt(hours);
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 3 });
    // Nothing is left: the signer whose turn has not come is re-armed when it comes, not polled.
    const left = (await autoJobs(r.id)).filter((j) => j.status !== 'done');
    expect(left.map((j) => j.status)).toEqual([]);
    await runAt(400);
    expect(await remindersOf(r.id)).toEqual({ [r.signers[0]!.id]: 3 });
  });
});
