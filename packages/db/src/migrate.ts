import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from './migrations/index.ts';

export interface MigrateResult {
  applied: string[];
}

/** Applies pending migrations; safe to run from several processes at once (advisory lock). */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrateResult> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(7428301)`.execute(conn);
    try {
      const migrator = new Migrator({ db: conn, provider: { getMigrations: async () => migrations } });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error;
      return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
    } finally {
      await sql`select pg_advisory_unlock(7428301)`.execute(conn);
    }
  });
}

/** True when every known migration is applied (used by /readyz). */
export async function migrationsApplied(db: Kysely<any>): Promise<boolean> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const list = await migrator.getMigrations();
  return list.every((m) => m.executedAt !== undefined);
}
