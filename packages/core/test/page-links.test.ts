import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@esign/db';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.ts';
import { pageImageLinks, pageImageUrl, readLinkedFile, signingPages } from '../src/services/file-links.ts';
import { pageRuns } from '../src/services/request-model.ts';
import { LocalFileStore } from '../src/services/storage.ts';

// Page-image links of the signing page and the template editor (spec: Signing page; issue 18: one
// signed token per document, not one per page). The token and page come from the link's path as
// the web app's GET /files/{token}/{name} route receives them.

const dir = mkdtempSync(join(tmpdir(), 'esign-page-links-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = parseConfig({
  PUBLIC_URL: 'https://sign.example',
  SECRET_KEY: 'page-links-test-secret-0123456789abcdef',
});
const storage = new LocalFileStore(dir);
const now = new Date('2026-11-23T12:00:00Z');
const doc = {
  storage_key: 'templates/1/contract.pdf',
  name: 'Lease 2026/27 (final)',
  pages: Array.from({ length: 5000 }, () => ({ width: 612, height: 792 })),
};

/** The token and file name of a link, as the route's parameters (decoded). */
function params(url: string): { token: string; name: string } {
  const [token, name] = new URL(url).pathname.split('/').slice(2);
  return { token: token!, name: decodeURIComponent(name!) };
}

// Pages served here are stored already: nothing asks the database whether a page failed to render.
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const read = (url: string, at = now) => {
  const { token, name } = params(url);
  return readLinkedFile({ db, deps: { storage }, config, now: () => at }, { token, fileName: name });
};

describe('page-image links', () => {
  const links = pageImageLinks(config, doc, { now, ttlSeconds: 24 * 3600 });

  it('every page of a 5,000-page document gets a link under one signed token', () => {
    expect(links).toHaveLength(5000);
    expect(links[4999]).toMatchObject({ number: 5000, width: 612, height: 792 });
    expect(new Set(links.map((l) => params(l.image_url).token)).size).toBe(1);
    expect(params(links[41]!.image_url).name).toBe('Lease 2026/27 (final)-page-42.png');
  });

  it('a link serves the page its file name names, with that name', async () => {
    for (const page of [1, 42, 5000])
      await storage.put(`${doc.storage_key}.page-${page}.png`, new Uint8Array([page % 256, 1, 2]));
    for (const page of [1, 42, 5000]) {
      const file = await read(links[page - 1]!.image_url);
      expect(file).toMatchObject({
        contentType: 'image/png',
        fileName: `Lease 2026/27 (final)-page-${page}.png`,
      });
      expect('bytes' in file && [...file.bytes]).toEqual([page % 256, 1, 2]);
    }
  });

  it('a page outside the document, a file name without a page, or an altered token is not found', async () => {
    const { token } = params(links[0]!.image_url);
    const base = `https://sign.example/files/${token}/`;
    for (const name of [
      'x-page-0.png',
      'x-page-5001.png',
      'x-page-1.pdf',
      'x-page-.png',
      'x.png',
      'x-page-1e3.png',
    ])
      await expect(read(base + encodeURIComponent(name))).rejects.toMatchObject({ code: 'not_found' });
    const [payload, sig] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), pp: 6000 }),
    ).toString('base64url');
    await expect(read(`https://sign.example/files/${forged}.${sig}/x-page-5500.png`)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('the links expire with their time to live', async () => {
    await expect(
      read(links[0]!.image_url, new Date(now.getTime() + 24 * 3600 * 1000 + 1000)),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/expired/),
    });
  });
});

describe('signing.open pages (spec: signing.open returns page images and page sizes)', () => {
  const open = signingPages(
    config,
    { ...doc, page_sizes: pageRuns(doc.pages) },
    { now, ttlSeconds: 24 * 3600 },
  );

  it('one link template, the page count and every page size: each page reads its own image', async () => {
    expect(open.page_count).toBe(5000);
    expect(open.page_sizes).toEqual([[5000, 612, 792]]);
    expect(open.page_image_url.split('{page}')).toHaveLength(2);
    for (const page of [1, 42, 5000]) {
      await storage.put(`${doc.storage_key}.page-${page}.png`, new Uint8Array([page % 256, 9]));
      const file = await read(pageImageUrl(open.page_image_url, page));
      expect('bytes' in file && [...file.bytes]).toEqual([page % 256, 9]);
    }
  });

  it('page sizes of mixed pages are runs in page order whose counts add up to page_count', () => {
    const pages = [
      { width: 612, height: 792 },
      { width: 612, height: 792 },
      { width: 842, height: 595 },
      { width: 612, height: 792 },
    ];
    const mixed = signingPages(config, { ...doc, page_sizes: pageRuns(pages) }, { now, ttlSeconds: 3600 });
    expect(mixed.page_count).toBe(4);
    expect(mixed.page_sizes).toEqual([
      [2, 612, 792],
      [1, 842, 595],
      [1, 612, 792],
    ]);
  });

  it('gives the links the editor gets, one per page', () => {
    const links = pageImageLinks(config, doc, { now, ttlSeconds: 24 * 3600 });
    const numbers = Array.from({ length: open.page_count }, (_, i) => i + 1);
    expect(numbers.map((n) => pageImageUrl(open.page_image_url, n))).toEqual(links.map((l) => l.image_url));
  });

  it('a document whose name holds "{page}" still has one place for the page number', async () => {
    const odd = { ...doc, name: 'Plan {page} v2', page_sizes: pageRuns(doc.pages.slice(0, 3)) };
    const template = signingPages(config, odd, { now, ttlSeconds: 3600 }).page_image_url;
    expect(template.split('{page}')).toHaveLength(2);
    await storage.put(`${doc.storage_key}.page-3.png`, new Uint8Array([3, 3]));
    const file = await read(pageImageUrl(template, 3));
    expect(file).toMatchObject({ fileName: 'Plan {page} v2-page-3.png' });
  });

  it('a 5,000-page document of one paper size answers in under 1 kB: one link and one run of sizes (issue 18)', () => {
    expect(JSON.stringify(open).length).toBeLessThan(1000);
  });
});
