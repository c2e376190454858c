import { type Kysely, sql } from 'kysely';

// Frozen once released. A signer's own sealed copy (job signer.copy) is a file the service produced:
// POST /documents/verify must find it by SHA-256 after the final seal has replaced the signer's
// `documents` with the final ones (issue 30 item 6). `copy_files` keeps the copy's files
// ({ "files": [{ "name", "sha256", ... }] }) for good, looked up by jsonb containment on a GIN index
// like signature_requests.documents. Copies sealed before this migration are filled in from their
// `signer.copy_sealed` audit entries, which name each file and its SHA-256.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table signers add column copy_files jsonb;
update signers s
   set copy_files = jsonb_build_object('files', e.data -> 'documents')
  from audit_events e
 where e.type = 'signer.copy_sealed'
   and e.signer_id = s.id
   and jsonb_typeof(e.data -> 'documents') = 'array';
create index signers_copy_files_idx on signers using gin (copy_files jsonb_path_ops);
`.execute(db);
}
