import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCaller, createContext, createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs, PUBLIC_VERIFY_PER_MINUTE } from '@esign/core/testing';
import { b64, plainPdf } from '@esign/testing/pdfs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forge } from '../../../packages/pdf/test/forgery.ts';
import { signaturePng } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 30, "A public verify page": /verify on the web app, where anyone holding a PDF (no account,
// no key) drops it and reads the verdict in plain words. Screenshots go to a temporary folder.

const SHOTS = join(tmpdir(), 'esign-verify-page');
const logger = createLogger('silent', 'test');

describe.runIf(browserTestsEnabled('verify page'))('the public /verify page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let sealed: Uint8Array;
  let requestId: number;
  let ownerKey: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    const owner = await createTestAccount(t.db, { lifetime: true });
    ownerKey = owner.key;
    const area = { page: 1, x: 0.1, y: 0.3, w: 0.4, h: 0.06, document: 0 };
    const tpl = await t.api('POST', 'templates', {
      key: owner.key,
      body: {
        name: 'Service agreement',
        documents: [{ name: 'Service agreement', file: b64(await plainPdf(1, 'Fee: EUR 4,000')) }],
        fields: [{ name: 'Signature', type: 'signature', role: 'Client', areas: [area] }],
      },
    });
    expect(tpl.status, tpl.text).toBe(201);
    const sent = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: {
        template_id: tpl.body.id,
        send_email: false,
        signers: [{ role: 'Client', name: 'Carla Client', email: 'carla@example.com' }],
      },
    });
    expect(sent.status, sent.text).toBe(201);
    requestId = sent.body.id;
    const token = new URL(sent.body.signers[0].signing_url).pathname.split('/').pop()!;
    const caller = createCaller(
      createContext({ db: t.db, logger, config: t.config, deps: t.rt.deps, source: 'link' }),
    );
    await caller.signing.complete({ token, values: { Signature: signaturePng() } });
    const jctx = { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() };
    await drainJobs(jctx, jobHandlers);
    const request = await t.api('GET', `signature_requests/${requestId}`, { key: owner.key });
    const url = request.body.documents[0].url as string;
    sealed = new Uint8Array(await (await fetch(url)).arrayBuffer());
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function drop(page: Page, name: string, bytes: Uint8Array) {
    const file = join(SHOTS, name);
    writeFileSync(file, bytes);
    await page.getByTestId('verify-file').setInputFiles(file);
    await page.getByTestId('verify-result').waitFor({ timeout: 30_000 });
  }

  it('anyone drops a sealed PDF and reads who sealed it, when, the level and what it is; a changed file says what changed on which page', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    try {
      const res = await page.goto(`${t.baseUrl}/verify`);
      expect(res?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Verify a signed document',
      );
      // The file input has its label (the drop zone) for screen readers and keyboards.
      await expect(page.getByLabel(/Drop a PDF here/).count()).resolves.toBe(1);

      await drop(page, 'sealed.pdf', sealed);
      const result = page.getByTestId('verify-result');
      const text = (await result.textContent()) ?? '';
      expect(text).toContain('Authentic: sealed by this service and unchanged');
      // Issue 42 item 8: plain words first; the verifier's technical summary only when unfolded.
      expect(await page.getByTestId('verify-plain').textContent()).toBe(
        'This is the file this service sealed, and nothing in it has changed since.',
      );
      expect(await page.getByTestId('verify-summary').isVisible()).toBe(false);
      expect(text).toContain('The sealed document “Service agreement”');
      expect(text).toContain('esign document sealing');
      expect(text).toContain("(this service's sealing certificate)");
      expect(text).toContain('PAdES B-B');
      expect(text).toMatch(/When\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, as the file states it/);
      // Nobody's request id on the public page.
      expect(text).not.toContain(`#${requestId}`);
      // Issue 40: each signature's level of modification, in words a recipient understands.
      expect(await page.getByTestId('verify-signatures').textContent()).toBe(
        'Certified by esign document sealing Nothing was changed after it.',
      );
      await page.screenshot({ path: join(SHOTS, 'verify-authentic.png'), fullPage: true });

      // The same file with "EUR 40,000" painted over page 1 in an update appended after the seal.
      await page.getByRole('button', { name: 'Check another file' }).click();
      await drop(page, 'changed.pdf', await forge(sealed));
      const changed = (await page.getByTestId('verify-result').textContent()) ?? '';
      expect(changed).toContain('Changed after it was signed');
      expect(await page.getByTestId('verify-plain').textContent()).toBe(
        'Someone changed this document after it was signed. Ask the sender for the original.',
      );
      expect(await page.getByTestId('verify-changes').textContent()).toContain('content of page 1 changed');
      // In plain words first: which page shows the change.
      expect(await page.getByTestId('verify-changed-where').textContent()).toBe('Page 1');
      expect(await page.getByTestId('verify-signatures').textContent()).toContain(
        'After it, the document itself was changed. This signature does not allow that.',
      );
      await page.screenshot({ path: join(SHOTS, 'verify-modified.png'), fullPage: true });

      // At a phone's width (390 px) nothing is clipped: the page never scrolls sideways.
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      try {
        const small = await phone.newPage();
        await small.goto(`${t.baseUrl}/verify`);
        await drop(small, 'changed.pdf', await forge(sealed));
        await small.screenshot({ path: join(SHOTS, 'verify-modified-phone.png'), fullPage: true });
        const widths = await small.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          view: window.innerWidth,
        }));
        expect(widths.page).toBeLessThanOrEqual(widths.view);
        // A file over 25 MB is refused in the page, before it is sent (and counted).
        const big = join(SHOTS, 'big.pdf');
        writeFileSync(big, Buffer.alloc(26 * 1024 * 1024, 0x20));
        await small.getByRole('button', { name: 'Check another file' }).click();
        await small.getByTestId('verify-file').setInputFiles(big);
        await expect(small.getByRole('alert').textContent()).resolves.toBe(
          'big.pdf is 26.0 MB; files up to 25 MB can be checked.',
        );
        await small.screenshot({ path: join(SHOTS, 'verify-too-large-phone.png'), fullPage: true });
      } finally {
        await phone.close();
      }

      await page.getByRole('button', { name: 'Check another file' }).click();
      await drop(page, 'unsigned.pdf', await plainPdf(1, 'Nothing signed'));
      expect(await page.getByTestId('verify-result').textContent()).toContain('Not signed');

      expect(await page.getByTestId('verify-plain').textContent()).toBe(
        'This file carries no electronic signature, so nothing shows who signed it or whether it changed.',
      );

      // Issue 42 item 8: not a PDF, or empty: the verifier's reason in plain words (the API keeps
      // its technical reason, "file is not a PDF"), and nothing else on the page.
      const cases = [
        [
          'notes.pdf',
          'just some text',
          'This file is not a PDF. Choose the signed PDF document you received (its name usually ends in .pdf).',
        ],
        ['empty.pdf', '', 'This file is empty. Choose the signed PDF document you received.'],
      ] as const;
      for (const [name, content, plain] of cases) {
        await page.getByRole('button', { name: 'Check another file' }).click();
        writeFileSync(join(SHOTS, name), content);
        await page.getByTestId('verify-file').setInputFiles(join(SHOTS, name));
        const alert = (await page.getByRole('alert').textContent()) ?? '';
        expect(alert).toBe(`This file could not be checked. ${plain}`);
        await page.screenshot({ path: join(SHOTS, `verify-${name}.png`) });
      }
      const api = await t.api('POST', 'documents/verify', {
        key: ownerKey,
        body: { file: b64(Buffer.from('just some text')) },
      });
      expect([api.status, api.body.error?.message]).toEqual([422, 'file is not a PDF']);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a file over 25 MB sent to the public procedure anyway is refused as the spec says (422 document_too_large), whether or not its body fits the /trpc limit', async () => {
    const call = (bytes: number) =>
      fetch(`${t.baseUrl}/trpc/documents.verifyPublic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file: Buffer.alloc(bytes, 0x25).toString('base64') }),
      });
    for (const size of [25 * 1024 * 1024 + 1, 30 * 1024 * 1024]) {
      const res = await call(size);
      // tRPC's error shape from the procedure; the shared JSON parser's ({ error: { code } }) over the body limit.
      const err = (await res.json()) as {
        error: { message: string; code: unknown; data?: { code: string } };
      };
      expect([res.status, err.error.data?.code ?? err.error.code], String(size)).toEqual([
        422,
        'document_too_large',
      ]);
      expect(err.error.message, String(size)).toMatch(/25 MB/);
    }
  }, 60_000);

  it('the public procedure needs no key, stores nothing, and is limited per address (429 rate_limited with Retry-After seconds), refused before a body is read', async () => {
    const call = (file: string) =>
      fetch(`${t.baseUrl}/trpc/documents.verifyPublic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file }),
      });
    const stored = await t.db.selectFrom('signature_requests').select('id').execute();
    const first = await call(b64(sealed));
    expect(first.status).toBe(200);
    const body = (await first.json()) as { result: { data: { verdict: string; match: unknown } } };
    expect(body.result.data.verdict).toBe('authentic');
    expect(body.result.data.match).toMatchObject({ kind: 'document', signature_request_id: null });
    expect(await t.db.selectFrom('signature_requests').select('id').execute()).toEqual(stored);
    // The browser test above counted from the same address: at most the limit, then 429.
    let limited: Response | null = null;
    for (let i = 0; i <= PUBLIC_VERIFY_PER_MINUTE && !limited; i++) {
      const res = await call('JVBERi0=');
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Refused before its body is read: the error envelope of the HTTP layer (as for a body over
    // the limit), since tRPC never ran.
    const err = (await limited!.json()) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('rate_limited');
    expect(err.error.message).toMatch(/at most 10 a minute/);
    // The page says so in words (the envelope's message), not "the server could not be reached".
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${t.baseUrl}/verify`);
      writeFileSync(join(SHOTS, 'one-more.pdf'), await plainPdf(1, 'One more'));
      await page.getByTestId('verify-file').setInputFiles(join(SHOTS, 'one-more.pdf'));
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'Too many files checked from your address',
      );
    } finally {
      await context.close();
    }

    // An address past its minute is answered before it has sent its (here endless) body: the
    // server neither waits for nor reads 30 MB it would refuse anyway.
    // A batch that names the procedure (twice, or beside another call) is refused as early.
    const { port, hostname } = new URL(t.baseUrl);
    const endless = (path: string, first: string) =>
      new Promise<{ status: number | undefined; sent: number }>((resolve, reject) => {
        let sent = 0;
        const req = request(
          {
            host: hostname,
            port,
            method: 'POST',
            path,
            headers: { 'content-type': 'application/json', 'content-length': String(30 * 1024 * 1024) },
          },
          (res) => {
            resolve({ status: res.statusCode, sent });
            res.resume();
            req.destroy();
          },
        );
        req.on('error', (e) => (sent < 30 * 1024 * 1024 ? undefined : reject(e)));
        const chunk = Buffer.from(first + 'A'.repeat(64 * 1024));
        req.write(chunk);
        sent += chunk.length;
        setTimeout(
          () => reject(new Error(`${path}: no answer while the body was still coming`)),
          20_000,
        ).unref();
      });
    const single = '{"file":"';
    const batched = '{"0":{"file":"';
    expect(await endless('/trpc/documents.verifyPublic', single)).toEqual({
      status: 429,
      sent: 64 * 1024 + single.length,
    });
    expect(await endless('/trpc/documents.verifyPublic,documents.verifyPublic?batch=1', batched)).toEqual({
      status: 429,
      sent: 64 * 1024 + batched.length,
    });
  });
});
