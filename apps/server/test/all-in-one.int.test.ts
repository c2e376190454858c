import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpToolCall } from '@esign/testing/processes';
import { esign, ROOT } from '@esign/testing/spawn';
import { describe, expect, it } from 'vitest';

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });

// The README's first command on the zero-setup default: embedded PostgreSQL under DATA_DIR.
describe.runIf(process.env.ESIGN_TEST_DB === 'embedded')('all-in-one start on the embedded database', () => {
  it('serves /readyz; esign account/key create against the same DATA_DIR print a key that works on /api/v1/me and /mcp', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'esign-boot-'));
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
    const server = spawn(process.execPath, [join(ROOT, 'apps/server/src/main.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    server.stdout.on('data', (d) => (log += d));
    server.stderr.on('data', (d) => (log += d));
    try {
      const base = `http://127.0.0.1:${port}`;
      let ready = false;
      for (let i = 0; i < 120 && !ready; i++) {
        ready = await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 250));
      }
      expect(ready, log).toBe(true);

      // The dashboard is served by the same process, with nothing to build by hand (operations.md §1).
      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain('<div id="root">');
      const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script, html).toBeTruthy();
      expect((await fetch(`${base}${script}`)).headers.get('content-type')).toMatch(/javascript/);

      const account = await esign(['account', 'create', '--email', 'boot@example.com', '--json'], env);
      expect(account.code, account.stderr).toBe(0);
      const key = JSON.parse(
        (await esign(['key', 'create', '--email', 'boot@example.com', '--json'], env)).stdout,
      );
      const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key.key}` } });
      expect(me.status).toBe(200);
      expect(me.headers.get('ratelimit-limit')).toBe('300');
      expect((await me.json()).user.email).toBe('boot@example.com');

      const mcp = await fetch(`${base}/mcp`, mcpToolCall(key.key, 'get_account'));
      expect(mcp.status).toBe(200);
      expect(JSON.stringify(await mcp.json())).toContain('boot@example.com');
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('close', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
