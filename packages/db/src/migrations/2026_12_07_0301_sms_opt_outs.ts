import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 42 item 7: a number that replied STOP gets no more SMS.
// - sms_opt_outs: one row per E.164 number that opted out (a reply of START removes it).
// - sms_outbox status `opted_out`: a message written for such a number, never sent.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
create table sms_opt_outs (
  number text primary key,
  keyword text not null,
  opted_out_at timestamptz not null
);
alter table sms_outbox drop constraint sms_outbox_status_check;
alter table sms_outbox add constraint sms_outbox_status_check
  check (status in ('queued', 'sent', 'kept', 'failed', 'undeliverable', 'capped', 'opted_out'));
`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
update sms_outbox set status = 'undeliverable' where status = 'opted_out';
alter table sms_outbox drop constraint sms_outbox_status_check;
alter table sms_outbox add constraint sms_outbox_status_check
  check (status in ('queued', 'sent', 'kept', 'failed', 'undeliverable', 'capped'));
drop table sms_opt_outs;
`.execute(db);
}
