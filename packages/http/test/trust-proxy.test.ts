import { createLogger, parseConfig } from '@esign/core';
import type { Db } from '@esign/db';
import { describe, expect, it } from 'vitest';
import { createHttpApp } from '../src/app.ts';

// Issue 29 item 1: request.ip (what every per-address limit and record uses) follows TRUST_PROXY.
// app.inject() connects from 127.0.0.1.

async function ipSeen(
  trustProxy: string | undefined,
  forwardedFor: string,
  remoteAddress = '127.0.0.1',
): Promise<string> {
  const config = parseConfig({ LOG_LEVEL: 'silent', TRUST_PROXY: trustProxy });
  // No route here reaches the database.
  const app = createHttpApp({ db: {} as Db, logger: createLogger('silent', 'test'), config });
  app.get('/ip', async (request) => ({ ip: request.ip }));
  try {
    const res = await app.inject({
      url: '/ip',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    return res.json().ip;
  } finally {
    await app.close();
  }
}

describe('TRUST_PROXY decides request.ip (issue 29 item 1)', () => {
  it('unset or false: the connecting address, whatever X-Forwarded-For says', async () => {
    expect(await ipSeen(undefined, '203.0.113.1')).toBe('127.0.0.1');
    expect(await ipSeen('false', '203.0.113.1')).toBe('127.0.0.1');
  });

  it('a hop count trusts that many proxies from the nearest: 1 takes the last forwarded address only', async () => {
    expect(await ipSeen('1', '198.51.100.7, 203.0.113.1')).toBe('203.0.113.1');
    expect(await ipSeen('2', '198.51.100.7, 203.0.113.1')).toBe('198.51.100.7');
  });

  it("a list of the proxies' addresses/CIDRs: forwarded addresses are believed only through them", async () => {
    expect(await ipSeen('127.0.0.1', '203.0.113.1')).toBe('203.0.113.1');
    expect(await ipSeen('127.0.0.0/8', '203.0.113.1')).toBe('203.0.113.1');
    // A spoofed entry before an untrusted hop is not believed.
    expect(await ipSeen('loopback', '198.51.100.7, 203.0.113.1')).toBe('203.0.113.1');
    expect(await ipSeen('10.0.0.0/8', '203.0.113.1')).toBe('127.0.0.1');
  });

  it('issue 41 item 6: any valid CIDR is taken, a /0 range (every address of its family) and IPv6 ranges included', async () => {
    expect(await ipSeen('0.0.0.0/0', '203.0.113.1')).toBe('203.0.113.1');
    expect(await ipSeen('0.0.0.0/0', '203.0.113.1', '198.51.100.200')).toBe('203.0.113.1');
    // An IPv4 range says nothing of IPv6 peers.
    expect(await ipSeen('0.0.0.0/0', '203.0.113.1', '2001:db8::5')).toBe('2001:db8::5');
    expect(await ipSeen('::/0', '203.0.113.1', '2001:db8::5')).toBe('203.0.113.1');
    expect(await ipSeen('::/0', '203.0.113.1', 'fe80::9')).toBe('203.0.113.1');
    expect(await ipSeen('2001:db8::/32', '203.0.113.1', '2001:db8:0:1::5')).toBe('203.0.113.1');
    expect(await ipSeen('2001:db8::/32', '203.0.113.1', '2001:db9::5')).toBe('2001:db9::5');
    expect(await ipSeen('10.0.0.0/8, ::1/128', '203.0.113.1', '::1')).toBe('203.0.113.1');
  });
});
