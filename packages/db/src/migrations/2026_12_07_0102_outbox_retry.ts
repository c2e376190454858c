import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 41 item 4: an email or SMS survives a provider outage of a day.
// - The mail outbox takes the SMS outbox's statuses: `failed` is a failed attempt that is retried,
//   `undeliverable` a message given up (its retry window ran out, or its link or code no longer
//   works, which was `failed` before). `esign mail retry` / `esign sms retry` queue the
//   undeliverable ones again.
// - `retried_at`: when an operator queued it again; its retry window starts there.
// - Messages whose job had already given up (8 attempts, about 11 minutes) were left waiting with
//   nothing to send them: they become `undeliverable`, so the retry commands find them, and the
//   jobs still waiting get the new attempt limit (the message's window ends them now).
// - Partial indexes over the messages not delivered, for the backlog metrics and dashboard line.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table mail_outbox drop constraint mail_outbox_status_check;
update mail_outbox set status = 'undeliverable' where status = 'failed';
alter table mail_outbox add constraint mail_outbox_status_check
  check (status in ('queued', 'sent', 'kept', 'failed', 'undeliverable'));
alter table mail_outbox add column retried_at timestamptz;
alter table sms_outbox add column retried_at timestamptz;

update mail_outbox set status = 'undeliverable',
  last_error = coalesce(last_error, 'not sent') || ' (gave up before the retry window existed)'
where status in ('queued', 'failed')
  and id not in (select (payload->>'mailId')::integer from jobs
                 where kind = 'mail.send' and status in ('queued', 'running'));
update sms_outbox set status = 'undeliverable',
  last_error = coalesce(last_error, 'not sent') || ' (gave up before the retry window existed)'
where status in ('queued', 'failed')
  and id not in (select (payload->>'smsId')::integer from jobs
                 where kind = 'sms.send' and status in ('queued', 'running'));
update jobs set max_attempts = 1000000
where kind in ('mail.send', 'sms.send') and status in ('queued', 'running');

create index mail_outbox_undelivered_idx on mail_outbox (account_id, environment, created_at)
  where status in ('queued', 'failed', 'undeliverable');
create index sms_outbox_undelivered_idx on sms_outbox (account_id, environment, created_at)
  where status in ('queued', 'failed', 'undeliverable');
`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
drop index sms_outbox_undelivered_idx;
drop index mail_outbox_undelivered_idx;
alter table sms_outbox drop column retried_at;
alter table mail_outbox drop column retried_at;
alter table mail_outbox drop constraint mail_outbox_status_check;
update mail_outbox set status = 'failed' where status = 'undeliverable';
alter table mail_outbox add constraint mail_outbox_status_check
  check (status in ('queued', 'sent', 'kept', 'failed'));
`.execute(db);
}
