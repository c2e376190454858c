import type { Generated } from 'kysely';
import type { CreatedAt, Json, JsonDefault, NullableTimestamp } from './schema-columns.ts';

// The OAuth authorization server's tables (migration 2026_11_24_0010_oauth).

export interface OauthClientsTable {
  id: string;
  client_secret_hash: string | null;
  name: string;
  redirect_uris: Json<string[]>;
  metadata_url: string | null;
  metadata: JsonDefault<Record<string, unknown>>;
  created_at: CreatedAt;
  /** The operator stopped offering purchases to this client (migration 2026_11_23_0002_billing). */
  purchases_hidden: Generated<boolean>;
  updated_at: Generated<Date>;
}

/**
 * Every record of the OAuth authorization server (migration 2026_11_24_0010_oauth): `model` is
 * oidc-provider's model name (Grant, AccessToken, RefreshToken, AuthorizationCode, Interaction,
 * Session, RegistrationAccessToken, ...), `id_hash` the SHA-256 of the record's id (for tokens:
 * the token itself). `payload` never holds the id.
 */
export interface OauthRecordsTable {
  model: string;
  id_hash: string;
  payload: Json<Record<string, unknown>>;
  grant_id: string | null;
  client_id: string | null;
  user_id: number | null;
  uid: string | null;
  user_code: string | null;
  expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
  created_at: CreatedAt;
}
