import { type Kysely, sql } from 'kysely';

// Frozen once released. Signing credentials at rest and sealing recovery:
// - mail_outbox.redacted_at: when the body (text, HTML, links; the subject of a code email) was
//   replaced by a marker because its link or code can no longer be used, or it went out by SMTP;
//   the partial index keeps the housekeeping sweep on the rows that still hold a body.
// - Email codes are now stored as an HMAC under the server secret instead of an unkeyed SHA-256:
//   codes issued before this migration are dropped (a signer asks for a new one).
// - `esign sealing failed` lists completed requests whose sealing gave up.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table mail_outbox add column redacted_at timestamptz;
create index mail_outbox_unredacted_idx on mail_outbox (id) where redacted_at is null;

update signers set otp_hash = null where otp_hash is not null;

create index signature_requests_sealing_failed_idx on signature_requests (completed_at)
  where sealing_status = 'failed';
`.execute(db);
}
