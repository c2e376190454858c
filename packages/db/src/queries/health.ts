import { sql } from 'kysely';
import type { Executor } from '../connection.ts';

/** One round trip to the server (`select 1`): throws when it cannot be reached. */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
