import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 48 item 4: the official MCP Inspector's CLI (a devDependency of this package) against the
// real server, as docs/mcp.md tells an operator to run it.
let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 3 });
});
afterAll(() => t.close());

const require = createRequire(import.meta.url);
const INSPECTOR = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);
const home = mkdtempSync(join(tmpdir(), 'esign-inspector-'));

/** `npx @modelcontextprotocol/inspector --cli <url> --header ... <args>`, with this Node (≥ 22.19). */
function inspector(
  args: string[],
  auth: string[] = ['--header', `Authorization: Bearer ${owner.key}`],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, '--cli', `${t.baseUrl}/mcp`, '--transport', 'http', ...auth, ...args],
      {
        timeout: 60_000,
        env: { PATH: process.env.PATH, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json'), NO_COLOR: '1' },
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the MCP Inspector CLI (docs/mcp.md, Checked with the MCP Inspector)', () => {
  it('runs under this Node: the Inspector 2.x needs 22.19 or newer', () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 22 || (major === 22 && minor >= 19), process.versions.node).toBe(true);
  });

  it('tools/list --strict exits 0 with the 18 tools and reports no error and no warning', async () => {
    const res = await inspector(['--method', 'tools/list', '--strict']);
    expect(res.stderr).not.toMatch(/warning|error/i);
    expect(res.code, res.stderr).toBe(0);
    const { tools } = JSON.parse(res.stdout) as { tools: { name: string }[] };
    expect(tools).toHaveLength(18);
    // Strict mode's findings also ride in the JSON envelope (warnings as well as errors): none.
    const json = await inspector(['--method', 'tools/list', '--strict', '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    const envelope = JSON.parse(json.stdout) as { result: { tools: unknown[] }; schemaFindings?: unknown };
    expect(envelope.result.tools).toHaveLength(18);
    expect(envelope.schemaFindings).toBeUndefined();
  });

  it('lists the usage guides as prompts and resources and reads one of each', async () => {
    const prompts = await inspector(['--method', 'prompts/list']);
    expect(prompts.code, prompts.stderr).toBe(0);
    expect(prompts.stderr).toBe('');
    expect(JSON.parse(prompts.stdout).prompts.map((p: { name: string }) => p.name)).toEqual([
      'send_template',
      'follow_request',
      'buy_credits_when_refused',
    ]);
    const prompt = await inspector(['--method', 'prompts/get', '--prompt-name', 'send_template']);
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(JSON.parse(prompt.stdout).messages[0].content.text).toMatch(/^# Send a template for signature/);
    const resources = await inspector(['--method', 'resources/list']);
    expect(resources.stderr).toBe('');
    expect(JSON.parse(resources.stdout).resources).toHaveLength(3);
    const resource = await inspector([
      '--method',
      'resources/read',
      '--uri',
      'esign://guides/follow_request',
    ]);
    expect(resource.code, resource.stderr).toBe(0);
    expect(JSON.parse(resource.stdout).contents[0].text).toMatch(/^# Follow a signature request/);
  });

  it('calls a tool with its arguments', async () => {
    const res = await inspector(['--method', 'tools/call', '--tool-name', 'get_account']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).structuredContent).toMatchObject({
      object: 'me',
      credits: { available: 3 },
    });
  });

  it('without an API key and without a TTY, the CLI stops at OAuth with auth_required (what docs/mcp.md says)', async () => {
    const res = await inspector(['--method', 'tools/list'], []);
    expect(res.code).toBe(3);
    expect(JSON.parse(res.stderr).error).toMatchObject({
      code: 'auth_required',
      message: expect.stringContaining('Interactive OAuth requires a TTY'),
    });
  });

  it('with MCP_AUTO_OPEN_ENABLED=true it discovers our authorization server and prints its authorization URL', async () => {
    const child = spawn(
      process.execPath,
      [INSPECTOR, '--cli', `${t.baseUrl}/mcp`, '--method', 'tools/list'],
      {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          MCP_CATALOG_PATH: join(home, 'mcp.json'),
          MCP_AUTO_OPEN_ENABLED: 'true',
        },
      },
    );
    let output = '';
    const found = await new Promise<string>((resolve) => {
      const look = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /(https?:\/\/\S+\/oauth\/authorize\?\S+)/.exec(output)?.[1];
        if (url) resolve(url);
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      child.on('exit', () => resolve(''));
    });
    child.kill();
    expect(output).toContain(`Please navigate to: ${t.baseUrl}/oauth/authorize?`);
    const url = new URL(found);
    expect(url.origin).toBe(t.baseUrl);
    expect(url.searchParams.get('resource')).toBe(`${t.baseUrl}/mcp`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('read write');
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:6276/oauth/callback');
  });
});
