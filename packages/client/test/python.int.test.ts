import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEsignClient } from '../src/index.ts';
import { type DevServer, startDevServer } from './server.ts';

// Issue 48 item 2: the Python client (clients/python, standard library only) against the real
// server, with Debian's python3 and no site-packages (-S): clients/python/tests/test_client.py.
const PYTHON_DIR = new URL('../../../clients/python', import.meta.url).pathname;
let dev: DevServer;

beforeAll(async () => {
  dev = await startDevServer();
});
afterAll(() => dev.close());

it("the Python client's errors, idempotent retries, Retry-After, pagination and webhook verification (tests/test_client.py)", {
  timeout: 200_000,
}, async () => {
  const work = mkdtempSync(join(tmpdir(), 'esign-python-'));
  writeFileSync(join(work, 'contract.pdf'), await plainPdf(1));
  // A real delivery for the webhook checks: sending a request makes the server sign and post one.
  const esign = createEsignClient({ baseUrl: dev.t.baseUrl, apiKey: dev.owner.key });
  const { data: template } = await esign.POST('/templates', {
    body: {
      name: 'For a delivery',
      documents: [{ file: Buffer.from(await plainPdf(1)).toString('base64') }],
      fields: [
        {
          name: 'Signature',
          type: 'signature',
          role: 'Client',
          areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }],
        },
      ],
    },
  });
  const { data: request } = await esign.POST('/signature_requests', {
    body: { template_id: template!.id, signers: [{ role: 'Client', name: 'Ada', email: 'ada@example.com' }] },
  });
  const delivery = await dev.waitForDelivery(
    (d) =>
      d.headers['x-esign-event'] === 'signature_request.created' && d.body.includes(`"id":${request!.id},`),
  );
  const child = spawn('/usr/bin/python3', ['-S', '-X', 'dev', '-m', 'unittest', '-v', 'tests.test_client'], {
    cwd: PYTHON_DIR,
    env: {
      PATH: process.env.PATH,
      PYTHONDONTWRITEBYTECODE: '1',
      ESIGN_URL: dev.t.baseUrl,
      ESIGN_API_KEY: dev.owner.key,
      ESIGN_WEBHOOK_SECRET: dev.webhookSecret,
      DELIVERY_BODY: delivery.body,
      DELIVERY_SIGNATURE: delivery.headers['x-esign-signature'] as string,
      PDF_PATH: join(work, 'contract.pdf'),
    },
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c));
  child.stderr.on('data', (c: Buffer) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code, output).toBe(0);
  expect(output).toMatch(/Ran 5 tests/);
  expect(output).toMatch(/\nOK\n/);
});
