import { type Kysely, sql } from 'kysely';

// Frozen once released. Sealing: POST /documents/verify looks a file up by SHA-256 across every
// produced file (`documents @> '{"files":[{"sha256":"..."}]}'`), and the worker's sweep finds
// completed requests whose sealing is still pending.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
create index signature_requests_documents_idx on signature_requests using gin (documents jsonb_path_ops);
create index signature_requests_sealing_pending_idx on signature_requests (completed_at)
  where status = 'completed' and (sealing_status is null or sealing_status = 'pending');
`.execute(db);
}
