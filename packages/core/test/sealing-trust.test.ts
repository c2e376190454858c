import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTimestampAuthority } from '../../pdf/src/index.ts';
import { parseConfig } from '../src/config.ts';
import { sealTrust, TRUST_MAX_BYTES, TRUST_TIMEOUT_MS } from '../src/services/sealing/trust.ts';

// TSA_URL and the trust services' limits (docs/verify.md, Levels; README, Configuration).

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
}

const digest = new Uint8Array(32).fill(7);

/** The TSA client a pool worker builds from the trust services, here with the guarded fetch itself. */
function tsaClient(trust: ReturnType<typeof sealTrust>) {
  if (!trust) throw new Error('no trust services');
  return createTimestampAuthority({ ...trust.tsa, fetch: trust.fetch });
}

describe('TSA_URL: the time-stamping authority of the seals', () => {
  it('is validated at start: an http(s) URL; credentials without TSA_URL are refused', () => {
    expect(() => parseConfig({ TSA_URL: 'ftp://tsa.example/' })).toThrow(/TSA_URL/);
    expect(() => parseConfig({ TSA_USERNAME: 'u' })).toThrow(/TSA_USERNAME/);
    expect(
      parseConfig({ TSA_URL: 'https://tsa.example/tsr', TSA_USERNAME: 'u', TSA_PASSWORD: 'p' }),
    ).toMatchObject({
      TSA_URL: 'https://tsa.example/tsr',
    });
  });

  it('unset: no trust services, the seal is B-B', () => {
    expect(sealTrust(parseConfig({}), {})).toBeUndefined();
  });

  it('set: the TSA and its credentials go to the pool worker as plain data, beside the guarded fetch', () => {
    const trust = sealTrust(
      parseConfig({ TSA_URL: 'https://tsa.example/tsr', TSA_USERNAME: 'u', TSA_PASSWORD: 'p' }),
      {},
    );
    expect(trust?.tsa).toEqual({ url: 'https://tsa.example/tsr', username: 'u', password: 'p' });
    expect(structuredClone(trust?.tsa)).toEqual(trust?.tsa);
    expect(trust?.fetch).toBeTypeOf('function');
  });

  it('goes through the outbound guard: a loopback TSA is refused unless private addresses are allowed', async () => {
    const url = await serve((_req, res) => res.end('x'));
    const trust = sealTrust(parseConfig({ TSA_URL: url }), {});
    await expect(tsaClient(trust).timestamp(digest, 'SHA-256')).rejects.toThrow(
      /time-stamping authority .* could not be reached: .*(private|loopback|not public|blocked)/i,
    );
  });

  it(`an answer larger than ${TRUST_MAX_BYTES} bytes is refused`, async () => {
    const url = await serve((_req, res) => res.end(Buffer.alloc(TRUST_MAX_BYTES + 1)));
    const trust = sealTrust(parseConfig({ TSA_URL: url, WEBHOOK_ALLOW_PRIVATE: 'true' }), {});
    await expect(tsaClient(trust).timestamp(digest, 'SHA-256')).rejects.toThrow(/could not be reached/);
  });

  it(`a TSA that never answers is abandoned after the time limit (${TRUST_TIMEOUT_MS} ms in production)`, async () => {
    const url = await serve(() => {});
    const trust = sealTrust(
      parseConfig({ TSA_URL: url, WEBHOOK_ALLOW_PRIVATE: 'true' }),
      {},
      { timeoutMs: 300 },
    );
    const started = Date.now();
    await expect(tsaClient(trust).timestamp(digest, 'SHA-256')).rejects.toThrow(/could not be reached/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('an answer that is no timestamp response fails instead of being skipped', async () => {
    const url = await serve((_req, res) => res.end('not DER'));
    const trust = sealTrust(parseConfig({ TSA_URL: url, WEBHOOK_ALLOW_PRIVATE: 'true' }), {});
    await expect(tsaClient(trust).timestamp(digest, 'SHA-256')).rejects.toThrow(
      /no DER|TimeStampResp|Object's schema/i,
    );
  });
});
