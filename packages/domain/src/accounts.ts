/**
 * A user's role in an account (README, `esign user create --role`): `admin` (everything,
 * including keys, webhooks and billing), `member` (templates and requests), `viewer` (read only).
 */
export const USER_ROLES = ['admin', 'member', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * Where a record came from; becomes its `source` column. The spec's values (`api`, `mcp`,
 * `invite` for the dashboard, `link`, `bulk`, `embed`) `cli` for the operator command line and `web` for the signed-in pages (billing).
 */
export const SOURCES = ['api', 'mcp', 'invite', 'link', 'bulk', 'embed', 'cli', 'web'] as const;
export type Source = (typeof SOURCES)[number];
