import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildDeliveryRequest, signWebhook, verifyWebhook } from '../src/index.ts';

// docs/webhooks.md promises a worked example; these tests read it so the page cannot drift.
const doc = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');

function section(heading: string): string {
  const start = doc.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`docs/webhooks.md has no "${heading}" section`);
  return doc.slice(start + heading.length + 2);
}

function firstFence(text: string, lang: string): string {
  const match = text.match(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```'));
  if (!match) throw new Error(`no \`\`\`${lang} block`);
  return match[1]!;
}

function workedExample() {
  const block = firstFence(section('### Worked example'), 'text');
  const value = (key: string) => {
    const match = block.match(new RegExp(`^${key}:[ ]+(.*)$`, 'm'));
    if (!match) throw new Error(`worked example has no ${key}: line`);
    return match[1]!;
  };
  return {
    secret: value('secret'),
    timestamp: Number(value('timestamp')),
    body: value('body'),
    v1: value('v1'),
    header: value('header'),
  };
}

describe('docs/webhooks.md worked example (Signature verification)', () => {
  const example = workedExample();

  it('documents values of the documented shape', () => {
    expect(example.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Number.isSafeInteger(example.timestamp)).toBe(true);
    expect(example.v1).toMatch(/^[0-9a-f]{64}$/);
    expect(example.header).toBe(`X-Esign-Signature: t=${example.timestamp},v1=${example.v1}`);
  });

  it('signWebhook produces exactly the documented signature', () => {
    expect(signWebhook(example.secret, example.body, example.timestamp)).toBe(
      `t=${example.timestamp},v1=${example.v1}`,
    );
  });

  it('the documented body is what buildDeliveryRequest sends for that event', () => {
    const event = JSON.parse(example.body);
    const request = buildDeliveryRequest({
      secret: example.secret,
      event,
      deliveryId: 'dlv_doc',
      nowSeconds: example.timestamp,
    });
    expect(request.body).toBe(example.body);
    expect(`X-Esign-Signature: ${request.headers['X-Esign-Signature']}`).toBe(example.header);
  });

  it('verifyWebhook accepts the example at its own time and rejects it 301 seconds later', () => {
    const header = `t=${example.timestamp},v1=${example.v1}`;
    expect(verifyWebhook(example.secret, header, example.body, 300, example.timestamp)).toBe(true);
    expect(verifyWebhook(example.secret, header, example.body, 300, example.timestamp + 301)).toBe(false);
  });

  it('the documented plain node:crypto verifier works on the example', async () => {
    const code = firstFence(section('### Node.js with plain `node:crypto`'), 'js');
    const dir = mkdtempSync(join(tmpdir(), 'esign-webhooks-doc-'));
    try {
      const file = join(dir, 'verify.mjs');
      writeFileSync(file, code);
      const { verifyWebhook: documented } = (await import(pathToFileURL(file).href)) as {
        verifyWebhook: (s: string, h: unknown, b: string | Buffer, tol?: number, now?: number) => boolean;
      };
      const header = `t=${example.timestamp},v1=${example.v1}`;
      const body = Buffer.from(example.body, 'utf8');
      expect(documented(example.secret, header, body, 300, example.timestamp)).toBe(true);
      expect(documented(example.secret, header, example.body, 300, example.timestamp)).toBe(true);
      expect(documented(example.secret, header, `${example.body} `, 300, example.timestamp)).toBe(false);
      expect(documented('whsec_wrong', header, body, 300, example.timestamp)).toBe(false);
      expect(documented(example.secret, header, body, 300, example.timestamp + 301)).toBe(false);
      expect(documented(example.secret, undefined, body, 300, example.timestamp)).toBe(false);
      expect(documented(example.secret, `t=${example.timestamp}`, body, 300, example.timestamp)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/webhooks.md retry table (Delivery rules: 1, 2, 4, 8 ... minutes, at most 10 attempts)', () => {
  it('lists ten attempts with the doubling waits', () => {
    const rows = section('## Answering and retries')
      .split('\n')
      .filter((line) => /^\|\s*\d+\s*\|/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map((r) => Number(r[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows.slice(1).map((r) => r[2])).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256].map((m) => `${m} min`));
  });
});
