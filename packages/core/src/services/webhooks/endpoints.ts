import type { Executor } from '@esign/db';
import {
  deleteEndpoint,
  type EndpointChanges,
  findEndpointAccount,
  findEndpointScope,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
} from '@esign/db/queries/webhook-endpoints';
import { generateWebhookSecret } from '@esign/webhooks';
import type { Scope } from '../../context.ts';
import { CoreError, notFound } from '../../errors.ts';
import { requireScoped } from '../scoped.ts';
import {
  type EndpointRow,
  toWebhookEndpointDto,
  toWebhookTestData,
  type WebhookEndpointDto,
  type WebhookTestData,
} from './dto.ts';
import type { WebhookOptions } from './options.ts';
import { sealEndpointSecret } from './secret-box.ts';
import { checkWebhookEvents, checkWebhookHeaders, checkWebhookUrl } from './url-rules.ts';

/**
 * The most endpoints one account side (live or test) may have (issue 29 item 3: every list that
 * becomes one statement is bounded). An event writes a delivery and a job per subscribed endpoint
 * in one statement each, so an unbounded list would also make every send's transaction grow with it.
 */
export const WEBHOOK_MAX_ENDPOINTS = 50;

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
  { input, ...opts }: WebhookOptions & { input: CreateWebhookEndpointInput },
): Promise<{ endpoint: WebhookEndpointDto; secret: string }> {
  const events = checkWebhookEvents(input.events);
  const headers = checkWebhookHeaders(input.headers, opts.config.WEBHOOK_SERVICE_NAME);
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') {
    throw new CoreError('invalid_parameter', 'enabled must be true or false');
  }
  const url = await checkWebhookUrl(input.url, opts);
  const account = await findEndpointAccount(db, scope);
  if (!account) throw notFound('Account', scope.accountId);
  if (account.archived_at) throw new CoreError('invalid_request', 'The account is archived');
  if (account.endpoints >= WEBHOOK_MAX_ENDPOINTS) {
    throw new CoreError(
      'invalid_request',
      `An account has at most ${WEBHOOK_MAX_ENDPOINTS} webhook endpoints (live and test each); delete one you no longer use, or change its URL and events`,
    );
  }
  const secret = generateWebhookSecret();
  const now = opts.now();
  const row = await insertEndpoint(db, scope, {
    url,
    events,
    headers,
    sealedSecret: sealEndpointSecret(opts.config, scope, secret),
    enabled: input.enabled ?? true,
    createdByUserId: input.createdByUserId ?? null,
    now,
  });
  return { endpoint: toWebhookEndpointDto(row), secret };
}

/** The endpoint in this account side, or `404 not_found`. */
export function findEndpoint(db: Executor, scope: Scope, id: number): Promise<EndpointRow> {
  return requireScoped(db, 'webhook_endpoints', { scope, id });
}

export async function getWebhookEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<WebhookEndpointDto> {
  return toWebhookEndpointDto(await findEndpoint(db, scope, id));
}

export async function listWebhookEndpoints(db: Executor, scope: Scope): Promise<WebhookEndpointDto[]> {
  return (await listEndpoints(db, scope)).map(toWebhookEndpointDto);
}

/**
 * The account side an endpoint belongs to, for the operator command line (which names endpoints by
 * id). Everything else is scoped by the caller's account and environment.
 */
export async function webhookEndpointScope(db: Executor, id: number): Promise<Scope> {
  const scope = await findEndpointScope(db, id);
  if (!scope) throw notFound('Webhook endpoint', id);
  return scope;
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
  { id, input, ...opts }: WebhookOptions & { id: number; input: UpdateWebhookEndpointInput },
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
    ...(events === undefined ? {} : { events }),
    ...(headers === undefined ? {} : { headers }),
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    now: opts.now(),
  });
}

/** Writes `changes` to one endpoint of the scope and returns it as the API shows it. */
async function setEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
  changes: EndpointChanges,
): Promise<WebhookEndpointDto> {
  const row = await updateEndpoint(db, scope, id, changes);
  if (!row) throw notFound('Webhook endpoint', id);
  return toWebhookEndpointDto(row);
}

/** Stops deliveries to an endpoint: no new ones are queued, queued ones fail at their next turn. */
export async function disableWebhookEndpoint(
  db: Executor,
  scope: Scope,
  { id, now }: { id: number; now: Date },
): Promise<WebhookEndpointDto> {
  return setEndpoint(db, scope, id, { enabled: false, now });
}

/**
 * Deletes an endpoint for good, which frees its place under WEBHOOK_MAX_ENDPOINTS. Its delivery
 * records and their attempts go with it (`on delete cascade`): nothing is left to send, so pending
 * and retrying deliveries are never sent afterwards, and a `webhook.deliver` job that wakes for one
 * finds no delivery and finishes (claim.ts: skip). An attempt already on the wire when the endpoint
 * is deleted may still reach the receiver; its outcome has no row left to write and is dropped.
 * The events stay (they belong to the account side, and other endpoints may have them). Endpoint
 * changes record no audit event (update, rotate and disable do not either), so this is one
 * statement. Another account's or side's id is `404 not_found`.
 */
export async function deleteWebhookEndpoint(
  db: Executor,
  scope: Scope,
  { id }: { id: number },
): Promise<{ id: number; url: string; deleted: true }> {
  const row = await deleteEndpoint(db, scope, id);
  if (!row) throw notFound('Webhook endpoint', id);
  return { id: row.id, url: row.url, deleted: true };
}

/** Event data of a `webhook_endpoint` (the `webhook.test` event): the endpoint now. */
export async function webhookEndpointEventData(
  db: Executor,
  scope: Scope,
  { id }: { id: number },
): Promise<WebhookTestData> {
  return toWebhookTestData(await findEndpoint(db, scope, id));
}
