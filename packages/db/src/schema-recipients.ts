import type { Generated, Selectable } from 'kysely';
import type { CreatedAt, Environment, JsonDefault, UpdatedAt } from './schema-columns.ts';

// Tables of migration 2026_11_28_0301 (issue 34 items 1 and 4): CC and notify recipients.

export type RecipientKind = 'cc' | 'notify';

export interface RequestRecipientsTable {
  id: Generated<number>;
  signature_request_id: number;
  account_id: number;
  environment: Environment;
  kind: RecipientKind;
  email: string;
  /** cc: the SHA-256 (hex) of the read-only link's token; null for notify. */
  token_hash: string | null;
  created_at: CreatedAt;
}

export interface AccountRecipientDefaultsTable {
  account_id: number;
  cc: JsonDefault<string[]>;
  notify: JsonDefault<string[]>;
  updated_at: UpdatedAt;
}

export type RequestRecipientRow = Selectable<RequestRecipientsTable>;
