import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, migrateToLatest, startEmbeddedPostgres } from '@esign/db';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import './db.ts';
import { buildWeb } from './web-build.ts';

async function adminQuery(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** Creates database `name` on the server and migrates it: the template each test file clones. */
async function migrateTemplate(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { max: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

/**
 * Once per project: a PostgreSQL server (embedded, or TEST_DATABASE_URL's) with a migrated
 * template database; each test file clones its own database from it (db.ts).
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
  const template = `esign_tpl_${process.pid}_${Date.now().toString(36)}`;
  // The dashboard and signing page, built by the same task as `npm start` (a turbo cache hit when
  // nothing changed), while the template database migrates: every server a test starts reads them.
  // A package whose tests start no server (core, db, pdf: their `test` scripts) sets
  // ESIGN_TEST_SKIP_WEB_BUILD=1, so testing it builds no app.
  const web = process.env.ESIGN_TEST_SKIP_WEB_BUILD === '1' ? Promise.resolve() : buildWeb();
  await Promise.all([web, migrateTemplate(adminUrl, template)]);
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
