import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertPublicUrl,
  cachingResolver,
  closeOutboundConnections,
  DNS_CACHE_MS,
  guardedFetch,
  OutboundBlockedError,
  OutboundHttpError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  type ResolveHost,
} from '../src/index.ts';
import { closedPort, type LoopbackServer, startLoopbackServer } from './loopback-server.ts';

const servers: LoopbackServer[] = [];
async function serve(...args: Parameters<typeof startLoopbackServer>): Promise<LoopbackServer> {
  const server = await startLoopbackServer(...args);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await closeOutboundConnections();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A resolver that never touches DNS: fixed answers per name. */
function fakeDns(table: Record<string, string[]>): ResolveHost & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const answer = table[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return Object.assign(resolve, { calls });
}

const noDns: ResolveHost = async (hostname) => {
  throw new Error(`DNS must not be consulted for ${hostname}`);
};

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const limits = { timeoutMs: 5_000, maxBytes: 1_000_000 };

describe('Delivery rules: webhook URLs must be public http:// or https:// addresses (assertPublicUrl)', () => {
  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'gopher://example.com/',
    'data:text/plain,hi',
    'javascript:alert(1)',
    'ws://example.com/',
  ])('rejects the protocol of %s', async (url) => {
    const error = await rejection(assertPublicUrl(url, { lookup: noDns }));
    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect(error).toMatchObject({ code: 'blocked', reason: 'protocol' });
  });

  it('applies allowedProtocols (https only)', async () => {
    const error = await rejection(
      assertPublicUrl('http://8.8.8.8/', { allowedProtocols: ['https:'], lookup: noDns }),
    );
    expect(error).toMatchObject({ reason: 'protocol' });
    await expect(
      assertPublicUrl('https://8.8.8.8/', { allowedProtocols: ['https:'] }),
    ).resolves.toMatchObject({
      addresses: ['8.8.8.8'],
    });
  });

  it.each(['not a url', '/relative/path', 'http://', 'http://exa mple.com/'])(
    'rejects the malformed URL %j',
    async (url) => {
      await expect(assertPublicUrl(url, { lookup: noDns })).rejects.toMatchObject({ reason: 'invalid_url' });
    },
  );

  it('rejects embedded credentials', async () => {
    await expect(assertPublicUrl('https://user:pw@8.8.8.8/', { lookup: noDns })).rejects.toMatchObject({
      reason: 'credentials',
    });
  });

  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://0x7f.0.0.1/', 'loopback'],
    ['http://127.1:8080/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://10.0.0.1/', 'private'],
    ['https://192.168.1.10/hook', 'private'],
    ['http://172.20.0.5/', 'private'],
    ['http://100.64.1.1/', 'cgnat'],
    ['http://169.254.10.10/', 'link-local'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fd12::1]/', 'unique-local'],
    ['http://[64:ff9b::a00:1]/', 'private'],
    ['http://[2002:c0a8:101::1]/', 'private'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://192.0.2.1/', 'documentation'],
  ])('rejects %s (%s) without consulting DNS', async (url, cls) => {
    const error = await rejection(assertPublicUrl(url, { lookup: noDns }));
    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect(error).toMatchObject({ reason: 'private_address', addressClass: cls });
  });

  it.each(['http://localhost/', 'http://LOCALHOST./', 'http://api.localhost:3000/'])(
    'rejects the loopback name %s without consulting DNS',
    async (url) => {
      await expect(assertPublicUrl(url, { lookup: noDns })).rejects.toMatchObject({
        reason: 'private_address',
      });
    },
  );

  it('rejects a host name when any one of its addresses is private', async () => {
    const lookup = fakeDns({ 'mixed.example.test': ['93.184.215.14', '2606:4700::1', '10.0.0.5'] });
    await expect(assertPublicUrl('https://mixed.example.test/', { lookup })).rejects.toMatchObject({
      reason: 'private_address',
      address: '10.0.0.5',
      addressClass: 'private',
    });
  });

  it('rejects a host name resolving to an IPv4-mapped loopback address', async () => {
    const lookup = fakeDns({ 'sneaky.example.test': ['::ffff:127.0.0.1'] });
    await expect(assertPublicUrl('https://sneaky.example.test/', { lookup })).rejects.toMatchObject({
      addressClass: 'loopback',
    });
  });

  it('accepts a host name whose addresses are all public and returns them', async () => {
    const lookup = fakeDns({ 'hooks.example.test': ['93.184.215.14', '2606:4700::1'] });
    const checked = await assertPublicUrl('https://hooks.example.test/in?x=1', { lookup });
    expect(checked.url.href).toBe('https://hooks.example.test/in?x=1');
    expect(checked.addresses).toEqual(['93.184.215.14', '2606:4700::1']);
  });

  it('reports a name that does not resolve as dns_error', async () => {
    const error = await rejection(assertPublicUrl('https://nowhere.example.test/', { lookup: fakeDns({}) }));
    expect(error).toBeInstanceOf(OutboundHttpError);
    expect(error).toMatchObject({ code: 'dns_error' });
    await expect(
      assertPublicUrl('https://empty.example.test/', { lookup: fakeDns({ 'empty.example.test': [] }) }),
    ).rejects.toMatchObject({ code: 'dns_error' });
  });

  it('WEBHOOK_ALLOW_PRIVATE allows loopback and private targets, but never cloud metadata', async () => {
    await expect(assertPublicUrl('http://127.0.0.1:3000/', { allowPrivate: true })).resolves.toMatchObject({
      addresses: ['127.0.0.1'],
    });
    await expect(
      assertPublicUrl('http://localhost:3000/', {
        allowPrivate: true,
        lookup: fakeDns({ localhost: ['::1'] }),
      }),
    ).resolves.toMatchObject({ addresses: ['::1'] });
    await expect(assertPublicUrl('http://169.254.169.254/', { allowPrivate: true })).rejects.toMatchObject({
      addressClass: 'metadata',
    });
  });

  it('allowedAddresses lets exactly the listed addresses and ranges through', async () => {
    const opts = { allowedAddresses: ['10.1.2.3', '192.168.50.0/24', 'fd12::/16'], lookup: noDns };
    await expect(assertPublicUrl('http://10.1.2.3/', opts)).resolves.toBeDefined();
    await expect(assertPublicUrl('http://192.168.50.77/', opts)).resolves.toBeDefined();
    await expect(assertPublicUrl('http://[fd12::9]/', opts)).resolves.toBeDefined();
    await expect(assertPublicUrl('http://10.1.2.4/', opts)).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(assertPublicUrl('http://192.168.51.1/', opts)).rejects.toBeInstanceOf(OutboundBlockedError);
  });
});

describe('guardedFetch: private targets are rejected again at delivery', () => {
  it('blocks a loopback server by default before connecting', async () => {
    const server = await serve((_req, res) => res.end('secret'));
    const error = await rejection(guardedFetch(`${server.origin}/`, limits));
    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect(error).toMatchObject({ reason: 'private_address', addressClass: 'loopback' });
    expect(server.connections).toBe(0);
  });

  it('blocks loopback written as decimal, octal, hex and IPv4-mapped IPv6', async () => {
    const server = await serve((_req, res) => res.end('secret'));
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.1', '[::ffff:127.0.0.1]']) {
      await expect(guardedFetch(`http://${host}:${server.port}/`, limits)).rejects.toBeInstanceOf(
        OutboundBlockedError,
      );
    }
    expect(server.connections).toBe(0);
  });

  it('reaches a loopback server with allowPrivate and returns status, headers, body and url', async () => {
    const server = await serve((req, res, body) => {
      res.setHeader('X-Echo-Method', req.method ?? '');
      res.setHeader('Content-Type', 'application/json');
      res.statusCode = 201;
      res.end(JSON.stringify({ body, custom: req.headers['x-custom'] }));
    });
    const result = await guardedFetch(`${server.origin}/in?x=1`, {
      ...limits,
      allowPrivate: true,
      method: 'POST',
      headers: { 'X-Custom': 'yes', 'Content-Type': 'application/json' },
      body: '{"hello":"world"}',
    });
    expect(result.status).toBe(201);
    expect(result.headers.get('x-echo-method')).toBe('POST');
    expect(JSON.parse(new TextDecoder().decode(result.body))).toEqual({
      body: '{"hello":"world"}',
      custom: 'yes',
    });
    expect(result.url).toBe(`${server.origin}/in?x=1`);
    expect(result.truncated).toBe(false);
    expect(server.requests[0]?.url).toBe('/in?x=1');
  });

  it('accepts a Uint8Array body', async () => {
    const server = await serve((_req, res, body) => res.end(body));
    const result = await guardedFetch(server.origin, {
      ...limits,
      allowPrivate: true,
      method: 'PUT',
      body: new Uint8Array([104, 105]),
    });
    expect(new TextDecoder().decode(result.body)).toBe('hi');
  });

  it('returns non-2xx answers as results, or throws bad_status with requireOk', async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 503;
      res.end('down');
    });
    const result = await guardedFetch(server.origin, { ...limits, allowPrivate: true });
    expect(result.status).toBe(503);
    const error = await rejection(
      guardedFetch(server.origin, { ...limits, allowPrivate: true, requireOk: true }),
    );
    expect(error).toBeInstanceOf(OutboundHttpError);
    expect(error).toMatchObject({ code: 'bad_status', status: 503 });
  });

  it('reports a refused connection as connection_error', async () => {
    const port = await closedPort();
    const error = await rejection(
      guardedFetch(`http://127.0.0.1:${port}/`, { ...limits, allowPrivate: true }),
    );
    expect(error).toBeInstanceOf(OutboundHttpError);
    expect(error).toMatchObject({ code: 'connection_error' });
  });

  it('refuses request headers that would break framing or inject lines', async () => {
    const server = await serve((_req, res) => res.end());
    const opts = { ...limits, allowPrivate: true };
    await expect(
      guardedFetch(server.origin, { ...opts, headers: { Host: 'internal' } }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(
      guardedFetch(server.origin, { ...opts, headers: { 'X-A': 'a\r\nX-B: b' } }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(
      guardedFetch(server.origin, { ...opts, headers: { 'Bad Name': 'x' } }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(server.connections).toBe(0);
  });
});

describe('guardedFetch: redirects are followed by hand and every hop is checked again', () => {
  it('follows relative and absolute redirects and reports the final URL', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/a') res.writeHead(301, { Location: '/b' }).end();
      else if (req.url === '/b') res.writeHead(307, { Location: `http://127.0.0.1:${server.port}/c` }).end();
      else res.end(`final ${req.url}`);
    });
    const result = await guardedFetch(`${server.origin}/a`, { ...limits, allowPrivate: true });
    expect(new TextDecoder().decode(result.body)).toBe('final /c');
    expect(result.url).toBe(`${server.origin}/c`);
    expect(server.requests.map((r) => r.url)).toEqual(['/a', '/b', '/c']);
  });

  it('turns POST into a body-less GET on 303 and keeps method and body on 307/308', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/see-other') res.writeHead(303, { Location: '/done' }).end();
      else if (req.url === '/temporary') res.writeHead(307, { Location: '/done' }).end();
      else res.end();
    });
    const post = {
      ...limits,
      allowPrivate: true,
      method: 'POST',
      body: 'payload',
      headers: { 'Content-Type': 'text/plain' },
    };
    await guardedFetch(`${server.origin}/see-other`, post);
    await guardedFetch(`${server.origin}/temporary`, post);
    const [, afterSeeOther, , afterTemporary] = server.requests;
    expect(afterSeeOther).toMatchObject({ method: 'GET', body: '' });
    expect(afterSeeOther?.headers['content-type']).toBeUndefined();
    expect(afterTemporary).toMatchObject({ method: 'POST', body: 'payload' });
  });

  it.each([
    ['a private address', 'http://10.0.0.1/internal', 'private_address'],
    ['another loopback address', 'http://127.0.0.2/', 'private_address'],
    ['the metadata service', 'http://169.254.169.254/latest/meta-data/', 'private_address'],
    ['an IPv4-mapped loopback', 'http://[::ffff:7f00:2]/', 'private_address'],
    ['localhost', 'http://localhost/', 'private_address'],
    ['a file URL', 'file:///etc/passwd', 'protocol'],
    ['an ftp URL', 'ftp://127.0.0.1/', 'protocol'],
  ])('blocks a redirect to %s', async (_name, location, reason) => {
    const server = await serve((req, res) => {
      if (req.url === '/start') res.writeHead(302, { Location: location }).end();
      else res.end('should not be reached');
    });
    // Only the first hop's exact address is allowed: a public-looking start that redirects inward.
    const error = await rejection(
      guardedFetch(`${server.origin}/start`, { ...limits, allowedAddresses: ['127.0.0.1'] }),
    );
    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect(error).toMatchObject({ reason });
    expect(server.requests.map((r) => r.url)).toEqual(['/start']);
  });

  it('blocks a redirect to a host name that resolves to a private address', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(302, { Location: 'http://internal.example.test/' }).end(),
    );
    const lookup = fakeDns({ 'internal.example.test': ['192.168.1.20'] });
    await expect(
      guardedFetch(`${server.origin}/`, { ...limits, allowedAddresses: ['127.0.0.1'], lookup }),
    ).rejects.toMatchObject({ reason: 'private_address', address: '192.168.1.20' });
  });

  it('re-applies the protocol rules on every hop', async () => {
    const server = await serve((_req, res) => res.writeHead(302, { Location: 'https://127.0.0.1/' }).end());
    await expect(
      guardedFetch(server.origin, { ...limits, allowPrivate: true, allowedProtocols: ['http:'] }),
    ).rejects.toMatchObject({ reason: 'protocol' });
  });

  it('reports a Location that is not a URL as invalid_redirect', async () => {
    const server = await serve((_req, res) => res.writeHead(302, { Location: 'http://[::1' }).end());
    await expect(guardedFetch(server.origin, { ...limits, allowPrivate: true })).rejects.toMatchObject({
      code: 'invalid_redirect',
      status: 302,
    });
  });

  it('stops after maxRedirects hops', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(302, { Location: `/r${server.requests.length}` }).end(),
    );
    const error = await rejection(
      guardedFetch(server.origin, { ...limits, allowPrivate: true, maxRedirects: 3 }),
    );
    expect(error).toBeInstanceOf(OutboundHttpError);
    expect(error).toMatchObject({ code: 'too_many_redirects', status: 302 });
    expect(server.requests).toHaveLength(4);
  });

  it('returns the redirect itself with maxRedirects 0', async () => {
    const server = await serve((_req, res) => res.writeHead(302, { Location: '/elsewhere' }).end());
    const result = await guardedFetch(server.origin, { ...limits, allowPrivate: true, maxRedirects: 0 });
    expect(result.status).toBe(302);
    expect(result.headers.get('location')).toBe('/elsewhere');
    expect(server.requests).toHaveLength(1);
  });

  it('drops Authorization and Cookie when a redirect changes origin, keeps them on the same origin', async () => {
    const other = await serve((_req, res) => res.end('other'));
    const server = await serve((req, res) => {
      if (req.url === '/same') res.writeHead(302, { Location: '/landing' }).end();
      else if (req.url === '/cross') res.writeHead(302, { Location: `${other.origin}/landing` }).end();
      else res.end();
    });
    const opts = {
      ...limits,
      allowPrivate: true,
      headers: { Authorization: 'Bearer t', Cookie: 'c=1', 'X-Keep': 'k' },
    };
    await guardedFetch(`${server.origin}/same`, opts);
    await guardedFetch(`${server.origin}/cross`, opts);
    expect(server.requests[1]?.headers).toMatchObject({ authorization: 'Bearer t', cookie: 'c=1' });
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.requests[0]?.headers.cookie).toBeUndefined();
    expect(other.requests[0]?.headers['x-keep']).toBe('k');
  });
});

describe('guardedFetch: the body size cap is enforced while streaming', () => {
  it('refuses a declared Content-Length above maxBytes before reading the body', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('Content-Length', String(26 * 1024 * 1024));
      res.write(Buffer.alloc(1024));
    });
    const error = await rejection(
      guardedFetch(server.origin, { ...limits, allowPrivate: true, maxBytes: 25 * 1024 * 1024 }),
    );
    expect(error).toBeInstanceOf(OutboundTooLargeError);
    expect(error).toMatchObject({ code: 'too_large', maxBytes: 25 * 1024 * 1024 });
  });

  it('aborts an endless chunked body as soon as it passes maxBytes', async () => {
    let written = 0;
    let closedEarly = false;
    const server = await serve((_req, res) => {
      res.on('close', () => {
        closedEarly = true;
      });
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(Buffer.alloc(16 * 1024, 97));
        written += 16 * 1024;
      }, 5);
    });
    const started = Date.now();
    const error = await rejection(
      guardedFetch(server.origin, { ...limits, allowPrivate: true, maxBytes: 100_000 }),
    );
    expect(error).toBeInstanceOf(OutboundTooLargeError);
    expect(Date.now() - started).toBeLessThan(3_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(closedEarly).toBe(true);
    expect(written).toBeLessThan(2 * 1024 * 1024);
  });

  it('accepts a body of exactly maxBytes', async () => {
    const server = await serve((_req, res) => res.end(Buffer.alloc(1000, 98)));
    const result = await guardedFetch(server.origin, { ...limits, allowPrivate: true, maxBytes: 1000 });
    expect(result.body).toHaveLength(1000);
  });

  it('with onTooLarge truncate keeps the first maxBytes and stops reading', async () => {
    const server = await serve((_req, res) => {
      res.write('0123456789');
      res.write(Buffer.alloc(5 * 1024 * 1024, 99));
    });
    const result = await guardedFetch(server.origin, {
      ...limits,
      allowPrivate: true,
      maxBytes: 12,
      onTooLarge: 'truncate',
    });
    expect(result.truncated).toBe(true);
    expect(new TextDecoder().decode(result.body)).toBe('0123456789cc');
  });
});

describe('guardedFetch: the total time is capped', () => {
  it('times out a server that never answers', async () => {
    const server = await serve(() => {});
    const started = Date.now();
    const error = await rejection(
      guardedFetch(server.origin, { ...limits, allowPrivate: true, timeoutMs: 300 }),
    );
    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(error).toMatchObject({ code: 'timeout', timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out a body that trickles in slower than the cap allows', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('x')), 50);
    });
    const started = Date.now();
    const error = await rejection(
      guardedFetch(server.origin, { ...limits, allowPrivate: true, timeoutMs: 400 }),
    );
    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('counts redirect hops against the same deadline', async () => {
    const server = await serve((req, res) => {
      setTimeout(() => res.writeHead(302, { Location: `/n${req.url?.length}` }).end(), 150);
    });
    const error = await rejection(
      guardedFetch(server.origin, { ...limits, allowPrivate: true, timeoutMs: 400, maxRedirects: 10 }),
    );
    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it('times out a DNS lookup that hangs', async () => {
    const hang: ResolveHost = () => new Promise(() => {});
    await expect(
      guardedFetch('https://slow-dns.example.test/', { ...limits, timeoutMs: 200, lookup: hang }),
    ).rejects.toBeInstanceOf(OutboundTimeoutError);
  });
});

describe('DNS rebinding: the connection goes to exactly the address that was checked', () => {
  it('blocks a host name that resolves to loopback, without connecting', async () => {
    const server = await serve((_req, res) => res.end('secret'));
    const lookup = fakeDns({ 'hooks.example.test': ['127.0.0.1'] });
    const error = await rejection(
      guardedFetch(`http://hooks.example.test:${server.port}/`, { ...limits, lookup }),
    );
    expect(error).toMatchObject({
      reason: 'private_address',
      address: '127.0.0.1',
      addressClass: 'loopback',
    });
    expect(server.connections).toBe(0);
  });

  it('resolves once per hop and connects to that answer even if DNS changes afterwards', async () => {
    const server = await serve((req, res) => res.end(`host=${req.headers.host}`));
    const answers = [['127.0.0.1'], ['127.0.0.2']];
    const calls: string[] = [];
    const lookup: ResolveHost = async (hostname) => {
      calls.push(hostname);
      return answers[Math.min(calls.length - 1, answers.length - 1)]!;
    };
    const result = await guardedFetch(`http://rebind.example.test:${server.port}/x`, {
      ...limits,
      allowPrivate: true,
      lookup,
    });
    // A second resolution would have answered 127.0.0.2, where nothing listens.
    expect(calls).toEqual(['rebind.example.test']);
    expect(new TextDecoder().decode(result.body)).toBe(`host=rebind.example.test:${server.port}`);
    expect(result.url).toBe(`http://rebind.example.test:${server.port}/x`);
  });

  it('pins the allowed address when the name is public and a later answer would be private', async () => {
    // The operator allows exactly 127.0.0.1 (standing in for a public address); a rebinding
    // resolver answers 127.0.0.1 first and 10.0.0.1 afterwards.
    const server = await serve((_req, res) => res.end('pinned'));
    let n = 0;
    const lookup: ResolveHost = async () => (n++ === 0 ? ['127.0.0.1'] : ['10.0.0.1']);
    const result = await guardedFetch(`http://flip.example.test:${server.port}/`, {
      ...limits,
      allowedAddresses: ['127.0.0.1'],
      lookup,
    });
    expect(new TextDecoder().decode(result.body)).toBe('pinned');
    expect(n).toBe(1);
  });
});

describe('keep-alive: a connection is reused only for the same checked destination (issue 16)', () => {
  it('ten deliveries one after the other to one endpoint reuse the kept-alive connection, each checked again first', async () => {
    const server = await serve((_req, res) => res.writeHead(204).end());
    const lookup = fakeDns({ 'hooks.example.test': ['127.0.0.1'] });
    for (let i = 0; i < 10; i++) {
      const result = await guardedFetch(`http://hooks.example.test:${server.port}/in`, {
        ...limits,
        method: 'POST',
        body: `{"n":${i}}`,
        allowedAddresses: ['127.0.0.1'],
        lookup,
      });
      expect(result.status).toBe(204);
    }
    expect(server.requests.map((r) => r.body)).toEqual(Array.from({ length: 10 }, (_, i) => `{"n":${i}}`));
    // Without reuse: ten. undici may open a second socket when a request starts before the last
    // answer's socket was handed back, never more one after the other.
    expect(server.connections).toBeLessThanOrEqual(2);
    expect(lookup.calls).toEqual(Array(10).fill('hooks.example.test'));
  });

  it('a new DNS answer never rides the pooled socket: another address connects anew, a blocked one not at all', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const answers = [['127.0.0.1'], ['127.0.0.2'], ['10.0.0.1']];
    let n = 0;
    const lookup: ResolveHost = async () => answers[Math.min(n++, answers.length - 1)]!;
    const url = `http://flip.example.test:${server.port}/`;
    const opts = { ...limits, allowedAddresses: ['127.0.0.1', '127.0.0.2'], lookup };
    expect((await guardedFetch(url, opts)).status).toBe(200);
    // 127.0.0.2 is checked and allowed, but nothing listens there: the kept-alive socket to
    // 127.0.0.1 is not used for it.
    await expect(guardedFetch(url, opts)).rejects.toMatchObject({ code: 'connection_error' });
    await expect(guardedFetch(url, opts)).rejects.toMatchObject({
      reason: 'private_address',
      address: '10.0.0.1',
    });
    expect(server.requests).toHaveLength(1);
    expect(server.connections).toBe(1);
  });
});

describe('DNS pinning keeps TLS on the host name (SNI and certificate validation)', () => {
  // Test-only self-signed certificate for hooks.example.test (valid until 2126), made with
  // openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
  //   -subj /CN=hooks.example.test -addext subjectAltName=DNS:hooks.example.test
  const tls = {
    cert: readFileSync(new URL('./fixtures/hooks.example.test.cert.pem', import.meta.url), 'utf8'),
    key: readFileSync(new URL('./fixtures/hooks.example.test.key.pem', import.meta.url), 'utf8'),
  };

  it('sends the host name as SNI and validates the certificate against it', async () => {
    const server = await serve((_req, res) => res.end('tls ok'), tls);
    const result = await guardedFetch(`https://hooks.example.test:${server.port}/`, {
      ...limits,
      allowPrivate: true,
      lookup: fakeDns({ 'hooks.example.test': ['127.0.0.1'] }),
      ca: tls.cert,
    });
    expect(new TextDecoder().decode(result.body)).toBe('tls ok');
    expect(server.serverNames).toEqual(['hooks.example.test']);
  });

  it('still rejects an untrusted certificate', async () => {
    const server = await serve((_req, res) => res.end('tls ok'), tls);
    const error = await rejection(
      guardedFetch(`https://hooks.example.test:${server.port}/`, {
        ...limits,
        allowPrivate: true,
        lookup: fakeDns({ 'hooks.example.test': ['127.0.0.1'] }),
      }),
    );
    expect(error).toMatchObject({ code: 'connection_error' });
    expect(server.requests).toHaveLength(0);
  });

  it('rejects a certificate for another name even though the pinned address is the same', async () => {
    const server = await serve((_req, res) => res.end('tls ok'), tls);
    const error = await rejection(
      guardedFetch(`https://other.example.test:${server.port}/`, {
        ...limits,
        allowPrivate: true,
        lookup: fakeDns({ 'other.example.test': ['127.0.0.1'] }),
        ca: tls.cert,
      }),
    );
    expect(error).toMatchObject({ code: 'connection_error' });
    expect(String((error as Error).message)).toMatch(/altnames|ERR_TLS_CERT_ALTNAME_INVALID|hostname/i);
    expect(server.serverNames).toEqual(['other.example.test']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('Delivery rules: addresses checked again at delivery, with the answer of a name reused for a few seconds (issue 16)', () => {
  it(`one lookup per name per ${DNS_CACHE_MS} ms, shared by the requests that ask at once; looked up again after`, async () => {
    const dns = fakeDns({ 'hooks.example.test': ['93.184.215.14'] });
    const clock = { ms: 0 };
    const resolve = cachingResolver(dns, DNS_CACHE_MS, () => clock.ms);
    const checks = await Promise.all(
      Array.from({ length: 20 }, () => assertPublicUrl('https://hooks.example.test/', { lookup: resolve })),
    );
    expect(checks.every((c) => c.addresses[0] === '93.184.215.14')).toBe(true);
    expect(dns.calls).toEqual(['hooks.example.test']);
    clock.ms = DNS_CACHE_MS - 1;
    await assertPublicUrl('https://HOOKS.example.test/', { lookup: resolve });
    expect(dns.calls).toHaveLength(1);
    clock.ms = DNS_CACHE_MS;
    await assertPublicUrl('https://hooks.example.test/', { lookup: resolve });
    expect(dns.calls).toHaveLength(2);
  });

  it('a reused answer is checked like a fresh one: a name that resolves to a private address is refused every time', async () => {
    const dns = fakeDns({ 'rebind.example.test': ['10.0.0.7'] });
    const resolve = cachingResolver(dns, DNS_CACHE_MS, () => 0);
    for (let i = 0; i < 3; i++) {
      await expect(
        guardedFetch('https://rebind.example.test/', { ...limits, lookup: resolve }),
      ).rejects.toMatchObject({ code: 'blocked', reason: 'private_address', address: '10.0.0.7' });
    }
    expect(dns.calls).toHaveLength(1);
  });

  it('a name that moves to a private address is refused once its answer is no longer reused', async () => {
    const table: Record<string, string[]> = { 'moving.example.test': ['93.184.215.14'] };
    const dns = fakeDns(table);
    const clock = { ms: 0 };
    const resolve = cachingResolver(dns, DNS_CACHE_MS, () => clock.ms);
    await assertPublicUrl('https://moving.example.test/', { lookup: resolve });
    table['moving.example.test'] = ['192.168.1.20'];
    clock.ms = DNS_CACHE_MS;
    await expect(assertPublicUrl('https://moving.example.test/', { lookup: resolve })).rejects.toMatchObject({
      reason: 'private_address',
      address: '192.168.1.20',
    });
  });

  it('a failed lookup is not kept: the next request asks again', async () => {
    const table: Record<string, string[]> = {};
    const dns = fakeDns(table);
    const resolve = cachingResolver(dns, DNS_CACHE_MS, () => 0);
    await expect(assertPublicUrl('https://later.example.test/', { lookup: resolve })).rejects.toMatchObject({
      code: 'dns_error',
    });
    table['later.example.test'] = ['93.184.215.14'];
    await expect(assertPublicUrl('https://later.example.test/', { lookup: resolve })).resolves.toMatchObject({
      addresses: ['93.184.215.14'],
    });
    expect(dns.calls).toHaveLength(2);
  });
});
