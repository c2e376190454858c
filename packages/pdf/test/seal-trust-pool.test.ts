import { execFileSync } from 'node:child_process';
import { startTrustServices, type TrustServices } from '@esign/testing/trust-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  combineInPool,
  DocumentInputError,
  documentPoolStats,
  type PoolTrust,
  sealInPool,
} from '../src/ingest/index.ts';
import { inspectSignatures, type TrustFetch, TrustServiceError } from '../src/seal/index.ts';
import { requireTool, sourcePdf, tempDir, writeTemp } from './seal-helpers.ts';

// Issue 18: sealing with trust services (TSA_URL, PAdES B-LTA) runs in a worker process of the
// document pool like any other sealing. The worker cannot use the caller's outbound guard, so it
// asks the pool's process for every TSA / OCSP / CRL exchange over the pool's IPC
// (isolate.ts, answerFetch); the pool's time limit does not count those waits, each exchange has
// a limit of its own.

let services: TrustServices;
let identity: { dataDir: string; p12: Uint8Array; password: string };

beforeAll(async () => {
  services = await startTrustServices();
  identity = { dataDir: tempDir('seal-pool'), p12: services.leafP12, password: services.leafP12Password };
}, 60_000);

afterAll(async () => {
  await services?.close();
});

interface Exchange {
  path: string;
  /** Documents of the test's account running in the pool when the exchange was asked for. */
  running: number;
}

/** The caller's fetch (the service passes its guarded fetch): plain fetch, recording each exchange. */
function recordingFetch(tenant: string, seen: Exchange[], delayTsaMs = 0): TrustFetch {
  return async (url, init) => {
    const path = new URL(url).pathname;
    seen.push({ path, running: documentPoolStats().runningByKey[tenant] ?? 0 });
    if (path === '/tsa' && delayTsaMs) await new Promise((r) => setTimeout(r, delayTsaMs));
    const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body as BodyInit });
    return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) };
  };
}

const trustOf = (fetch: TrustFetch, tsa: Partial<PoolTrust['tsa']> = {}): PoolTrust => ({
  tsa: { url: services.tsaUrl, ...tsa },
  fetch,
});

const hitsNow = () => ({ ...services.hits });
const hitsSince = (before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(services.hits)
      .map(([k, n]) => [k, n - (before[k] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );

describe('sealing with trust services in the document pool (issue 18)', () => {
  it('runs in a pool worker: every TSA / OCSP / CRL exchange is made by the caller’s fetch while the document runs there, the file is B-LTA, pdfsig reports it valid, and the TSA’s time comes back', {
    timeout: 120_000,
  }, async () => {
    requireTool('pdfsig');
    const seen: Exchange[] = [];
    const before = hitsNow();
    const started = new Date();
    const sealed = await sealInPool(
      await sourcePdf(2),
      { values: [], identity, name: 'pooled' },
      { tenant: 'acct-trust', trust: trustOf(recordingFetch('acct-trust', seen)) },
    );
    // Two timestamps (signature, document), at least one OCSP answer and the root's CRL, all of
    // them through the caller's fetch: the loopback services saw no request it did not make.
    const paths = seen.map((e) => e.path);
    expect(paths.filter((p) => p === '/tsa')).toHaveLength(2);
    expect(paths).toContain('/ocsp');
    expect(paths).toContain('/root.crl');
    const counted = Object.fromEntries(
      [...new Set(paths)].map((p) => [p, paths.filter((x) => x === p).length]),
    );
    expect(hitsSince(before)).toEqual(counted);
    // Each exchange was asked for while the account's document was running in the pool.
    expect(seen.every((e) => e.running === 1)).toBe(true);
    expect(documentPoolStats().runningByKey['acct-trust']).toBeUndefined();

    const checks = await inspectSignatures(sealed.pdf);
    expect(checks.map((c) => [c.kind, c.valid, c.level])).toEqual([
      ['certification', true, 'B-LTA'],
      ['document_timestamp', true, null],
    ]);
    expect(sealed.timestampTime).toBeInstanceOf(Date);
    // The TSA's clock and this one agree to the second (openssl ts on the same machine).
    expect(sealed.timestampTime!.getTime()).toBeGreaterThanOrEqual(started.getTime() - 2_000);
    expect(sealed.timestampTime!.getTime()).toBeLessThanOrEqual(Date.now() + 2_000);
    expect(sealed.timestampTime!.getTime()).toBeGreaterThanOrEqual(
      new Date(checks[0]!.timestampTime!).getTime() - 1_000,
    );
    const sig = execFileSync('pdfsig', [writeTemp(tempDir('seal-pool-out'), 'pooled.pdf', sealed.pdf)], {
      encoding: 'utf8',
    });
    expect(sig).toMatch(/Signature #1:[\s\S]*Signature Validation: Signature is Valid\./);
    expect(sig).toContain('Signer Certificate Common Name: Test Sealing Leaf');
  });

  it('the time limit does not count the waits on the network: a TSA slower than the pool’s whole time limit still gets the document sealed', {
    timeout: 120_000,
  }, async () => {
    const seen: Exchange[] = [];
    const started = Date.now();
    // Two TSA answers of 4 s each: 8 s of waiting against a 6 s limit, which would have ended the
    // worker if the wait counted.
    const sealed = await sealInPool(
      await sourcePdf(1),
      { values: [], identity, name: 'slow-tsa' },
      {
        tenant: 'acct-slow',
        limits: { timeoutMs: 6_000 },
        trust: trustOf(recordingFetch('acct-slow', seen, 4_000)),
      },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(8_000);
    expect((await inspectSignatures(sealed.pdf))[0]!.level).toBe('B-LTA');
  });

  it('an exchange that never answers is given up after the time limit: the seal fails with the reason, no file', {
    timeout: 60_000,
  }, async () => {
    const never: TrustFetch = () => new Promise(() => {});
    const started = Date.now();
    const err = await sealInPool(
      await sourcePdf(1),
      { values: [], identity, name: 'stuck' },
      { tenant: 'acct-stuck', limits: { timeoutMs: 4_000 }, trust: trustOf(never) },
    ).catch((e: Error) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(
      /time-stamping authority at .* could not be reached: no answer within 4000 ms/,
    );
    expect(documentPoolStats().runningByKey['acct-stuck']).toBeUndefined();
  });

  it('the caller’s refusal (the outbound guard) fails the seal with its reason, never a seal without timestamp', async () => {
    const refuse: TrustFetch = async (url) => {
      throw new Error(`${new URL(url).hostname} is a private address`);
    };
    await expect(
      sealInPool(
        await sourcePdf(1),
        { values: [], identity, name: 'refused' },
        { tenant: 'acct-refused', trust: trustOf(refuse) },
      ),
    ).rejects.toThrow(
      /time-stamping authority at .* could not be reached: 127\.0\.0\.1 is a private address/,
    );
  }, 60_000);

  it('TSA credentials cross to the worker as data and reach the TSA as HTTP Basic; a refusal does not repeat the password', {
    timeout: 120_000,
  }, async () => {
    services.tsaCredentials = 'tsa-user:s3cret-pass';
    try {
      const fetch = recordingFetch('acct-basic', []);
      const wrong = await sealInPool(
        await sourcePdf(1),
        { values: [], identity, name: 'basic' },
        { tenant: 'acct-basic', trust: trustOf(fetch, { username: 'tsa-user', password: 'wrong-pass' }) },
      ).catch((e: Error) => e);
      expect((wrong as Error).message).toMatch(/answered HTTP 401/);
      expect((wrong as Error).message).not.toContain('wrong-pass');
      const sealed = await sealInPool(
        await sourcePdf(1),
        { values: [], identity, name: 'basic' },
        { tenant: 'acct-basic', trust: trustOf(fetch, { username: 'tsa-user', password: 's3cret-pass' }) },
      );
      expect((await inspectSignatures(sealed.pdf))[0]!.level).toBe('B-LTA');
    } finally {
      services.tsaCredentials = null;
    }
  });

  it('a trust service failing in a worker is a TrustServiceError, never a document error (which would leave the combined file out and seal without it)', {
    timeout: 120_000,
  }, async () => {
    const fetch = recordingFetch('acct-down', []);
    const sealed = await sealInPool(
      await sourcePdf(1),
      { values: [], identity, name: 'one' },
      { tenant: 'acct-down', trust: trustOf(fetch) },
    );
    services.fail['/tsa'] = 503;
    try {
      const err = await combineInPool([sealed.pdf], identity, 'both', {
        tenant: 'acct-down',
        trust: trustOf(fetch),
      }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(TrustServiceError);
      expect(err).not.toBeInstanceOf(DocumentInputError);
      expect((err as Error).message).toMatch(/^The time-stamping authority at .* answered HTTP 503$/);
    } finally {
      delete services.fail['/tsa'];
    }
    const combined = await combineInPool([sealed.pdf], identity, 'both', {
      tenant: 'acct-down',
      trust: trustOf(fetch),
    });
    expect(combined.timestampTime).toBeInstanceOf(Date);
    expect((await inspectSignatures(combined.pdf))[0]!.level).toBe('B-LTA');
  });

  it('without trust services the seal is B-B and no exchange is asked for', async () => {
    const before = hitsNow();
    const sealed = await sealInPool(await sourcePdf(1), { values: [], identity, name: 'plain' });
    expect(sealed.timestampTime).toBeNull();
    expect((await inspectSignatures(sealed.pdf))[0]!.level).toBe('B-B');
    expect(hitsSince(before)).toEqual({});
  }, 60_000);
});
