import type { Config } from '../../config.ts';
import type { Scope } from '../../context.ts';
import { openSecret, type SealedAt, sealSecret } from '../sealed-secrets.ts';

// Signing secrets at rest (sealed-secrets.ts). The deliveries need the secret itself (to sign), so
// it is encrypted, not hashed.

// Binds a stored secret to its account and side, so a copied column value does not open elsewhere.
const sealedAt = (scope: Scope): SealedAt => ({
  purpose: 'webhook endpoint signing secrets',
  aad: `webhook_endpoints.secret|${scope.accountId}|${scope.environment}`,
});

export function sealEndpointSecret(config: Config, scope: Scope, secret: string): string {
  return sealSecret(config, sealedAt(scope), secret);
}

export function openEndpointSecret(config: Config, scope: Scope, stored: string): string {
  return openSecret(config, sealedAt(scope), stored);
}
