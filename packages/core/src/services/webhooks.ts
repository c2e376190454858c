import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { Db, Environment, Executor, WebhookAttemptRow } from '@esign/db';
import { json } from '@esign/db';
import {
  assertPublicUrl,
  buildDeliveryRequest,
  DEFAULT_SUBSCRIBED_EVENT_TYPES,
  type DeliveryAttemptResult,
  deliverWebhook,
  generateWebhookSecret,
  isAllowedCustomHeader,
  nextRetryDelayForEvent,
  OutboundError,
  type ResolveHost,
  WEBHOOK_EVENT_TYPES,
} from '@esign/webhooks';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Scope } from '../context.ts';
import { CoreError, notFound } from '../errors.ts';
import {
  type EventFanOut,
  eventDataBuilder,
  recordEvent,
  registerEventDataBuilder,
  setEventFanOut,
} from './events.ts';
import { type EnqueueOptions, enqueueJob, holdLease, JOB_LEASE_MS, type JobHandler } from './jobs.ts';
import { serverSecret } from './secret.ts';

// Webhooks (spec, Events; operations.md §2 and §3). The outbox is `webhook_deliveries`: one row per
// event and endpoint, written by the fan-out in the transaction of the change that caused the event.
// Jobs of kind `webhook.deliver` only wake a worker up; the delivery row decides. A worker takes a
// lease on the row (locked_by = the attempt's delivery UUID) before it sends, so however many
// workers and duplicate wake-ups there are, one attempt of a delivery is in flight at a time, and
// an attempt whose worker died is retried with the same event once the lease has run out.

export const WEBHOOK_DELIVER_JOB = 'webhook.deliver';

/** Event types an endpoint can subscribe to: all but `webhook.test`, which is sent on request only. */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = WEBHOOK_EVENT_TYPES.filter(
  (t) => t !== 'webhook.test',
);

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_MAX_CUSTOM_HEADERS = 20;
export const WEBHOOK_CUSTOM_HEADER_MAX_LENGTH = 1024;

/** What webhook services need besides the database. */
export interface WebhookOptions {
  config: Config;
  now: () => Date;
  logger?: Logger;
  /** DNS resolution for the address checks (save and delivery); default the system resolver. */
  lookup?: ResolveHost;
}

/**
 * How long an attempt holds its delivery without a sign of life: renewed while the request runs
 * (holdLease), so a worker that dies mid-attempt frees it within this time.
 */
export function webhookLeaseMs(_config?: Pick<Config, 'WEBHOOK_TIMEOUT_SECONDS'>): number {
  return JOB_LEASE_MS;
}

// ---------------------------------------------------------------------------------------------
// Response objects
// ---------------------------------------------------------------------------------------------

export interface WebhookEndpointDto {
  object: 'webhook_endpoint';
  id: number;
  url: string;
  environment: Environment;
  events: string[];
  headers: Record<string, string>;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptDto {
  /** 1 for the first attempt. */
  attempt: number;
  /** The `X-<Name>-Delivery` header of this attempt. */
  id: string;
  started_at: string;
  /** Null while the attempt is in flight, or when its worker stopped before recording the outcome. */
  duration_ms: number | null;
  status_code: number | null;
  error: string | null;
  error_code: string | null;
  response_excerpt: string | null;
}

export interface WebhookDeliveryDto {
  object: 'webhook_delivery';
  id: number;
  endpoint_id: number;
  event: { id: string; type: string; created_at: string };
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: WebhookAttemptDto[];
}

export interface WebhookDeliveryList {
  object: 'list';
  data: WebhookDeliveryDto[];
  has_more: boolean;
  next_cursor: number | null;
}

interface EndpointRow {
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

export function toWebhookEndpointDto(row: EndpointRow): WebhookEndpointDto {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    environment: row.environment,
    events: [...row.events],
    headers: { ...row.headers },
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
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

// ---------------------------------------------------------------------------------------------
// Endpoint rules
// ---------------------------------------------------------------------------------------------

/**
 * The save-time URL rules: an absolute http:// or https:// URL without credentials whose host
 * resolves only to public addresses (unless WEBHOOK_ALLOW_PRIVATE). The same guard runs again at
 * every delivery. Returns the URL normalised (fragment dropped).
 */
export async function checkWebhookUrl(
  url: unknown,
  opts: Pick<WebhookOptions, 'config' | 'lookup'>,
): Promise<string> {
  if (url === undefined || url === null || (typeof url === 'string' && url.trim() === '')) {
    throw new CoreError('missing_parameter', 'url is required');
  }
  if (typeof url !== 'string') throw new CoreError('invalid_parameter', 'url must be a string');
  const text = url.trim();
  if (text.length > WEBHOOK_URL_MAX_LENGTH) {
    throw new CoreError('invalid_parameter', `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new CoreError('invalid_parameter', 'url must be an absolute http:// or https:// URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CoreError('invalid_parameter', `url must use http:// or https://, not ${parsed.protocol}//`);
  }
  parsed.hash = '';
  try {
    await assertPublicUrl(parsed.href, {
      allowPrivate: opts.config.WEBHOOK_ALLOW_PRIVATE,
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
    });
  } catch (err) {
    if (err instanceof OutboundError) throw new CoreError('invalid_parameter', `url: ${err.message}`);
    throw err;
  }
  return parsed.href;
}

/** The chosen event types in the specification's order; the "on by default" ones when omitted. */
export function checkWebhookEvents(events: unknown): string[] {
  if (events === undefined || events === null) return [...DEFAULT_SUBSCRIBED_EVENT_TYPES];
  if (!Array.isArray(events) || events.length === 0) {
    throw new CoreError('invalid_parameter', 'events must be a non-empty list of event types');
  }
  const chosen = new Set<string>();
  for (const type of events) {
    if (type === 'webhook.test') {
      throw new CoreError(
        'invalid_parameter',
        'events: webhook.test cannot be subscribed to; it is sent to an endpoint on request',
      );
    }
    if (typeof type !== 'string' || !SUBSCRIBABLE_EVENT_TYPES.includes(type)) {
      throw new CoreError(
        'invalid_parameter',
        `events: unknown event type ${JSON.stringify(type)}; expected some of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`,
      );
    }
    chosen.add(type);
  }
  return SUBSCRIBABLE_EVENT_TYPES.filter((t) => chosen.has(t));
}

/** Custom headers: valid HTTP names and values, none the service sets itself, at most 20. */
export function checkWebhookHeaders(headers: unknown, serviceName: string): Record<string, string> {
  if (headers === undefined || headers === null) return {};
  if (typeof headers !== 'object' || Array.isArray(headers)) {
    throw new CoreError('invalid_parameter', 'headers must be an object of header names to values');
  }
  const entries = Object.entries(headers);
  if (entries.length > WEBHOOK_MAX_CUSTOM_HEADERS) {
    throw new CoreError('invalid_parameter', `headers: at most ${WEBHOOK_MAX_CUSTOM_HEADERS} custom headers`);
  }
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (typeof value !== 'string') {
      throw new CoreError(
        'invalid_parameter',
        `headers: the value of ${JSON.stringify(name)} must be a string`,
      );
    }
    if (value.length > WEBHOOK_CUSTOM_HEADER_MAX_LENGTH) {
      throw new CoreError(
        'invalid_parameter',
        `headers: the value of ${JSON.stringify(name)} is longer than ${WEBHOOK_CUSTOM_HEADER_MAX_LENGTH} characters`,
      );
    }
    if (!isAllowedCustomHeader(name, value, serviceName)) {
      throw new CoreError(
        'invalid_parameter',
        `headers: ${JSON.stringify(name)} cannot be sent: not a valid header name or value, or a header the service sets itself`,
      );
    }
    const lower = name.toLowerCase();
    if (seen.has(lower))
      throw new CoreError('invalid_parameter', `headers: ${JSON.stringify(name)} is given twice`);
    seen.add(lower);
    out[name] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Signing secrets at rest: AES-256-GCM under a key derived from the server secret
// ---------------------------------------------------------------------------------------------

const SEALED_PREFIX = 'enc:v1:';
const keyCache = new Map<string, Buffer>();

function secretsKey(config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>): Buffer {
  const cacheKey = config.SECRET_KEY ? `key:${config.SECRET_KEY}` : `dir:${config.DATA_DIR}`;
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = Buffer.from(
      hkdfSync('sha256', serverSecret(config), 'esign', 'webhook endpoint signing secrets', 32),
    );
    keyCache.set(cacheKey, key);
  }
  return key;
}

// Binds a stored secret to its account and side, so a copied column value does not open elsewhere.
const secretAad = (scope: Scope) =>
  Buffer.from(`webhook_endpoints.secret|${scope.accountId}|${scope.environment}`);

function sealEndpointSecret(config: Config, scope: Scope, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretsKey(config), iv);
  cipher.setAAD(secretAad(scope));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${SEALED_PREFIX}${iv.toString('base64url')}.${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

function openEndpointSecret(config: Config, scope: Scope, stored: string): string {
  if (!stored.startsWith(SEALED_PREFIX)) throw new Error('stored webhook secret is not in a known format');
  const [iv, sealed, tag] = stored.slice(SEALED_PREFIX.length).split('.');
  if (!iv || sealed === undefined || !tag) throw new Error('stored webhook secret is malformed');
  const decipher = createDecipheriv('aes-256-gcm', secretsKey(config), Buffer.from(iv, 'base64url'));
  decipher.setAAD(secretAad(scope));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

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

async function findEndpoint(db: Executor, scope: Scope, id: number): Promise<EndpointRow> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint', id);
  return row;
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
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      ...(url === undefined ? {} : { url }),
      ...(events === undefined ? {} : { events: json(events) }),
      ...(headers === undefined ? {} : { headers: json(headers) }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
      updated_at: opts.now(),
    })
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
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: false, updated_at: now })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint', id);
  return toWebhookEndpointDto(row);
}

/** `data` of `webhook.test`: the endpoint, without its secret or custom headers. */
export interface WebhookTestData {
  object: 'webhook_endpoint';
  id: number;
  url: string;
  environment: Environment;
  events: string[];
  enabled: boolean;
  created_at: string;
}

registerEventDataBuilder('webhook_endpoint', async (db, scope, id): Promise<WebhookTestData> => {
  const row = await findEndpoint(db, scope, id);
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    environment: row.environment,
    events: [...row.events],
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
  };
});

// ---------------------------------------------------------------------------------------------
// Fan-out: in the transaction of the change, one delivery per subscribed enabled endpoint
// ---------------------------------------------------------------------------------------------

function deliverJob(deliveryId: number, attempt: number, runAt: Date): EnqueueOptions {
  return {
    kind: WEBHOOK_DELIVER_JOB,
    payload: { deliveryId },
    runAt,
    // One wake-up per attempt: a second enqueue for the same attempt is a no-op.
    uniqueKey: `${WEBHOOK_DELIVER_JOB}:${deliveryId}:${attempt}`,
  };
}

export const fanOutWebhookEvent: EventFanOut = async (tx, event) => {
  // webhook.test goes to the one endpoint it was sent to (sendTestWebhook), whatever it subscribes to.
  if (event.type === 'webhook.test') return;
  const endpoints = await tx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('account_id', '=', event.accountId)
    .where('environment', '=', event.environment)
    .where('enabled', '=', true)
    .where(sql<boolean>`events @> ${json([event.type])}::jsonb`)
    .orderBy('id')
    .execute();
  if (endpoints.length === 0) return;
  const deliveries = await tx
    .insertInto('webhook_deliveries')
    .values(
      endpoints.map((e) => ({
        event_id: event.id,
        endpoint_id: e.id,
        status: 'pending' as const,
        next_attempt_at: event.created_at,
        created_at: event.created_at,
        updated_at: event.created_at,
      })),
    )
    .returning('id')
    .execute();
  for (const d of deliveries) await enqueueJob(tx, deliverJob(d.id, 1, event.created_at));
};

setEventFanOut(fanOutWebhookEvent);

// ---------------------------------------------------------------------------------------------
// Delivery attempts
// ---------------------------------------------------------------------------------------------

const ABANDONED_ERROR = 'The worker stopped before the outcome of this attempt was recorded';

interface ClaimedDelivery {
  id: number;
  attempt: number;
  deliveryUuid: string;
  eventId: string;
  type: string;
  eventCreatedAt: Date;
  objectType: string;
  objectId: number;
  scope: Scope;
  url: string;
  headers: Record<string, string>;
  secret: string;
}

type Claim =
  | { kind: 'attempt'; delivery: ClaimedDelivery }
  | { kind: 'leased'; until: Date }
  | { kind: 'skip' };

/**
 * The common case in one statement: the first attempt of a due, free delivery to an enabled endpoint
 * (or a webhook.test). Two workers racing here serialise on the row; the loser's condition no longer
 * holds (`attempts = 0`) and it gets nothing.
 */
async function claimFirstAttempt(db: Db, deliveryId: number, opts: WebhookOptions): Promise<Claim | null> {
  const now = opts.now();
  const deliveryUuid = randomUUID();
  const row = await db
    .with('claimed', (qb) =>
      qb
        .updateTable('webhook_deliveries as d')
        .from(['webhook_events as e', 'webhook_endpoints as w'])
        .set({
          attempts: 1,
          locked_by: deliveryUuid,
          locked_until: new Date(now.getTime() + webhookLeaseMs(opts.config)),
          updated_at: now,
        })
        .whereRef('e.id', '=', 'd.event_id')
        .whereRef('w.id', '=', 'd.endpoint_id')
        .where('d.id', '=', deliveryId)
        .where('d.status', '=', 'pending')
        .where('d.attempts', '=', 0)
        .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
        .where((eb) => eb.or([eb('d.next_attempt_at', 'is', null), eb('d.next_attempt_at', '<=', now)]))
        .where((eb) => eb.or([eb('w.enabled', '=', true), eb('e.type', '=', 'webhook.test')]))
        .returning([
          'd.id',
          'e.id as event_id',
          'e.type',
          'e.created_at as event_created_at',
          'e.object_type',
          'e.object_id',
          'e.account_id',
          'e.environment',
          'w.url',
          'w.headers',
          'w.secret',
        ]),
    )
    .with('attempt', (qb) =>
      qb
        .insertInto('webhook_attempts')
        .columns(['delivery_id', 'attempt', 'delivery_uuid', 'started_at'])
        .expression((eb) =>
          eb
            .selectFrom('claimed')
            .select((s) => [
              'claimed.id',
              s.lit(1).as('attempt'),
              s.val(deliveryUuid).as('uuid'),
              s.val(now).as('at'),
            ]),
        ),
    )
    .selectFrom('claimed')
    .selectAll()
    .executeTakeFirst();
  if (!row) return null;
  return {
    kind: 'attempt',
    delivery: {
      id: row.id,
      attempt: 1,
      deliveryUuid,
      eventId: row.event_id,
      type: row.type,
      eventCreatedAt: row.event_created_at,
      objectType: row.object_type,
      objectId: row.object_id,
      scope: { accountId: row.account_id, environment: row.environment },
      url: row.url,
      headers: row.headers,
      secret: row.secret,
    },
  };
}

/** Takes the delivery for one attempt if it is pending, due, and not held by another attempt. */
async function claimDelivery(db: Db, deliveryId: number, opts: WebhookOptions): Promise<Claim> {
  const first = await claimFirstAttempt(db, deliveryId, opts);
  if (first) return first;
  return db.transaction().execute(async (tx) => {
    const now = opts.now();
    const row = await tx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .select([
        'd.id',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.locked_until',
        'e.id as event_id',
        'e.type',
        'e.created_at as event_created_at',
        'e.object_type',
        'e.object_id',
        'e.account_id',
        'e.environment',
        'w.url',
        'w.headers',
        'w.secret',
        'w.enabled',
      ])
      .where('d.id', '=', deliveryId)
      .forUpdate('d')
      .skipLocked()
      .executeTakeFirst();
    // Missing, finished, or locked this instant by another worker's claim or outcome: theirs.
    if (row?.status !== 'pending') return { kind: 'skip' };
    if (row.locked_until && row.locked_until > now) return { kind: 'leased', until: row.locked_until };
    // Not due: the wake-up for its next attempt was queued together with next_attempt_at.
    if (row.next_attempt_at && row.next_attempt_at > now) return { kind: 'skip' };

    if (row.attempts > 0) {
      // An attempt whose worker stopped (killed, lost its database) before recording the outcome.
      await tx
        .updateTable('webhook_attempts')
        .set({ error: ABANDONED_ERROR, error_code: 'abandoned' })
        .where('delivery_id', '=', row.id)
        .where('duration_ms', 'is', null)
        .where('error', 'is', null)
        .execute();
    }

    const exhausted =
      row.attempts > 0 &&
      nextRetryDelayForEvent(row.type, row.attempts, opts.config.WEBHOOK_RETRY_BASE_SECONDS) === null;
    const disabled = !row.enabled && row.type !== 'webhook.test';
    if (exhausted || disabled) {
      await tx
        .updateTable('webhook_deliveries')
        .set({
          status: 'failed',
          ...(disabled
            ? { last_error: 'The endpoint was disabled before this event was delivered' }
            : { last_status_code: null, last_error: ABANDONED_ERROR }),
          next_attempt_at: null,
          locked_by: null,
          locked_until: null,
          completed_at: now,
          updated_at: now,
        })
        .where('id', '=', row.id)
        .execute();
      return { kind: 'skip' };
    }

    const attempt = row.attempts + 1;
    const deliveryUuid = randomUUID();
    await tx
      .updateTable('webhook_deliveries')
      .set({
        attempts: attempt,
        locked_by: deliveryUuid,
        locked_until: new Date(now.getTime() + webhookLeaseMs(opts.config)),
        updated_at: now,
      })
      .where('id', '=', row.id)
      .execute();
    // Written before the request goes out, so an attempt whose worker dies stays on record.
    await tx
      .insertInto('webhook_attempts')
      .values({ delivery_id: row.id, attempt, delivery_uuid: deliveryUuid, started_at: now })
      .execute();
    return {
      kind: 'attempt',
      delivery: {
        id: row.id,
        attempt,
        deliveryUuid,
        eventId: row.event_id,
        type: row.type,
        eventCreatedAt: row.event_created_at,
        objectType: row.object_type,
        objectId: row.object_id,
        scope: { accountId: row.account_id, environment: row.environment },
        url: row.url,
        headers: row.headers,
        secret: row.secret,
      },
    };
  });
}

/**
 * `data` at delivery time: the registered builder's view of the object now. When the object is gone
 * (the builder says not_found) or its type has no builder, the last data sent for this object, or
 * failing that a reference `{ object, id }`.
 */
async function eventData(
  db: Db,
  d: ClaimedDelivery,
  config: Config,
  now: Date,
): Promise<{ data: unknown; fresh: boolean }> {
  const builder = eventDataBuilder(d.objectType);
  if (builder) {
    try {
      const data = await builder(db, d.scope, d.objectId, { config, now });
      return { data: data === undefined ? null : data, fresh: true };
    } catch (err) {
      if (!(err instanceof CoreError && err.code === 'not_found')) throw err;
    }
  }
  const last = await db
    .selectFrom('webhook_events')
    .select('data')
    .where('account_id', '=', d.scope.accountId)
    .where('environment', '=', d.scope.environment)
    .where('object_type', '=', d.objectType)
    .where('object_id', '=', d.objectId)
    .where('data', 'is not', null)
    .orderBy(sql`id = ${d.eventId}`, 'desc')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { data: last?.data ?? { object: d.objectType, id: d.objectId }, fresh: false };
}

function internalFailure(errorCode: string, error: string): DeliveryAttemptResult {
  return { ok: false, status: null, durationMs: 0, error, errorCode, responseExcerpt: '' };
}

async function sendAttempt(
  db: Db,
  d: ClaimedDelivery,
  opts: WebhookOptions,
): Promise<{ result: DeliveryAttemptResult; data?: unknown }> {
  const { config } = opts;
  let data: unknown;
  let fresh: boolean;
  try {
    ({ data, fresh } = await eventData(db, d, config, opts.now()));
  } catch (err) {
    opts.logger?.error(
      { err, deliveryId: d.id, eventId: d.eventId },
      'webhook event data could not be built',
    );
    return { result: internalFailure('data_error', 'The event data could not be built (server error)') };
  }
  let secret: string;
  try {
    secret = openEndpointSecret(config, d.scope, d.secret);
  } catch (err) {
    opts.logger?.error({ err, deliveryId: d.id }, 'webhook signing secret could not be decrypted');
    return {
      result: internalFailure(
        'secret_error',
        'The signing secret could not be decrypted (server error: was SECRET_KEY changed?)',
      ),
    };
  }
  const request = buildDeliveryRequest({
    serviceName: config.WEBHOOK_SERVICE_NAME,
    secret,
    event: { id: d.eventId, type: d.type, created_at: d.eventCreatedAt.toISOString(), data },
    deliveryId: d.deliveryUuid,
    customHeaders: d.headers,
    nowSeconds: Math.floor(opts.now().getTime() / 1000),
  });
  const result = await deliverWebhook({
    url: d.url,
    body: request.body,
    headers: request.headers,
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  return fresh ? { result, data } : { result };
}

/** Records the attempt's outcome and, if another attempt is due later, queues its wake-up. */
async function recordOutcome(
  db: Db,
  d: ClaimedDelivery,
  outcome: { result: DeliveryAttemptResult; data?: unknown },
  opts: WebhookOptions,
): Promise<'succeeded' | 'retrying' | 'failed' | 'superseded'> {
  const { result } = outcome;
  const now = opts.now();
  const delay = result.ok
    ? null
    : nextRetryDelayForEvent(d.type, d.attempt, opts.config.WEBHOOK_RETRY_BASE_SECONDS);
  const status = result.ok ? 'succeeded' : delay === null ? 'failed' : 'pending';
  const nextAt = status === 'pending' && delay !== null ? new Date(now.getTime() + delay * 1000) : null;
  const data = 'data' in outcome ? json(outcome.data) : null;
  // One statement: the attempt's outcome, the event's last known data, the delivery's new state.
  const write = (ex: Executor) =>
    ex
      .with('attempt', (qb) =>
        qb
          .updateTable('webhook_attempts')
          .set({
            duration_ms: result.durationMs,
            status_code: result.status,
            error: result.error,
            error_code: result.errorCode,
            response_excerpt: result.responseExcerpt === '' ? null : result.responseExcerpt,
          })
          .where('delivery_uuid', '=', d.deliveryUuid)
          .returning('id'),
      )
      .with('event', (qb) =>
        qb
          .updateTable('webhook_events')
          .set({ data: data ?? sql`data` })
          .where('id', '=', d.eventId)
          .where(data === null ? sql<boolean>`false` : sql<boolean>`data is distinct from ${data}::jsonb`)
          .returning('id'),
      )
      .with('delivery', (qb) =>
        qb
          .updateTable('webhook_deliveries')
          .set({
            status,
            last_status_code: result.status,
            last_error: result.error,
            next_attempt_at: nextAt,
            completed_at: status === 'pending' ? null : now,
            locked_by: null,
            locked_until: null,
            updated_at: now,
          })
          .where('id', '=', d.id)
          // Fencing: only the attempt that still holds the lease decides what happens next.
          .where('locked_by', '=', d.deliveryUuid)
          .returning('id'),
      )
      .selectFrom('delivery')
      .select('id')
      .executeTakeFirst();
  if (!nextAt) return (await write(db)) ? (result.ok ? 'succeeded' : 'failed') : 'superseded';
  // A retry is due later: its wake-up job commits together with next_attempt_at.
  return db.transaction().execute(async (tx) => {
    if (!(await write(tx))) return 'superseded';
    await enqueueJob(tx, deliverJob(d.id, d.attempt + 1, nextAt));
    return 'retrying';
  });
}

/** The attempt's heartbeat: extends its lease while it still holds the delivery. */
async function renewDeliveryLease(db: Db, d: ClaimedDelivery, opts: WebhookOptions): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ locked_until: new Date(opts.now().getTime() + webhookLeaseMs(opts.config)) })
    .where('id', '=', d.id)
    .where('locked_by', '=', d.deliveryUuid)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export type WebhookAttemptOutcome =
  | { kind: 'succeeded' | 'retrying' | 'failed' | 'superseded'; attempt: number; deliveryId: string }
  | { kind: 'leased'; until: Date }
  | { kind: 'skipped' };

/**
 * Makes one attempt of a delivery if it is pending, due and not held by another attempt: builds
 * `data` now, signs, POSTs through the outbound guard, records the attempt, and schedules the next
 * one on the specification's back-off (or marks the delivery failed after the last one). Never
 * throws for a failed delivery; only a database failure escapes.
 */
export async function attemptWebhookDelivery(
  db: Db,
  deliveryId: number,
  opts: WebhookOptions,
): Promise<WebhookAttemptOutcome> {
  const claim = await claimDelivery(db, deliveryId, opts);
  if (claim.kind === 'skip') return { kind: 'skipped' };
  if (claim.kind === 'leased') return claim;
  const d = claim.delivery;
  const lease = holdLease(() => renewDeliveryLease(db, d, opts), {
    leaseMs: webhookLeaseMs(opts.config),
    logger: opts.logger,
    what: `webhook delivery ${d.id}`,
  });
  const outcome = await sendAttempt(db, d, opts)
    .catch((err: unknown) => {
      // A fault of ours (not the receiver's) still ends this attempt on record and on the back-off.
      opts.logger?.error({ err, deliveryId: d.id, eventId: d.eventId }, 'webhook attempt could not be made');
      return {
        result: internalFailure('internal_error', 'The request could not be prepared (server error)'),
      };
    })
    .finally(lease.stop);
  const kind = await recordOutcome(db, d, outcome, opts);
  opts.logger?.info(
    {
      deliveryId: d.id,
      eventId: d.eventId,
      type: d.type,
      attempt: d.attempt,
      status: outcome.result.status,
      errorCode: outcome.result.errorCode,
      durationMs: outcome.result.durationMs,
      outcome: kind,
    },
    'webhook attempt',
  );
  return { kind, attempt: d.attempt, deliveryId: d.deliveryUuid };
}

/**
 * The `webhook.deliver` job. A failed delivery does not throw: the next attempt is queued on the
 * webhook back-off, not the job queue's. `lookup` lets tests inject DNS answers.
 */
export function createWebhookDeliverJob(extra: { lookup?: ResolveHost } = {}): JobHandler {
  return async (ctx, payload) => {
    const deliveryId = Number(payload.deliveryId);
    if (!Number.isSafeInteger(deliveryId))
      throw new Error('webhook.deliver: payload.deliveryId is not an id');
    const outcome = await attemptWebhookDelivery(ctx.db, deliveryId, {
      config: ctx.config,
      now: ctx.now,
      logger: ctx.logger,
      ...(extra.lookup ? { lookup: extra.lookup } : {}),
    });
    if (outcome.kind === 'leased') {
      // An attempt is in flight elsewhere (or its worker died): look again when its lease ends.
      await enqueueJob(ctx.db, {
        kind: WEBHOOK_DELIVER_JOB,
        payload: { deliveryId },
        runAt: new Date(outcome.until.getTime() + 1000),
      });
    }
  };
}

export const webhookDeliverJob: JobHandler = createWebhookDeliverJob();

/**
 * Sends `webhook.test` to one endpoint now, whatever events it subscribes to (and even while it is
 * disabled, so it can be tried before it is switched on), and returns its delivery record. It is
 * never retried. The event and its delivery are committed first; if this process stops before the
 * attempt is recorded, a worker makes the attempt once the lease has run out.
 */
export async function sendTestWebhook(
  db: Db,
  scope: Scope,
  endpointId: number,
  opts: WebhookOptions,
): Promise<WebhookDeliveryDto> {
  const now = opts.now();
  const deliveryId = await db.transaction().execute(async (tx) => {
    await findEndpoint(tx, scope, endpointId);
    const event = await recordEvent(tx, scope, {
      type: 'webhook.test',
      objectType: 'webhook_endpoint',
      objectId: endpointId,
      now,
    });
    const row = await tx
      .insertInto('webhook_deliveries')
      .values({
        event_id: event.id,
        endpoint_id: endpointId,
        status: 'pending',
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueJob(tx, deliverJob(row.id, 1, new Date(now.getTime() + webhookLeaseMs(opts.config) + 1000)));
    return row.id;
  });
  await attemptWebhookDelivery(db, deliveryId, opts);
  return getWebhookDelivery(db, scope, deliveryId);
}

// ---------------------------------------------------------------------------------------------
// Delivery records
// ---------------------------------------------------------------------------------------------

function deliveriesQuery(db: Executor, scope: Scope) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_status_code',
      'd.last_error',
      'd.created_at',
      'd.completed_at',
      'e.id as event_id',
      'e.type as event_type',
      'e.created_at as event_created_at',
    ])
    .where('w.account_id', '=', scope.accountId)
    .where('w.environment', '=', scope.environment);
}

type DeliveryListRow = Awaited<ReturnType<ReturnType<typeof deliveriesQuery>['execute']>>[number];

async function withAttempts(db: Executor, rows: DeliveryListRow[]): Promise<WebhookDeliveryDto[]> {
  const attempts: WebhookAttemptRow[] = rows.length
    ? await db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where(
          'delivery_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('delivery_id')
        .orderBy('attempt')
        .execute()
    : [];
  const byDelivery = new Map<number, WebhookAttemptDto[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id) ?? [];
    list.push({
      attempt: a.attempt,
      id: a.delivery_uuid,
      started_at: a.started_at.toISOString(),
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      error_code: a.error_code,
      response_excerpt: a.response_excerpt,
    });
    byDelivery.set(a.delivery_id, list);
  }
  return rows.map((r) => ({
    object: 'webhook_delivery',
    id: r.id,
    endpoint_id: r.endpoint_id,
    event: { id: r.event_id, type: r.event_type, created_at: r.event_created_at.toISOString() },
    status: r.status,
    attempt_count: r.attempts,
    next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    created_at: r.created_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
    attempts: byDelivery.get(r.id) ?? [],
  }));
}

/** One delivery record with every attempt (time, status code, duration, error, response excerpt). */
export async function getWebhookDelivery(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<WebhookDeliveryDto> {
  const row = await deliveriesQuery(db, scope).where('d.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Webhook delivery', id);
  const [dto] = await withAttempts(db, [row]);
  return dto!;
}

export interface ListWebhookDeliveriesInput {
  endpointId?: number;
  eventId?: string;
  status?: 'pending' | 'succeeded' | 'failed';
  /** 1..100, default 20. */
  limit?: number;
  /** The previous page's `next_cursor`. */
  cursor?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Delivery records of an account side, newest first, in the list envelope of the specification. */
export async function listWebhookDeliveries(
  db: Executor,
  scope: Scope,
  input: ListWebhookDeliveriesInput = {},
): Promise<WebhookDeliveryList> {
  const limit = input.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new CoreError('invalid_parameter', 'limit must be an integer from 1 to 100');
  }
  if (input.status !== undefined && !['pending', 'succeeded', 'failed'].includes(input.status)) {
    throw new CoreError('invalid_parameter', 'status must be one of pending, succeeded, failed');
  }
  if (input.eventId !== undefined && !UUID.test(input.eventId)) {
    throw new CoreError('invalid_parameter', 'event id must be a UUID');
  }
  if (input.endpointId !== undefined) await findEndpoint(db, scope, input.endpointId);
  let q = deliveriesQuery(db, scope)
    .orderBy('d.id', 'desc')
    .limit(limit + 1);
  if (input.endpointId !== undefined) q = q.where('d.endpoint_id', '=', input.endpointId);
  if (input.eventId !== undefined) q = q.where('d.event_id', '=', input.eventId);
  if (input.status !== undefined) q = q.where('d.status', '=', input.status);
  if (input.cursor !== undefined) q = q.where('d.id', '<', input.cursor);
  const rows = await q.execute();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    object: 'list',
    data: await withAttempts(db, page),
    has_more: hasMore,
    next_cursor: hasMore ? page.at(-1)!.id : null,
  };
}
