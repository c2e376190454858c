import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { type AppProcess, isReady, sleep, spawnApp, until } from '@esign/testing/processes';
import { requirement } from '@esign/testing/requirements';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, type TestAccount } from '../../../test/harness.ts';

// Issue 41 item 1: a crash right after a send commits must never send it twice under the same
// Idempotency-Key, and no clock but the database's decides a lease. Each round starts an API
// process, sends new keys at it from several clients, and kills it with SIGKILL at a random
// moment (before, during or after a send's commit, before or after its answer is stored). At the
// end every key is retried until it gets its 201: each key made exactly one signature request,
// and the answer every retry gets names that request. The second test does the same while a
// second API process, whose clock runs 60 s ahead (libfaketime, LD_PRELOAD), takes the same keys.
// On the database of the project (the embedded one, and TEST_DATABASE_URL's under CI: this file
// is in vitest.config.ts EMBEDDED).

const ROUNDS = 20;
const FAKETIME_LIBS = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
];
const faketimeLib = FAKETIME_LIBS.find((p) => existsSync(p)) ?? FAKETIME_LIBS[0]!;
const hasFaketime = requirement('libfaketime', existsSync(faketimeLib), 'apt-get install -y faketime');

const env = {
  SECRET_KEY: 'idempotency-chaos-test-secret-0123456789abcdef',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-idem-chaos-')),
  RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'error',
};

let tdb: TestDatabase;
let owner: TestAccount;
let templateId: number;
const running: AppProcess[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  owner = await createTestAccount(tdb.db, { credits: 1000 });
  const api = await start();
  const res = await fetch(`${api.base}/api/v1/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Chaos',
      documents: [{ file: b64(await plainPdf(1)) }],
      fields: [signatureField()],
    }),
  });
  expect(res.status).toBe(201);
  templateId = ((await res.json()) as { id: number }).id;
  await api.stop();
}, 120_000);
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await tdb?.drop();
});

/** An API process on the test's database, ready; `extra` adds to its environment. */
async function start(extra: Record<string, string> = {}): Promise<AppProcess> {
  const p = await spawnApp('api', { ...env, DATABASE_URL: tdb.url, ...extra });
  running.push(p);
  await until(`${p.name} ready`, () => isReady(p.base), 60_000, 50);
  return p;
}

async function kill9(p: AppProcess): Promise<void> {
  p.child.kill('SIGKILL');
  await p.exited;
}

type Outcome = { status: number | 'network_error'; id?: number; replayed?: boolean; code?: string };

/** Keys sent, and every answer each got. */
function sender() {
  const answers = new Map<string, Outcome[]>();
  const send = async (base: string, key: string): Promise<Outcome> => {
    let out: Outcome;
    try {
      const res = await fetch(`${base}/api/v1/signature_requests`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.key}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({
          template_id: templateId,
          signers: [{ name: 'Chaos', email: 'chaos@example.com', external_id: key }],
        }),
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await res.json().catch(() => null)) as { id?: number; error?: { code: string } } | null;
      out = {
        status: res.status,
        ...(res.status === 201 ? { id: body?.id } : { code: body?.error?.code }),
        replayed: res.headers.get('idempotent-replayed') === 'true',
      };
    } catch {
      out = { status: 'network_error' };
    }
    answers.get(key)!.push(out);
    return out;
  };
  return {
    answers,
    /** New keys sent (and each retried at once when it fails) to `bases` while `busy()` holds. */
    async load(bases: string[], busy: () => boolean) {
      while (busy()) {
        const key = crypto.randomUUID();
        answers.set(key, []);
        // The same key to every process at once: the processes race for it.
        await Promise.all(bases.map((b) => send(b, key)));
      }
    },
    /** Every key retried until it gets a 201 (a claim of a killed process lapses in 15 s). */
    async settle(base: string, deadline: number) {
      const keys = [...answers.keys()];
      const retry = async () => {
        for (let key = keys.pop(); key !== undefined; key = keys.pop()) {
          let last = await send(base, key);
          while (last.status !== 201 && Date.now() < deadline) {
            await sleep(250);
            last = await send(base, key);
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, retry));
    },
  };
}

/** Every key made exactly one request, and each 201 any try of it got names that request. */
async function expectExactlyOnce(answers: Map<string, Outcome[]>): Promise<void> {
  const rows = await tdb.db
    .selectFrom('signers')
    .select(['external_id', 'signature_request_id'])
    .where('external_id', 'in', [...answers.keys()])
    .execute();
  const made = new Map<string, number[]>();
  for (const r of rows)
    made.set(r.external_id!, [...(made.get(r.external_id!) ?? []), r.signature_request_id]);
  const twice = [...made].filter(([, ids]) => ids.length !== 1);
  expect(twice, 'keys that made more than one request').toEqual([]);
  for (const [key, outcomes] of answers) {
    const ids = made.get(key);
    expect(ids, `key ${key} made no request: ${JSON.stringify(outcomes)}`).toHaveLength(1);
    const named = outcomes.filter((o) => o.status === 201).map((o) => o.id);
    expect(named.length, `key ${key} never got its 201`).toBeGreaterThan(0);
    expect(new Set(named), `key ${key}: every 201 names its one request`).toEqual(new Set(ids));
    // Whatever failed failed as a retry is told to expect: the process gone, 409 while the claim
    // runs or lapses, or the retry that took over.
    for (const o of outcomes.filter((x) => x.status !== 201))
      expect(['network_error', 409, 500]).toContain(o.status);
  }
}

describe('Idempotency-Key under kill -9 (issue 41.1)', () => {
  it(`${ROUNDS} kills (SIGKILL at random points of an idempotent send load): every key ends with exactly one signature request, and every retry is answered with that request`, {
    timeout: 900_000,
  }, async () => {
    const s = sender();
    let killedMidSend = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const api = await start();
      let busy = true;
      const loads = Array.from({ length: 2 }, () => s.load([api.base], () => busy));
      await sleep(100 + Math.random() * 900);
      await kill9(api);
      busy = false;
      await Promise.all(loads);
      killedMidSend += [...s.answers.values()].filter((o) => o.at(-1)?.status === 'network_error').length;
    }
    const last = await start();
    await s.settle(last.base, Date.now() + 60_000);
    await expectExactlyOnce(s.answers);
    // The kills did land mid-request, and keys that were answered before the kill replay.
    expect(killedMidSend).toBeGreaterThan(0);
    const replays = [...s.answers.values()].filter((o) => o.some((x) => x.status === 201 && x.replayed));
    expect(replays.length).toBeGreaterThan(0);
    await last.stop();
  });

  it.runIf(hasFaketime)(
    `the same with a second API process whose clock runs 60 s ahead taking the same keys: no key is run twice (leases use the database clock)`,
    {
      timeout: 900_000,
    },
    async () => {
      const s = sender();
      const steady = await start();
      const skew = {
        LD_PRELOAD: faketimeLib,
        FAKETIME: '+60s',
        // Timers keep real time; only the wall clock is ahead.
        DONT_FAKE_MONOTONIC: '1',
      };
      // The skewed process does see its clock 60 s ahead.
      const probe = await start(skew);
      const dateHeader = Date.parse((await fetch(`${probe.base}/healthz`)).headers.get('date') ?? '');
      expect(dateHeader - Date.now()).toBeGreaterThan(50_000);
      await probe.stop();
      for (let round = 0; round < ROUNDS / 2; round++) {
        const ahead = await start(skew);
        let busy = true;
        const loads = Array.from({ length: 2 }, () => s.load([steady.base, ahead.base], () => busy));
        await sleep(200 + Math.random() * 1_300);
        await kill9(ahead);
        busy = false;
        await Promise.all(loads);
      }
      await s.settle(steady.base, Date.now() + 60_000);
      await expectExactlyOnce(s.answers);
      await steady.stop();
    },
  );
});
