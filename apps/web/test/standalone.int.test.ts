import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { sendRequest, tokenOf, twoRoleTemplate } from '@esign/testing/signing';
import { ROOT } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });

let t: TestApp;
let web: ChildProcess;
let webUrl: string;
let log = '';

// README, scaled mode: `tsx apps/web/src/main.ts` serves the pages and /trpc on its own, on the
// same database (and secret) as the API, MCP and worker processes.
beforeAll(async () => {
  t = await startTestApp();
  const port = await freePort();
  webUrl = `http://127.0.0.1:${port}`;
  web = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/web/src/main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: t.dbUrl,
      DATA_DIR: t.config.DATA_DIR,
      PORT: String(port),
      PUBLIC_URL: t.baseUrl,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  web.stdout?.on('data', (d) => (log += d));
  web.stderr?.on('data', (d) => (log += d));
  for (let i = 0; i < 160; i++) {
    const ready = await fetch(`${webUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    if (web.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the web process did not become ready:\n${log}`);
});

afterAll(async () => {
  if (web && web.exitCode === null) {
    web.kill('SIGTERM');
    await new Promise((r) => web.once('close', r));
  }
  await t?.close();
});

describe('standalone web process (apps/web/src/main.ts)', () => {
  it('serves the signing page /s/{token} and the /trpc procedures it calls, and nothing of the API or MCP', async () => {
    const owner = await createTestAccount(t.db, { credits: 5 });
    const template = await twoRoleTemplate(t, owner);
    const sent = await sendRequest(t, owner, {
      template_id: template.id,
      send_email: false,
      signers: [
        { role: 'Client', name: 'Cleo', email: 'cleo@example.com' },
        { role: 'Agent', name: 'Ari', email: 'ari@example.com' },
      ],
    });
    expect(sent.status, sent.text).toBe(201);
    const token = tokenOf(sent.body.signers[0].signing_url);

    const page = await fetch(`${webUrl}/s/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');

    const input = encodeURIComponent(JSON.stringify({ token }));
    const open = await fetch(`${webUrl}/trpc/signing.open?input=${input}`);
    expect(open.status, log).toBe(200);
    const body = (await open.json()) as { result: { data: Record<string, any> } };
    expect(JSON.stringify(body.result.data)).toContain('Cleo');

    expect(
      (await fetch(`${webUrl}/api/v1/me`, { headers: { authorization: `Bearer ${owner.key}` } })).status,
    ).toBe(404);
    expect((await fetch(`${webUrl}/mcp`, { method: 'POST' })).status).toBe(404);
  });
});
