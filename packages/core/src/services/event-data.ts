import type { Db } from '@esign/db';
import type { Config } from '../config.ts';
import type { Scope } from '../context.ts';
import type { EventObjectType } from './events.ts';
import { signatureRequestEventData, signerEventData } from './signature-requests/dto.ts';
import { templateEventData } from './templates/dto.ts';
import { webhookEndpointEventData } from './webhooks/endpoints.ts';

/**
 * Builds an event's `data` at delivery time (the spec: the object's state at delivery time), in the
 * same shape as the API response. Throws `not_found` when the object is gone.
 */
export type EventDataBuilder = (
  db: Db,
  scope: Scope,
  objectId: number,
  ctx: { config: Config; now: Date },
) => Promise<unknown>;

/** Every object type's builder, in one declaration: an object type without one does not compile. */
export const eventDataBuilders = {
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
