import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 41 item 1: an Idempotency-Key's outcome commits with the work it
// guards. A claim gets its own id (`claim_id`): the work's transaction marks the claim `committed`
// only while that id still holds it, so a claim taken over by a retry can never commit twice. The
// mark names what the work made (`resource_type`, `resource_id`), or carries its answer
// (`response_body`), so a retry after a crash between the commit and the stored answer replays it
// instead of running the request again. Leases and expiry are compared with the database's clock.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table idempotency_keys
  add column claim_id uuid not null default gen_random_uuid(),
  add column resource_type text,
  add column resource_id text;
alter table idempotency_keys drop constraint idempotency_keys_status_check;
alter table idempotency_keys
  add constraint idempotency_keys_status_check check (status in ('running', 'committed', 'done'));
`.execute(db);
}
