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
  /** A passkey as the second step: the WebAuthn challenge given to the page. */
  webauthn_challenge: ColumnType<string | null, string | null | undefined, string | null>;
}

// Tables of migration 2026_12_07_1201 (issue 45 items 2 and 4): passkeys and single sign-on.

/** A user's WebAuthn credential. */
export interface UserPasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url, as WebAuthn names it. */
  credential_id: string;
  public_key: Buffer;
  counter: ColumnType<number, number | undefined, number>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  device_type: ColumnType<string, string | undefined, string>;
  backed_up: ColumnType<boolean, boolean | undefined, boolean>;
  name: string;
  created_at: CreatedAt;
  last_used_at: NullableTimestamp;
}

/** A passkey registration or sign-in waiting for the browser's answer. */
export interface WebauthnChallengesTable {
  id: Generated<number>;
  ticket_hash: string;
  purpose: 'register' | 'sign_in';
  user_id: number | null;
  challenge: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** An account's OpenID Connect provider. */
export interface AccountSsoTable {
  account_id: number;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  default_role: ColumnType<
    'admin' | 'member' | 'viewer',
    'admin' | 'member' | 'viewer' | undefined,
    'admin' | 'member' | 'viewer'
  >;
  role_claim: string | null;
  role_map: ColumnType<Record<string, string>, string | undefined, string>;
  required: ColumnType<boolean, boolean | undefined, boolean>;
  break_glass_user_id: number | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface AccountSsoDomainsTable {
  domain: string;
  account_id: number;
}

/** A sign-in sent to the provider, by the SHA-256 of its state. */
export interface SsoLoginsTable {
  id: Generated<number>;
  state_hash: string;
  account_id: number;
  nonce: string;
  code_verifier: string;
  next: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}
