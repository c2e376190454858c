import type { Executor, WebhookEndpointsTable } from '@esign/db';
import { json } from '@esign/db';
import { generateWebhookSecret } from '@esign/webhooks';
import type { Updateable } from 'kysely';
import type { Scope } from '../../context.ts';
import { CoreError, notFound } from '../../errors.ts';
import { requireScoped } from '../scoped.ts';
import {
  ENDPOINT_COLUMNS,
  type EndpointRow,
  toWebhookEndpointDto,
  toWebhookTestData,
  type WebhookEndpointDto,
  type WebhookTestData,
} from './dto.ts';
import type { WebhookOptions } from './options.ts';
import { sealEndpointSecret } from './secret-box.ts';
import { checkWebhookEvents, checkWebhookHeaders, checkWebhookUrl } from './url-rules.ts';

export interface CreateWebhookEndpointInput {
  url: string;
  /** Default: the specification's "on by default" types. */
  events?: string[];
  headers?: Record<string, string>;
  enabled?: boolean;
  createdByUserId?: number | null;
}

/**
 * Creates an endpoint for one account side. The signing secret is returned here and never again;
 * it is stored encrypted so deliveries can sign.
 */
export async function createWebhookEndpoint(
  db: Executor,
  scope: Scope,
  input: CreateWebhookEndpointInput,
  opts: WebhookOptions,
): Promise<{ endpoint: WebhookEndpointDto; secret: string }> {
  const events = checkWebhookEvents(input.events);
  const headers = checkWebhookHeaders(input.headers, opts.config.WEBHOOK_SERVICE_NAME);
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') {
    throw new CoreError('invalid_parameter', 'enabled must be true or false');
  }
  const url = await checkWebhookUrl(input.url, opts);
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'archived_at'])
    .where('id', '=', scope.accountId)
    .executeTakeFirst();
  if (!account) throw notFound('Account', scope.accountId);
  if (account.archived_at) throw new CoreError('invalid_request', 'The account is archived');
  const secret = generateWebhookSecret();
  const now = opts.now();
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      account_id: scope.accountId,
      environment: scope.environment,
      url,
      events: json(events),
      headers: json(headers),
      secret: sealEndpointSecret(opts.config, scope, secret),
      enabled: input.enabled ?? true,
      created_by_user_id: input.createdByUserId ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
  return { endpoint: toWebhookEndpointDto(row), secret };
}

/** The endpoint in this account side, or `404 not_found`. */
export function findEndpoint(db: Executor, scope: Scope, id: number): Promise<EndpointRow> {
  return requireScoped(db, 'webhook_endpoints', scope, id);
}

export async function getWebhookEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<WebhookEndpointDto> {
  return toWebhookEndpointDto(await findEndpoint(db, scope, id));
}

export async function listWebhookEndpoints(db: Executor, scope: Scope): Promise<WebhookEndpointDto[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toWebhookEndpointDto);
}

/**
 * The account side an endpoint belongs to, for the operator command line (which names endpoints by
 * id). Everything else is scoped by the caller's account and environment.
 */
export async function webhookEndpointScope(db: Executor, id: number): Promise<Scope> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(['account_id', 'environment'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint', id);
  return { accountId: row.account_id, environment: row.environment };
}

export interface UpdateWebhookEndpointInput {
  url?: string;
  events?: string[];
  headers?: Record<string, string>;
  enabled?: boolean;
}

/**
 * Changes an endpoint. Saving re-applies the URL rules: when the URL changes, and when the endpoint
 * is enabled (its host may resolve elsewhere by now). Deliveries already queued use the new values.
 */
export async function updateWebhookEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
  input: UpdateWebhookEndpointInput,
  opts: WebhookOptions,
): Promise<WebhookEndpointDto> {
  const current = await findEndpoint(db, scope, id);
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') {
    throw new CoreError('invalid_parameter', 'enabled must be true or false');
  }
  const events = input.events === undefined ? undefined : checkWebhookEvents(input.events);
  const headers =
    input.headers === undefined
      ? undefined
      : checkWebhookHeaders(input.headers, opts.config.WEBHOOK_SERVICE_NAME);
  const url =
    input.url !== undefined || input.enabled === true
      ? await checkWebhookUrl(input.url ?? current.url, opts)
      : undefined;
  return setEndpoint(db, scope, id, {
    ...(url === undefined ? {} : { url }),
    ...(events === undefined ? {} : { events: json(events) }),
    ...(headers === undefined ? {} : { headers: json(headers) }),
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    updated_at: opts.now(),
  });
}

/** Writes `changes` to one endpoint of the scope and returns it as the API shows it. */
async function setEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<WebhookEndpointDto> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set(changes)
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint', id);
  return toWebhookEndpointDto(row);
}

/** Stops deliveries to an endpoint: no new ones are queued, queued ones fail at their next turn. */
export async function disableWebhookEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
  now: Date,
): Promise<WebhookEndpointDto> {
  return setEndpoint(db, scope, id, { enabled: false, updated_at: now });
}

/** Event data of a `webhook_endpoint` (the `webhook.test` event): the endpoint now. */
export async function webhookEndpointEventData(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<WebhookTestData> {
  return toWebhookTestData(await findEndpoint(db, scope, id));
}
