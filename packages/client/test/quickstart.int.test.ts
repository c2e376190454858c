import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainPdf } from '@esign/testing/pdfs';
import { freePort } from '@esign/testing/processes';
import { PNG_DOT, tokenOf, trpc } from '@esign/testing/signing';
import { afterEach, describe, expect, it } from 'vitest';
import { type DevServer, startDevServer } from './server.ts';

// Issue 48 item 5: each client's quick start in docs/clients.md, run exactly as written there
// against a fresh server: create a template, send it, wait for the completed webhook.
const DOC = readFileSync(new URL('../../../docs/clients.md', import.meta.url), 'utf8');
const PACKAGE_DIR = new URL('..', import.meta.url).pathname;
const PYTHON_DIR = new URL('../../../clients/python', import.meta.url).pathname;

/** The fenced block of `lang` whose first line is the file's name (`// quickstart.ts`). */
function codeBlock(lang: string, firstLine: string): string {
  const block = new RegExp(`\`\`\`${lang}\\n(${firstLine.replace('.', '\\.')}\\n[\\s\\S]*?)\`\`\``).exec(
    DOC,
  )?.[1];
  if (!block) throw new Error(`docs/clients.md has no ${lang} block starting with ${firstLine}`);
  return block;
}

let dev: DevServer | undefined;
afterEach(async () => {
  await dev?.close();
  dev = undefined;
});

/** Runs a quick start until it exits, signing the request once it prints the signer's link. */
async function runQuickStart(command: string, args: string[], cwd: string, extraEnv: Record<string, string>) {
  const port = await freePort();
  dev = await startDevServer({ webhookUrl: `http://127.0.0.1:${port}/webhooks` });
  const work = mkdtempSync(join(tmpdir(), 'esign-quickstart-'));
  writeFileSync(join(work, 'contract.pdf'), await plainPdf(1));
  const child = spawn(command, args, {
    cwd,
    env: {
      PATH: process.env.PATH,
      ESIGN_URL: dev.t.baseUrl,
      ESIGN_API_KEY: dev.owner.key,
      ESIGN_WEBHOOK_SECRET: dev.webhookSecret,
      PORT: String(port),
      PDF_PATH: join(work, 'contract.pdf'),
      ...extraEnv,
    },
  });
  let output = '';
  let signed: Promise<unknown> | null = null;
  const server = dev;
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    const link = /signing link: (\S+)/.exec(output)?.[1];
    if (link && !signed)
      signed = trpc(server.t, 'complete', { token: tokenOf(link), values: { Signature: PNG_DOT } });
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  const signing = (await signed) as { error: unknown } | null;
  return { code, output, signing };
}

function expectCompleted(run: { code: number | null; output: string; signing: { error: unknown } | null }) {
  expect(run.signing?.error ?? null, run.output).toBeNull();
  expect(run.code, run.output).toBe(0);
  const id = /sent request (\d+);/.exec(run.output)?.[1];
  expect(id, run.output).toBeDefined();
  expect(run.output).toContain('webhook: signature_request.created');
  expect(run.output).toContain('webhook: signature_request.completed');
  expect(run.output).toContain(`request ${id} completed`);
  expect(run.output).not.toContain('refused a delivery');
}

describe('quick starts of docs/clients.md (issue 48 item 5)', () => {
  it('TypeScript: the quick start creates a template, sends it and ends on the verified completed webhook', {
    timeout: 200_000,
  }, async () => {
    // Inside the package folder, `@esign/client` resolves to the package itself (its own name).
    const file = join(PACKAGE_DIR, `quickstart-${process.pid}.ts`);
    writeFileSync(file, codeBlock('ts', '// quickstart.ts'));
    try {
      expectCompleted(await runQuickStart(process.execPath, [file], PACKAGE_DIR, {}));
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("Python: the quick start (standard library only, Debian's python3) does the same", {
    timeout: 200_000,
  }, async () => {
    // -S: no site-packages at all, so the quick start runs on the standard library alone.
    const work = mkdtempSync(join(tmpdir(), 'esign-quickstart-py-'));
    const file = join(work, 'quickstart.py');
    writeFileSync(file, codeBlock('python', '# quickstart.py'));
    expectCompleted(
      await runQuickStart('/usr/bin/python3', ['-S', '-X', 'dev', file], work, { PYTHONPATH: PYTHON_DIR }),
    );
  });
});
