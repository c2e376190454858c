import { describe, expect, it } from 'vitest';
import { createFairScheduler, DocumentPoolBusyError, type PoolLimits } from './isolate-pool.ts';

const limits = (l: Partial<PoolLimits> = {}): PoolLimits => ({
  size: 2,
  perKey: 1,
  maxQueued: 100,
  maxQueuedPerKey: 10,
  ...l,
});

/** Acquires for `key` and records the order in which slots were granted. */
function track(s: ReturnType<typeof createFairScheduler>, order: string[]) {
  return (key: string, label = key) =>
    s.acquire(key).then((release) => {
      order.push(label);
      return release;
    });
}

const tick = () => new Promise((r) => setImmediate(r));

describe('document pool scheduling (issue 9.6)', () => {
  it('never runs more than `size` documents at once, nor more than `perKey` of one key', async () => {
    const s = createFairScheduler(() => limits({ size: 3, perKey: 2 }));
    const order: string[] = [];
    const take = track(s, order);
    const a1 = await take('a', 'a1');
    const a2 = await take('a', 'a2');
    void take('a', 'a3'); // over a's cap: waits although a slot is free
    await tick();
    expect(order).toEqual(['a1', 'a2']);
    expect(s.stats()).toMatchObject({ running: 2, queued: 1, runningByKey: { a: 2 } });
    const b1 = await take('b', 'b1'); // the free slot goes to another key at once
    void take('b', 'b2'); // the pool is full
    await tick();
    expect(s.stats()).toMatchObject({ running: 3, queued: 2 });
    a1();
    await tick();
    // a's and b's waiting documents are both allowed and both keys run one: a started its last
    // one before b did, so a3 goes first.
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3']);
    a2();
    await tick();
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'b2']);
    b1();
  });

  it("a newcomer waits behind no other key's line: with the pool full, the next free slot goes to the key that ran least recently", async () => {
    const s = createFairScheduler(() => limits({ size: 2, perKey: 2 }));
    const order: string[] = [];
    const take = track(s, order);
    const a1 = await take('a', 'a1');
    const a2 = await take('a', 'a2');
    for (let i = 3; i <= 6; i++) void take('a', `a${i}`);
    void take('b', 'b1');
    await tick();
    a1();
    await tick();
    expect(order.at(-1)).toBe('b1');
    a2();
    await tick();
    expect(order.slice(-1)).toEqual(['a3']);
  });

  it('documents of one key run in the order they came', async () => {
    const s = createFairScheduler(() => limits({ size: 1 }));
    const order: string[] = [];
    const take = track(s, order);
    let release = await take('a', 'a1');
    const rest = ['a2', 'a3', 'a4'].map((l) => take('a', l));
    for (const p of rest) {
      release();
      release = await p;
    }
    release();
    expect(order).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(s.stats()).toMatchObject({ running: 0, queued: 0, runningByKey: {} });
  });

  it('over maxQueuedPerKey (one key) or maxQueued (all keys), a call fails at once with DocumentPoolBusyError; the waiting ones still run', async () => {
    const s = createFairScheduler(() => limits({ size: 1, maxQueuedPerKey: 2, maxQueued: 3 }));
    const running = await s.acquire('a');
    const waiting = [s.acquire('a'), s.acquire('a')];
    await expect(s.acquire('a')).rejects.toBeInstanceOf(DocumentPoolBusyError);
    waiting.push(s.acquire('b'));
    await expect(s.acquire('c')).rejects.toThrow(/3 documents are waiting/);
    expect(s.stats()).toMatchObject({ running: 1, queued: 3 });
    running();
    // b never ran, so it goes before a's line; then a's documents in order.
    (await waiting[2]!)();
    (await waiting[0]!)();
    (await waiting[1]!)();
    expect(s.stats()).toMatchObject({ running: 0, queued: 0, runningByKey: {} });
  });

  it('a release called twice frees one slot only', async () => {
    const s = createFairScheduler(() => limits({ size: 1 }));
    const r1 = await s.acquire('a');
    r1();
    r1();
    const r2 = await s.acquire('b');
    let third = false;
    void s.acquire('c').then(() => (third = true));
    await tick();
    expect(third).toBe(false);
    r2();
    await tick();
    expect(third).toBe(true);
  });
});
