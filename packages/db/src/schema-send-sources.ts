import type { ColumnType, Generated, Selectable } from 'kysely';
import type {
  CreatedAt,
  Environment,
  Json,
  JsonDefault,
  NullableTimestamp,
  Timestamp,
  UpdatedAt,
} from './schema-columns.ts';

// Tables of migration 2026_11_24_0060: public signing links, embedding origins, bulk sends.

export interface TemplateLinksTable {
  template_id: number;
  account_id: number;
  environment: Environment;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  token_nonce: string;
  token_hash: string;
  /** The role a visitor fills. */
  role: string;
  /** The template's other roles, filled the same way on every visit: [{role, name?, email}]. */
  preset_signers: JsonDefault<{ role: string; name?: string | null; email: string }[]>;
  max_uses: number | null;
  uses: ColumnType<number, number | undefined, number>;
  user_id: number;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface LinkVisitsTable {
  id: Generated<number>;
  template_id: number;
  name: string;
  email: string;
  ip: string | null;
  code_hash: string;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  signature_request_id: number | null;
}

export interface EmbedOriginsTable {
  account_id: number;
  origin: string;
  created_at: CreatedAt;
}

export type BulkSendStatus = 'queued' | 'running' | 'completed' | 'stopped';
export type BulkRowStatus = 'pending' | 'sent' | 'invalid' | 'failed';

export interface BulkSendsTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  template_id: number;
  key: string;
  file_name: string;
  status: BulkSendStatus;
  stop_reason: string | null;
  options: Json<Record<string, unknown>>;
  total_rows: number;
  created_by_user_id: number | null;
  api_key_id: number | null;
  source: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface BulkSendRowsTable {
  bulk_send_id: number;
  row_number: number;
  status: BulkRowStatus;
  signers: Json<unknown[]>;
  error_code: string | null;
  error_message: string | null;
  signature_request_id: number | null;
  updated_at: Timestamp;
}

export type TemplateLinkRow = Selectable<TemplateLinksTable>;
export type LinkVisitRow = Selectable<LinkVisitsTable>;
export type BulkSendRow = Selectable<BulkSendsTable>;
export type BulkSendRowRow = Selectable<BulkSendRowsTable>;
