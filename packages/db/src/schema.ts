import type { RequestStatus, SignerStatus, UserRole } from '@esign/domain';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type {
  CheckoutsTable,
  CreditLedgerTable,
  CreditPacksTable,
  DiscountCodesTable,
} from './schema-billing.ts';
import type { BrandsTable } from './schema-brands.ts';
import type {
  CreatedAt,
  Environment,
  Json,
  JsonDefault,
  NullableTimestamp,
  Permission,
  Timestamp,
  UpdatedAt,
} from './schema-columns.ts';
import type { FeedbackTable } from './schema-feedback.ts';
import type { OauthClientsTable, OauthRecordsTable } from './schema-oauth.ts';
import type { MailOutboxTable, SmsOptOutsTable, SmsOutboxTable } from './schema-outboxes.ts';
import type { AccountRecipientDefaultsTable, RequestRecipientsTable } from './schema-recipients.ts';
import type {
  BulkSendRowsTable,
  BulkSendsTable,
  EmbedOriginsTable,
  LinkVisitsTable,
  TemplateLinksTable,
} from './schema-send-sources.ts';
import type {
  AccountSsoDomainsTable,
  AccountSsoTable,
  SignInChallengesTable,
  SsoLoginsTable,
  UserPasskeysTable,
  UserRecoveryCodesTable,
  UserTotpTable,
  WebauthnChallengesTable,
} from './schema-sign-in.ts';
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from './schema-webhooks.ts';

export type {
  CreatedAt,
  Environment,
  Json,
  JsonDefault,
  NullableTimestamp,
  Permission,
  Timestamp,
  UpdatedAt,
} from './schema-columns.ts';
/** The statuses and roles the tables hold; @esign/domain owns the lists (the migrations check them). */
export type { RequestStatus, SignerStatus, UserRole };

export interface AccountsTable {
  id: Generated<number>;
  name: string | null;
  plan: ColumnType<'credits' | 'lifetime', 'credits' | 'lifetime' | undefined, 'credits' | 'lifetime'>;
  overdraft_limit: Generated<number>;
  /** BCP 47 tag: the language signers read when neither their signer nor the request names one. */
  default_locale: ColumnType<string | null, string | null | undefined, string | null>;
  archived_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Issue 34.2: the automatic reminders of requests whose sender names none (migration 2026_11_28_0401). */
  default_reminders: Json<{ every_hours: number; max: number } | null> | null;
  /** Issue 45: every member signs in with a second step (migration 2026_12_07_0501). */
  require_second_step: Generated<boolean>;
}

export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  name: string | null;
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  password_hash: string | null;
  billing_country: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** A removed member: cannot sign in; records keep pointing at the row (migration 2026_11_23_0003). */
  disabled_at: NullableTimestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  environment: Environment;
  permission: Permission;
  name: Generated<string>;
  key_hash: string;
  key_prefix: string;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  created_at: CreatedAt;
  /** The operator stopped offering purchases to this client (migration 2026_11_23_0002_billing). */
  purchases_hidden: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  /** Public id (listed on the account page); the token's hash stays private (migration 2026_11_23_0003). */
  id: Generated<number>;
  environment: ColumnType<Environment, Environment | undefined, Environment>;
  ip: string | null;
  user_agent: string | null;
  last_seen_at: NullableTimestamp;
  /** How it was opened: `password`, `password+totp`, `link`, ... (migration 2026_12_07_0501). */
  method: ColumnType<string, string | undefined, string>;
}

/** One-time links: sign-in by email and password reset (migration 2026_11_23_0003). */
export interface SignInTokensTable {
  token_hash: string;
  user_id: number;
  purpose: 'sign_in' | 'password_reset';
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** Invitations to join an account with a role (migration 2026_11_23_0003). */
export interface InvitationsTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  role: UserRole;
  token_hash: string;
  invited_by_user_id: number | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface FoldersTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  name: string;
  created_at: CreatedAt;
}

export interface TemplatesTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  name: string;
  external_id: string | null;
  folder_id: number | null;
  roles: JsonDefault<string[]>;
  /** Issue 47: each role's kind by position (missing: signer); migration 2026_12_07_1102. */
  role_kinds: JsonDefault<ParticipantKind[]>;
  source: string;
  created_by_user_id: number | null;
  api_key_id: number | null;
  archived_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Counts up with every change of roles, fields or documents (the editor's save precondition). */
  version: Generated<number>;
  /** Issue 44: the brand requests sent from it show (null: the account side's default). */
  brand_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface PageSize {
  width: number;
  height: number;
}

export interface TemplateDocumentsTable {
  id: Generated<number>;
  template_id: number;
  position: number;
  name: string;
  storage_key: string;
  original_storage_key: string | null;
  mime_type: string;
  byte_size: number;
  sha256: string;
  /** SHA-256 of the file exactly as uploaded (before conversion and text-tag removal). */
  uploaded_sha256: string | null;
  pages: JsonDefault<PageSize[]>;
  preview_storage_key: string | null;
  created_at: CreatedAt;
}

export interface FieldAreaRow {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  document: number;
  /** Text tags: the tag's font size in points; the seal draws text values at it (issue 33 item 2). */
  font_size?: number;
}

export interface TemplateFieldsTable {
  id: string;
  template_id: number;
  position: number;
  name: string | null;
  type: string;
  role: string;
  required: boolean;
  options: Json<string[] | null> | null;
  areas: Json<FieldAreaRow[]>;
  source: Generated<string>;
  /** Issue 46: the field's form logic (@esign/domain FieldLogic), null when none. */
  logic: Json<Record<string, unknown> | null> | null;
}

export interface SignatureRequestsTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  template_id: number | null;
  template_name: string | null;
  status: RequestStatus;
  signing_order: 'sequential' | 'parallel';
  source: string;
  created_by_user_id: number | null;
  api_key_id: number | null;
  oauth_client_id: string | null;
  send_email: boolean;
  message: Json<{ subject?: string; body?: string } | null> | null;
  reply_to: string | null;
  redirect_url: string | null;
  require_email_otp: boolean;
  snapshot: Json<unknown>;
  expires_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  canceled_at: NullableTimestamp;
  declined_at: NullableTimestamp;
  expired_at: NullableTimestamp;
  last_reminded_at: NullableTimestamp;
  documents: Json<unknown> | null;
  audit_trail_storage_key: string | null;
  combined_storage_key: string | null;
  sealing_status: 'pending' | 'done' | 'failed' | null;
  sealing_error: string | null;
  /** BCP 47 tag for every signer of the request without their own `locale`. */
  locale: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Issue 34.2: automatic reminders ({ every_hours, max }), or null (migration 2026_11_28_0401). */
  reminders: Json<{ every_hours: number; max: number } | null> | null;
  /** Issue 34.3: a signer may hand their turn to someone else. */
  allow_delegation: Generated<boolean>;
  /** Issue 44: the brand chosen at send time (null: the template's, else the default). */
  brand_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SignersTable {
  id: Generated<number>;
  signature_request_id: number;
  account_id: number;
  environment: Environment;
  position: number;
  role: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  external_id: string | null;
  metadata: JsonDefault<Record<string, unknown>>;
  prefill: JsonDefault<Record<string, unknown>>;
  values: JsonDefault<Record<string, unknown>>;
  status: SignerStatus;
  token_hash: string | null;
  token_nonce: string | null;
  redirect_url: string | null;
  require_email_otp: boolean;
  invited_at: NullableTimestamp;
  sent_at: NullableTimestamp;
  viewed_at: NullableTimestamp;
  started_at: NullableTimestamp;
  signed_at: NullableTimestamp;
  declined_at: NullableTimestamp;
  decline_reason: string | null;
  last_emailed_at: NullableTimestamp;
  otp_hash: string | null;
  otp_expires_at: NullableTimestamp;
  otp_attempts: Generated<number>;
  otp_verified_at: NullableTimestamp;
  ip: string | null;
  user_agent: string | null;
  documents: Json<unknown> | null;
  /** The signer's own sealed copy ({ files }), kept after the final seal replaces `documents`. */
  copy_files: Json<unknown> | null;
  /** What the sender asked for (issue 32); null: email when the signer has one, else SMS. */
  delivery: SignerDelivery | null;
  /** BCP 47 tag: the language this signer reads (page, emails, consent). */
  locale: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Issue 34.2: automatic reminders this signer got (migration 2026_11_28_0401). */
  auto_reminders: Generated<number>;
  /** Issue 47: the part this participant plays (migration 2026_12_07_1101). */
  kind: ColumnType<ParticipantKind, ParticipantKind | undefined, ParticipantKind>;
}

/** Issue 47: a signer signs, an approver approves or rejects, a viewer acknowledges having read. */
export type ParticipantKind = 'signer' | 'approver' | 'viewer';

/** Issue 47: a signer hosted in person on a dashboard user's device (migration 2026_12_07_1101). */
export interface SignerHostSessionsTable {
  id_hash: string;
  signer_id: number;
  host_user_id: number;
  user_agent: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export type SignerDelivery = 'email' | 'sms' | 'email_and_sms';

export interface SigningSessionsTable {
  id_hash: string;
  signer_id: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface AuditEventsTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  signature_request_id: number | null;
  template_id: number | null;
  signer_id: number | null;
  type: string;
  actor_type: string;
  actor_id: string | null;
  api_key_id: number | null;
  ip: string | null;
  user_agent: string | null;
  data: JsonDefault<Record<string, unknown>>;
  created_at: CreatedAt;
  /** The checkout an entry records (migration 2026_11_23_0002_billing). */
  checkout_id: string | null;
  /**
   * The signer's name, email and phone when the entry was written (a hand-over changes the row
   * afterwards); filled by a trigger from the signer row unless the entry sets it (migration
   * 2026_12_07_0401_audit_acting_signer). Null for entries without a signer.
   */
  signer_who: ColumnType<SignerWho | null, string | null | undefined, string | null>;
}

/** Who a signer was when an audit entry was written. */
export interface SignerWho {
  name: string | null;
  email: string | null;
  phone: string | null;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: JsonDefault<Record<string, unknown>>;
  status: ColumnType<
    'queued' | 'running' | 'done' | 'failed',
    'queued' | undefined,
    'queued' | 'running' | 'done' | 'failed'
  >;
  run_at: ColumnType<Date, Date | string | undefined, Date | string>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  last_error: string | null;
  unique_key: string | null;
  created_at: CreatedAt;
  finished_at: NullableTimestamp;
}

export interface IdempotencyKeysTable {
  api_key_id: number;
  path: string;
  key: string;
  request_hash: string;
  /** `running` (claimed), `committed` (its work committed: answer from the resource), `done`. */
  status: 'running' | 'committed' | 'done';
  response_status: number | null;
  response_body: string | null;
  /** Which claim holds the record: the work's transaction commits only under its own claim. */
  claim_id: Generated<string>;
  resource_type: string | null;
  resource_id: string | null;
  locked_until: Timestamp;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface RateLimitWindowsTable {
  bucket: string;
  window_start: Timestamp;
  count: Generated<number>;
}

/** A page of a stored file that could not be rendered (issue 29.4), remembered for every process. */
export interface PageRenderFailuresTable {
  storage_key: string;
  page: number;
  reason: string;
  failed_at: Date;
}

export interface Database {
  accounts: AccountsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  sign_in_tokens: SignInTokensTable;
  invitations: InvitationsTable;
  folders: FoldersTable;
  templates: TemplatesTable;
  template_documents: TemplateDocumentsTable;
  template_fields: TemplateFieldsTable;
  signature_requests: SignatureRequestsTable;
  signers: SignersTable;
  signing_sessions: SigningSessionsTable;
  signer_host_sessions: SignerHostSessionsTable;
  audit_events: AuditEventsTable;
  credit_ledger: CreditLedgerTable;
  credit_packs: CreditPacksTable;
  discount_codes: DiscountCodesTable;
  checkouts: CheckoutsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  jobs: JobsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limit_windows: RateLimitWindowsTable;
  mail_outbox: MailOutboxTable;
  sms_outbox: SmsOutboxTable;
  sms_opt_outs: SmsOptOutsTable;
  oauth_clients: OauthClientsTable;
  oauth_records: OauthRecordsTable;
  feedback: FeedbackTable;
  template_links: TemplateLinksTable;
  link_visits: LinkVisitsTable;
  embed_origins: EmbedOriginsTable;
  bulk_sends: BulkSendsTable;
  bulk_send_rows: BulkSendRowsTable;
  page_render_failures: PageRenderFailuresTable;
  request_recipients: RequestRecipientsTable;
  account_recipient_defaults: AccountRecipientDefaultsTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  user_passkeys: UserPasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  account_sso: AccountSsoTable;
  account_sso_domains: AccountSsoDomainsTable;
  sso_logins: SsoLoginsTable;
  brands: BrandsTable;
}

export type TemplateRow = Selectable<TemplatesTable>;
export type TemplateDocumentRow = Selectable<TemplateDocumentsTable>;
export type TemplateFieldRow = Selectable<TemplateFieldsTable>;
export type SignatureRequestRow = Selectable<SignatureRequestsTable>;
export type SignerRow = Selectable<SignersTable>;
export type JobRow = Selectable<JobsTable>;
export type MailRow = Selectable<MailOutboxTable>;
export type SmsRow = Selectable<SmsOutboxTable>;
export type CreditPackRow = Selectable<CreditPacksTable>;
export type CheckoutRow = Selectable<CheckoutsTable>;
export type DiscountCodeRow = Selectable<DiscountCodesTable>;
