import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
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
    expect(sealTrust(parseConfig({}), {})).toEqual({});
  });

  it('goes through the outbound guard: a loopback TSA is refused unless private addresses are allowed', async () => {
    const url = await serve((_req, res) => res.end('x'));
    const trust = sealTrust(parseConfig({ TSA_URL: url }), {});
    await expect(trust.timestampAuthority!.timestamp(digest, 'SHA-256')).rejects.toThrow(
      /time-stamping authority .* could not be reached: .*(private|loopback|not public|blocked)/i,
    );
  });

  it(`an answer larger than ${TRUST_MAX_BYTES} bytes is refused`, async () => {
    const url = await serve((_req, res) => res.end(Buffer.alloc(TRUST_MAX_BYTES + 1)));
    const trust = sealTrust(parseConfig({ TSA_URL: url, WEBHOOK_ALLOW_PRIVATE: 'true' }), {});
    await expect(trust.timestampAuthority!.timestamp(digest, 'SHA-256')).rejects.toThrow(
      /could not be reached/,
    );
  });

  it(`a TSA that never answers is abandoned after the time limit (${TRUST_TIMEOUT_MS} ms in production)`, async () => {
    const url = await serve(() => {});
    const trust = sealTrust(
      parseConfig({ TSA_URL: url, WEBHOOK_ALLOW_PRIVATE: 'true' }),
      {},
      { timeoutMs: 300 },
    );
    const started = Date.now();
    await expect(trust.timestampAuthority!.timestamp(digest, 'SHA-256')).rejects.toThrow(
      /could not be reached/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('an answer that is no timestamp response fails instead of being skipped', async () => {
    const url = await serve((_req, res) => res.end('not DER'));
    const trust = sealTrust(parseConfig({ TSA_URL: url, WEBHOOK_ALLOW_PRIVATE: 'true' }), {});
    await expect(trust.timestampAuthority!.timestamp(digest, 'SHA-256')).rejects.toThrow(
      /no DER|TimeStampResp|Object's schema/i,
    );
  });
});
