import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCoreDeps, createLogger, parseConfig, type Runtime } from '@esign/core';
import { createAccount, issueApiKey } from '@esign/core/operator';
import { ensureDatabase, migrateToLatest, openDatabase, startEmbeddedPostgres } from '@esign/db';
import { buildAllInOneApp } from '@esign/server';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';
import pg from 'pg';

/** Peak RSS growth (MB) and wall time (ms) of one async operation, sampled every 5 ms. */
export async function measure<T>(fn: () => Promise<T>): Promise<{ ms: number; peakMb: number; result: T }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const start = performance.now();
  const result = await fn();
  const ms = performance.now() - start;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, peakMb: (peak - base) / 1024 / 1024, result };
}

/** A text PDF of `pages` pages; with `imageBytes`, every page also carries a noisy image so the file is big. */
export async function makePdf(
  pages: number,
  opts: { imageKb?: number; fields?: number } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Benchmark page ${i}`, { x: 72, y: 720, size: 18, font });
    for (let l = 0; l < 30; l++)
      page.drawText(`Line ${l} of page ${i}: the quick brown fox jumps over the lazy dog.`, {
        x: 72,
        y: 690 - l * 18,
        size: 10,
        font,
      });
    if (opts.imageKb) {
      // Incompressible bytes wrapped as a JPEG-like stream: a raw image XObject of noise.
      const side = Math.ceil(Math.sqrt((opts.imageKb * 1024) / 3));
      const noise = new Uint8Array(side * side * 3);
      for (let j = 0; j < noise.length; j++) noise[j] = (Math.random() * 256) | 0;
      const stream = doc.context.stream(noise, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: side,
        Height: side,
        ColorSpace: 'DeviceRGB',
        BitsPerComponent: 8,
      });
      const ref = doc.context.register(stream);
      const name = page.node.newXObject('Noise', ref);
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(200, 0, 0, 200, 300, 50),
        drawObject(name),
        popGraphicsState(),
      );
    }
  }
  return doc.save({ useObjectStreams: false });
}

/** The all-in-one app on a fresh embedded database, an account and a key. */
export async function benchApp() {
  const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-'));
  const config = parseConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  const database = await openDatabase({ dataDir, poolSize: 10 });
  await migrateToLatest(database.db);
  const rt: Runtime = {
    db: database.db,
    logger: createLogger('silent', 'bench'),
    config,
    deps: createCoreDeps(config),
    embedded: true,
    close: database.close,
  };
  const app = await buildAllInOneApp(rt);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  config.PUBLIC_URL = base;
  const { user } = await database.db
    .transaction()
    .execute((tx) => createAccount(tx, { email: 'bench@example.com', credits: 100000 }, new Date()));
  const { key } = await issueApiKey(database.db, {
    userId: user.id,
    environment: 'live',
    permission: 'full',
  });
  return {
    rt,
    base,
    key,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * A scratch database: on DATABASE_URL's server when it is set (created now, dropped by `drop`), else
 * a throwaway embedded PostgreSQL in `embeddedDir`.
 */
export async function scratchDatabase(embeddedDir: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `esign_bench_${process.pid}_${Date.now().toString(36)}`;
  if (process.env.DATABASE_URL) {
    await ensureDatabase(process.env.DATABASE_URL, name);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const server = await startEmbeddedPostgres(embeddedDir, { database: name });
  return { url: server.url, drop: () => server.stop() };
}

/** Extra node arguments for the TypeScript entry points bench scripts start (none: Node strips types itself). */
/**
 * The environment `npm start` gives the service's processes besides the operator's own
 * (scripts/memory.env, exported by scripts/run.sh): benchmarks start processes the same way.
 */
export const PRODUCTION_ENV: Record<string, string> = Object.fromEntries(
  readFileSync(join(import.meta.dirname, '../scripts/memory.env'), 'utf8')
    .split('\n')
    .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
    .filter((m) => m !== null)
    .map((m) => [m[1]!, m[2]!]),
);

export const NODE_TS: string[] = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
