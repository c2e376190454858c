import { type Kysely, sql } from 'kysely';

// Frozen once released. Indexes for every list filter of the API at a million signature requests
// per account (issue 16), each checked with EXPLAIN in apps/api/test/list-plans.int.test.ts:
// - signer search `q` (case-insensitive substring of name, email or phone): trigram GIN indexes
//   (pg_trgm, a trusted extension shipped with PostgreSQL and the embedded binaries), one per column
//   so the planner combines them with a BitmapOr;
// - status filters: newest first within one account side per status (rare statuses stop scanning
//   the whole account), the open ones (`open`, `sent`, `in_progress`) on their own small index,
//   and `expired` (open past `expires_at`) by expiry within the account side;
// - `template_id`, newest first;
// - templates: `q` (trigram on name), `folder` (by folder, newest first), `archived=true` (the few
//   archived ones), `external_id` (newest first).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
create extension if not exists pg_trgm;

create index signers_name_trgm_idx on signers using gin (name gin_trgm_ops);
create index signers_email_trgm_idx on signers using gin (email gin_trgm_ops);
create index signers_phone_trgm_idx on signers using gin (phone gin_trgm_ops);

create index signature_requests_status_idx on signature_requests (account_id, environment, status, id desc);
create index signature_requests_open_idx on signature_requests (account_id, environment, id desc)
  where status in ('sent', 'in_progress');
create index signature_requests_open_expiry_scope_idx on signature_requests (account_id, environment, expires_at)
  where status in ('sent', 'in_progress');
drop index signature_requests_template_idx;
create index signature_requests_template_idx on signature_requests (template_id, id desc);

create index templates_name_trgm_idx on templates using gin (name gin_trgm_ops);
create index templates_folder_idx on templates (folder_id, id desc);
create index templates_archived_idx on templates (account_id, environment, id desc)
  where archived_at is not null;
drop index templates_external_idx;
create index templates_external_idx on templates (account_id, environment, external_id, id desc);
`.execute(db);
}
