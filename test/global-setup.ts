import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, migrateToLatest, startEmbeddedPostgres } from '@esign/db';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureDashboardBuilt } from '../apps/web/src/dashboard/build.ts';

import './db.ts';

async function adminQuery(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Once per project: a PostgreSQL server (embedded, or TEST_DATABASE_URL's) with a migrated
 * template database; each test file clones its own database from it (test/db.ts).
 */
export default async function setup(project: TestProject) {
  const target = project.config.env?.ESIGN_TEST_DB ?? 'embedded';
  let adminUrl: string;
  let stopServer = async () => {};
  if (target === 'external') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    adminUrl = url;
  } else {
    // The same start as `npm start` (as root, from a private checkout too), in a throwaway folder.
    const dir = mkdtempSync(join(tmpdir(), 'esign-test-pg-'));
    const server = await startEmbeddedPostgres(dir, {
      database: 'postgres',
      settings: { max_connections: '300', fsync: 'off' },
    });
    adminUrl = server.url;
    stopServer = async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  // The dashboard bundle, built once here (or reused from dashboard/dist) so that test files which
  // serve pages never wait for it.
  const dashboard = ensureDashboardBuilt();
  const template = `esign_tpl_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(adminUrl, `create database ${template}`);
  const tplUrl = new URL(adminUrl);
  tplUrl.pathname = `/${template}`;
  const db = createDb(tplUrl.toString(), { max: 1 });
  await migrateToLatest(db);
  await db.destroy();
  await dashboard;
  project.provide('dbAdminUrl', adminUrl);
  project.provide('dbTemplate', template);

  return async () => {
    const leftovers = await adminQuery(
      adminUrl,
      `select datname from pg_database where datname like 'esign_t_${process.pid}_%' or datname = '${template}'`,
    );
    for (const row of leftovers.rows)
      await adminQuery(adminUrl, `drop database if exists ${row.datname} with (force)`);
    await stopServer();
  };
}
