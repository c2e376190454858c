import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Environment, JsonDefault, NullableTimestamp } from './schema-columns.ts';

// The outboxes of email and SMS (core services/mail and services/sms), and the numbers that asked
// for no more SMS.

/** `opted_out`: written for a number that replied STOP, never sent (issue 42.7). */
export type SmsStatus = 'queued' | 'sent' | 'kept' | 'failed' | 'undeliverable' | 'capped' | 'opted_out';

/** A number that replied STOP to our SMS (issue 42.7); a reply of START removes it. */
export interface SmsOptOutsTable {
  /** E.164 */
  number: string;
  keyword: string;
  opted_out_at: Date;
}

/** SMS to signers (core services/sms): like the mail outbox, plus the provider's message id. */
export interface SmsOutboxTable {
  id: Generated<number>;
  account_id: number | null;
  environment: Environment | null;
  signature_request_id: number | null;
  signer_id: number | null;
  kind: string;
  /** E.164 */
  to_number: string;
  text_body: string;
  links: JsonDefault<string[]>;
  status: ColumnType<SmsStatus, SmsStatus | undefined, SmsStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  provider_id: string | null;
  sent_at: NullableTimestamp;
  redacted_at: NullableTimestamp;
  /** when an operator queued it again (`esign sms retry`): its retry window starts there */
  retried_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** `failed`: an attempt failed and it is retried; `undeliverable`: given up (`esign mail retry`). */
export type MailStatus = 'queued' | 'sent' | 'kept' | 'failed' | 'undeliverable';

export interface MailOutboxTable {
  id: Generated<number>;
  account_id: number | null;
  environment: Environment | null;
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  links: JsonDefault<string[]>;
  status: ColumnType<MailStatus, 'queued' | undefined, MailStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: NullableTimestamp;
  signer_id: number | null;
  /** set when the body (and links) were replaced by a marker: see mail-secrets.ts in core */
  redacted_at: NullableTimestamp;
  /** when an operator queued it again (`esign mail retry`): its retry window starts there */
  retried_at: NullableTimestamp;
  created_at: CreatedAt;
  /** Issue 44: the From display name and address (null: MAIL_FROM's), the brand whose logo it carries. */
  from_name: ColumnType<string | null, string | null | undefined, string | null>;
  from_address: ColumnType<string | null, string | null | undefined, string | null>;
  brand_id: ColumnType<number | null, number | null | undefined, number | null>;
}
