import { sql } from 'kysely';
import { type Executor, json } from '../connection.ts';
import type { Environment } from '../schema.ts';
import type { Scope } from '../scope.ts';

// Webhook endpoints: an account side's receivers and their sealed signing secrets.

/** An endpoint's columns without its signing secret. */
export interface WebhookEndpointPublicRow {
  id: number;
  account_id: number;
  environment: Environment;
  url: string;
  events: string[];
  headers: Record<string, string>;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = [
  'id',
  'account_id',
  'environment',
  'url',
  'events',
  'headers',
  'enabled',
  'created_at',
  'updated_at',
] as const;

/**
 * Whether the account exists, when it was archived (an endpoint is created only for a live one) and
 * how many endpoints its side has (at most MAX_WEBHOOK_ENDPOINTS), in one statement.
 */
export async function findEndpointAccount(
  db: Executor,
  scope: Scope,
): Promise<{ id: number; archived_at: Date | null; endpoints: number } | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => [
      'id',
      'archived_at',
      eb
        .selectFrom('webhook_endpoints')
        .select(sql<string>`count(*)`.as('n'))
        .where('account_id', '=', scope.accountId)
        .where('environment', '=', scope.environment)
        .as('endpoints'),
    ])
    .where('id', '=', scope.accountId)
    .executeTakeFirst();
  return row && { id: row.id, archived_at: row.archived_at, endpoints: Number(row.endpoints ?? 0) };
}

export async function insertEndpoint(
  db: Executor,
  scope: Scope,
  endpoint: {
    url: string;
    events: string[];
    headers: Record<string, string>;
    sealedSecret: string;
    enabled: boolean;
    createdByUserId: number | null;
    now: Date;
  },
): Promise<WebhookEndpointPublicRow> {
  return db
    .insertInto('webhook_endpoints')
    .values({
      account_id: scope.accountId,
      environment: scope.environment,
      url: endpoint.url,
      events: json(endpoint.events),
      headers: json(endpoint.headers),
      secret: endpoint.sealedSecret,
      enabled: endpoint.enabled,
      created_by_user_id: endpoint.createdByUserId,
      created_at: endpoint.now,
      updated_at: endpoint.now,
    })
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** An account side's endpoints, newest first. */
export async function listEndpoints(db: Executor, scope: Scope): Promise<WebhookEndpointPublicRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('id', 'desc')
    .execute();
}

/** These endpoints of an account side (the `webhook.test` event's data), by id. */
export async function findEndpointsByIds(
  db: Executor,
  scope: Scope,
  ids: readonly number[],
): Promise<WebhookEndpointPublicRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('id', 'in', ids)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .execute();
}

/** The account side an endpoint belongs to (unscoped: the operator command line names endpoints by id). */
export async function findEndpointScope(db: Executor, id: number): Promise<Scope | undefined> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(['account_id', 'environment'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { accountId: row.account_id, environment: row.environment };
}

/** What an endpoint update may change; `now` is its updated_at. */
export interface EndpointChanges {
  url?: string;
  events?: string[];
  headers?: Record<string, string>;
  enabled?: boolean;
  sealedSecret?: string;
  now: Date;
}

/** Changes an endpoint of the scope; undefined when it is not there. */
export async function updateEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
  changes: EndpointChanges,
): Promise<WebhookEndpointPublicRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({
      ...(changes.url === undefined ? {} : { url: changes.url }),
      ...(changes.events === undefined ? {} : { events: json(changes.events) }),
      ...(changes.headers === undefined ? {} : { headers: json(changes.headers) }),
      ...(changes.enabled === undefined ? {} : { enabled: changes.enabled }),
      ...(changes.sealedSecret === undefined ? {} : { secret: changes.sealedSecret }),
      updated_at: changes.now,
    })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

/**
 * Deletes an endpoint of the scope and, by the foreign keys' `on delete cascade`, its deliveries and
 * their attempts, in one statement; the deleted endpoint, or undefined when it is not in the scope.
 * A claim or outcome holding one of its deliveries this instant is waited for (row locks).
 */
export async function deleteEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<WebhookEndpointPublicRow | undefined> {
  return db
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

/** An endpoint's stored (sealed) signing secret; undefined when it is not in the scope. */
export async function findEndpointSealedSecret(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('secret')
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
  return row?.secret;
}
