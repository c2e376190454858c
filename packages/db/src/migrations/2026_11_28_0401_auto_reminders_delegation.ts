import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 34 items 2 and 3, optional extensions of a signature request:
// - `reminders` ({ "every_hours", "max" } or null): automatic reminders, run by the job queue
//   (job `request.auto_remind`); each signer counts the automatic reminders it got in
//   `auto_reminders`, so `max` holds per signer whatever the job queue retries.
// - `allow_delegation`: a signer may hand their turn to someone else on the signing page.
// - accounts.default_reminders: the schedule a request gets when its sender names none.
// Every column has a default (no table rewrite on PostgreSQL 11+); existing requests keep none.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table signature_requests
  add column reminders jsonb,
  add column allow_delegation boolean not null default false;
alter table signers add column auto_reminders integer not null default 0;
alter table accounts add column default_reminders jsonb;
`.execute(db);
}
