import type { Executor } from '@esign/db';
import { findEventSigners } from '@esign/db/queries/events';
import { findEndpointsByIds } from '@esign/db/queries/webhook-endpoints';
import type { Config } from '../config.ts';
import type { Scope } from '../context.ts';
import { CoreError } from '../errors.ts';
import type { EventObjectType } from './events.ts';
import {
  signatureRequestDtos,
  signatureRequestEventData,
  signerEventData,
  toSignerDto,
} from './signature-requests/dto.ts';
import { requestViews } from './signature-requests/queries.ts';
import { templateEventData } from './templates/dto.ts';
import { toWebhookTestData } from './webhooks/dto.ts';
import { webhookEndpointEventData } from './webhooks/endpoints.ts';

/**
 * Builds an event's `data` at delivery time (the spec: the object's state at delivery time), in the
 * same shape as the API response. Throws `not_found` when the object is gone.
 */
export type EventDataBuilder = (
  db: Executor,
  scope: Scope,
  target: { id: number; config: Config; now: Date },
) => Promise<unknown>;

/** Every object type's builder, in one declaration: an object type without one does not compile. */
const eventDataBuilders = {
  template: templateEventData,
  signature_request: signatureRequestEventData,
  signer: signerEventData,
  webhook_endpoint: webhookEndpointEventData,
} satisfies Record<EventObjectType, EventDataBuilder>;

/** The builder of a stored event's object type; undefined for a type this version does not know. */
export function eventDataBuilder(objectType: string): EventDataBuilder | undefined {
  return Object.hasOwn(eventDataBuilders, objectType)
    ? eventDataBuilders[objectType as EventObjectType]
    : undefined;
}

/**
 * Builds several objects of one type in one account side at once (the worker's batches: a few
 * statements for a batch instead of a few per delivery). The same object as its single builder
 * returns; an id that is not found is absent from the map.
 */
type EventDataBatchBuilder = (
  db: Executor,
  scope: Scope,
  ids: number[],
  ctx: { config: Config; now: Date },
) => Promise<Map<number, unknown>>;

const eventDataBatchBuilders: Partial<Record<EventObjectType, EventDataBatchBuilder>> = {
  webhook_endpoint: async (db, scope, ids) => {
    const rows = await findEndpointsByIds(db, scope, ids);
    return new Map(rows.map((row) => [row.id, toWebhookTestData(row)]));
  },
  signature_request: async (db, scope, ids, ctx) => {
    const rows = await requestViews(db)
      .where('id', 'in', ids)
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .execute();
    const dtos = await signatureRequestDtos(db, rows, { ...ctx, withValues: true });
    return new Map(dtos.map((dto) => [dto.id, dto]));
  },
  signer: async (db, scope, ids, ctx) => {
    const signers = await findEventSigners(db, scope, ids);
    if (signers.length === 0) return new Map();
    const requests = await requestViews(db)
      .where('id', 'in', [...new Set(signers.map((s) => s.signature_request_id))])
      .execute();
    const byId = new Map(requests.map((r) => [r.id, r]));
    return new Map(
      signers.map((s) => {
        const request = byId.get(s.signature_request_id)!;
        const o = { ...ctx, withValues: true, archived: request.template_archived };
        return [s.id, toSignerDto(s, request, o)];
      }),
    );
  },
};

/** One object an event is about, in its account side. */
export interface EventObjectRef {
  objectType: string;
  objectId: number;
  scope: Scope;
}

const refKey = (r: EventObjectRef) =>
  `${r.objectType}|${r.scope.accountId}|${r.scope.environment}|${r.objectId}`;

/** One object's single builder, not_found as absent (the batch form of a builder without one). */
async function buildOne(db: Executor, ref: EventObjectRef, ctx: { config: Config; now: Date }) {
  try {
    return {
      found: true,
      data: await eventDataBuilder(ref.objectType)!(db, ref.scope, { id: ref.objectId, ...ctx }),
    };
  } catch (err) {
    if (err instanceof CoreError && err.code === 'not_found') return { found: false, data: undefined };
    throw err;
  }
}

/**
 * The `data` of many events' objects now, each object built once: grouped by type and account
 * side, one batch builder call per group (single builders, concurrently, for a type without one).
 * `get` answers the object's data, undefined when it is not found or its type has no builder (the
 * caller falls back to the last data sent), or the Error its group's build threw.
 */
export async function buildEventDataMany(
  db: Executor,
  refs: EventObjectRef[],
  ctx: { config: Config; now: Date },
): Promise<{ get(ref: EventObjectRef): { data: unknown } | Error | undefined }> {
  const groups = new Map<string, { refs: EventObjectRef[]; ids: Set<number> }>();
  for (const ref of refs) {
    if (!eventDataBuilder(ref.objectType)) continue;
    const key = `${ref.objectType}|${ref.scope.accountId}|${ref.scope.environment}`;
    const group = groups.get(key) ?? { refs: [], ids: new Set() };
    if (!group.ids.has(ref.objectId)) group.refs.push(ref);
    group.ids.add(ref.objectId);
    groups.set(key, group);
  }
  const built = new Map<string, { data: unknown } | Error>();
  await Promise.all(
    [...groups.values()].map(async ({ refs: group }) => {
      const first = group[0]!;
      const batch = eventDataBatchBuilders[first.objectType as EventObjectType];
      try {
        if (batch) {
          const found = await batch(db, first.scope, [...new Set(group.map((r) => r.objectId))], ctx);
          for (const ref of group)
            if (found.has(ref.objectId)) built.set(refKey(ref), { data: found.get(ref.objectId) });
        } else {
          await Promise.all(
            group.map(async (ref) => {
              const one = await buildOne(db, ref, ctx);
              if (one.found) built.set(refKey(ref), { data: one.data });
            }),
          );
        }
      } catch (err) {
        for (const ref of group) built.set(refKey(ref), err instanceof Error ? err : new Error(String(err)));
      }
    }),
  );
  return { get: (ref) => built.get(refKey(ref)) };
}
