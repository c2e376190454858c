import { type Kysely, sql } from 'kysely';

// Frozen once released. Webhook delivery: a lease on each delivery row (so one attempt of an event
// is in flight at a time, whatever the number of workers), a stable failure code on each attempt,
// and the indexes the fan-out and the delivery history read by.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table webhook_deliveries
  add column locked_by uuid,
  add column locked_until timestamptz;

alter table webhook_attempts add column error_code text;

create index webhook_endpoints_scope_idx on webhook_endpoints (account_id, environment);
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id desc);
create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, attempt);
`.execute(db);
}
