import { type Kysely, sql } from 'kysely';

// Frozen once released. The audit trail shows each document's SHA-256 exactly as uploaded, next
// to the hash of the stored file (after text tags were removed); null for documents uploaded
// before this column existed.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table template_documents add column uploaded_sha256 text`.execute(db);
}
