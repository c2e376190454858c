import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirement } from '@esign/testing/requirements';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_LOCATION_FILE, startEmbeddedPostgres } from '../src/embedded.ts';
import { packagedBinaries } from '../src/postgres-binaries.ts';

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe('embedded PostgreSQL', () => {
  it('DATA_DIR the server can reach: the cluster lives in DATA_DIR/db and survives a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'esign-embedded-'));
    cleanup.push(dataDir);
    const first = await startEmbeddedPostgres(dataDir, { database: 'app' });
    expect(first.dir).toBe(join(dataDir, 'db'));
    await query(first.url, 'create table kept (v text); insert into kept values ($$one$$)');
    await first.stop();
    expect(existsSync(join(dataDir, DB_LOCATION_FILE))).toBe(false);
    const again = await startEmbeddedPostgres(dataDir, { database: 'app' });
    try {
      expect((await query(again.url, 'select v from kept')).rows).toEqual([{ v: 'one' }]);
    } finally {
      await again.stop();
    }
  });

  // `npm start` as root from a checkout under /root (mode 0700): PostgreSQL runs as the postgres
  // user, which can enter neither node_modules (the binaries) nor DATA_DIR. Only root can play it:
  // skipped with a message elsewhere, failing under CI (test/requirements.ts).
  it.runIf(requirement('root', process.getuid?.() === 0, 'run the tests as root to cover it'))(
    'as root from a private 0700 folder: starts, keeps its data across restarts, the CLI joins it, and the private folder stays 0700',
    async () => {
      const privateDir = mkdtempSync(join(tmpdir(), 'esign-private-'));
      const systemDir = mkdtempSync(join(tmpdir(), 'esign-system-'));
      cleanup.push(privateDir, systemDir);
      expect(statSync(privateDir).mode & 0o777).toBe(0o700);
      // The binaries as a checkout in that folder would have them: reachable only through it.
      const packaged = packagedBinaries();
      const home = join(privateDir, 'node_modules', 'native');
      mkdirSync(join(privateDir, 'node_modules'));
      symlinkSync(packaged.home, home);
      const binaries = {
        ...packaged,
        home,
        initdb: join(home, 'bin', 'initdb'),
        postgres: join(home, 'bin', 'postgres'),
      };
      const dataDir = join(privateDir, 'checkout', 'data');
      const opts = { database: 'app', systemDir, binaries };

      const server = await startEmbeddedPostgres(dataDir, opts);
      let stopped = false;
      try {
        // The cluster is outside DATA_DIR, where DATA_DIR/db-location says.
        expect(server.dir.startsWith(join(systemDir, 'clusters', 'checkout-'))).toBe(true);
        expect(readFileSync(join(dataDir, DB_LOCATION_FILE), 'utf8').trim()).toBe(server.dir);
        expect(readdirSync(systemDir).filter((n) => n.startsWith('postgres-'))).toEqual([
          `postgres-${packaged.version}-${process.platform}-${process.arch}`,
        ]);
        await query(server.url, 'create table kept (v text); insert into kept values ($$one$$)');

        // A second process (the CLI) joins the running server through its postmaster.pid.
        const cli = await startEmbeddedPostgres(dataDir, opts);
        expect(new URL(cli.url).port).toBe(new URL(server.url).port);
        await cli.stop();
        expect((await query(server.url, 'select count(*)::int as n from kept')).rows).toEqual([{ n: 1 }]);

        await server.stop();
        stopped = true;
        const restarted = await startEmbeddedPostgres(dataDir, opts);
        try {
          expect(restarted.dir).toBe(server.dir);
          expect((await query(restarted.url, 'select v from kept')).rows).toEqual([{ v: 'one' }]);
        } finally {
          await restarted.stop();
        }
      } finally {
        if (!stopped) await server.stop();
      }
      expect(statSync(privateDir).mode & 0o777).toBe(0o700);
    },
  );
});
