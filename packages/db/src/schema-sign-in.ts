import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, NullableTimestamp, Timestamp } from './schema-columns.ts';

// Tables of migration 2026_12_07_0501 (issue 45): the second step at sign-in.

/** A user's authenticator-app seed, sealed; unconfirmed until the first code. */
export interface UserTotpTable {
  user_id: number;
  secret_sealed: string;
  confirmed_at: NullableTimestamp;
  /** The RFC 6238 time step of the last accepted code: a code of that step or earlier is refused. */
  last_used_step: number | null;
  created_at: CreatedAt;
}

/** Single-use recovery codes, by their keyed hash. */
export interface UserRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** How the first step of a sign-in that still needs its second was made. */
export type FirstFactor = 'password' | 'link' | 'password_reset';

/** A sign-in waiting for its second step, by the SHA-256 of its token. */
export interface SignInChallengesTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  first_factor: FirstFactor;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}
