import type { Generated } from 'kysely';
import type { CreatedAt, Environment, Json, NullableTimestamp, UpdatedAt } from './schema-columns.ts';

// Credits and their purchase (migration 2026_11_23_0002_billing and before).

export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: number;
  delta: number;
  reason: 'grant' | 'purchase' | 'consume' | 'adjust';
  template_id: number | null;
  signature_request_id: number | null;
  checkout_id: string | null;
  note: string | null;
  created_at: CreatedAt;
}

export interface CreditPacksTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  credits: number | null;
  unlimited: Generated<boolean>;
  price_cents: number;
  active: Generated<boolean>;
  created_at: CreatedAt;
}

export interface DiscountCodesTable {
  id: Generated<number>;
  code: string;
  percent_off: number | null;
  amount_off_cents: number | null;
  credit_pack_id: number | null;
  max_uses: number | null;
  uses: Generated<number>;
  expires_at: NullableTimestamp;
  active: Generated<boolean>;
  created_at: CreatedAt;
}

export interface CheckoutsTable {
  id: string;
  account_id: number;
  user_id: number;
  credit_pack_id: number;
  pack_snapshot: Json<unknown>;
  amount_cents: number;
  discount_code_id: number | null;
  discount_code: string | null;
  status: 'pending' | 'completed' | 'failed';
  provider: string;
  provider_ref: string | null;
  source: string;
  completed_at: NullableTimestamp;
  failed_at: NullableTimestamp;
  created_at: CreatedAt;
  /** Migration 2026_11_23_0002_billing: the side of the account, the payment page, last change. */
  environment: Environment;
  checkout_url: string | null;
  updated_at: UpdatedAt;
}
