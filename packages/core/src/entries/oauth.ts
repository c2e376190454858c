/**
 * @esign/core/oauth: MCP's OAuth (Authentication rule 8): the storage and clients apps/web's
 * authorization server (oidc-provider) uses, and the protected resource apps/mcp describes.
 */
// biome-ignore-all assist/source/organizeImports: the exports stay in their commented groups

// What the authorization server stores (oidc-provider's adapter) and its lifetimes.
export {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from '../services/oauth/rules.ts';
export {
  consumeRecord,
  destroyRecord,
  findRecord,
  findRecordBy,
  type OAuthPayload,
  revokeGrantRecords,
  upsertRecord,
} from '../services/oauth/store.ts';

// Registered clients: saving, finding, removing, the registration limit, fetching client documents.
export { guardedClientFetch } from '../services/oauth/client-documents.ts';
export {
  deleteClient,
  findRegisteredClient,
  limitClientRegistration,
  saveClient,
} from '../services/oauth/clients.ts';

// Grants: scopes, subjects, the protected resource (/mcp) and its metadata.
export {
  MCP_PATH,
  mcpResource,
  OAUTH_SCOPES,
  oauthSubject,
  parseOAuthSubject,
  resourceMetadataUrl,
  scopesOf,
} from '../services/oauth/rules.ts';

// The provider's cookie keys and the consent form's token check.
export { hmac, safeEqual } from '../services/secret.ts';
