import { DEFAULT_SUBSCRIBED_EVENT_TYPES } from '@esign/webhooks';
import type { Ctx } from '../context.ts';
import { scopeOf } from '../context.ts';
import {
  CreateWebhookEndpointInput,
  ListWebhookDeliveriesInput,
  UpdateWebhookEndpointInput,
  WebhookEndpointIdInput,
} from '../contracts/webhook-endpoints.ts';
import {
  retryWebhookDelivery,
  revealWebhookSecret,
  rotateWebhookSecret,
} from '../services/dashboard/webhooks.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  SUBSCRIBABLE_EVENT_TYPES,
  sendTestWebhook,
  updateWebhookEndpoint,
  type WebhookOptions,
} from '../services/webhooks/index.ts';
import { adminProcedure, adminReadProcedure, router } from '../trpc.ts';

const opts = (ctx: Ctx): WebhookOptions => ({ config: ctx.config, now: ctx.now, logger: ctx.logger });

/** Webhook endpoints of the account side the session looks at (admins only; dashboard procedures). */
export const webhookEndpointsRouter = router({
  list: adminReadProcedure.query(async ({ ctx }) => ({
    endpoints: await listWebhookEndpoints(ctx.db, scopeOf(ctx.actor)),
    event_types: [...SUBSCRIBABLE_EVENT_TYPES],
    default_event_types: [...DEFAULT_SUBSCRIBED_EVENT_TYPES],
  })),

  get: adminReadProcedure
    .input(WebhookEndpointIdInput)
    .query(({ ctx, input }) => getWebhookEndpoint(ctx.db, scopeOf(ctx.actor), input.id)),

  /** The signing secret is in this response; later it can be revealed or rotated. */
  create: adminProcedure.input(CreateWebhookEndpointInput).mutation(({ ctx, input }) =>
    createWebhookEndpoint(ctx.db, scopeOf(ctx.actor), {
      input: { ...input, createdByUserId: ctx.actor.userId },
      ...opts(ctx),
    }),
  ),

  update: adminProcedure.input(UpdateWebhookEndpointInput).mutation(({ ctx, input }) => {
    const { id, ...patch } = input;
    return updateWebhookEndpoint(ctx.db, scopeOf(ctx.actor), { id, input: patch, ...opts(ctx) });
  }),

  /** Deletes the endpoint with its delivery records (docs/webhooks.md, Endpoints). */
  delete: adminProcedure
    .input(WebhookEndpointIdInput)
    .mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.db, scopeOf(ctx.actor), { id: input.id })),

  revealSecret: adminProcedure
    .input(WebhookEndpointIdInput)
    .mutation(({ ctx, input }) =>
      revealWebhookSecret(ctx.db, scopeOf(ctx.actor), { id: input.id, ...opts(ctx) }),
    ),

  rotateSecret: adminProcedure
    .input(WebhookEndpointIdInput)
    .mutation(({ ctx, input }) =>
      rotateWebhookSecret(ctx.db, scopeOf(ctx.actor), { id: input.id, ...opts(ctx) }),
    ),

  /** Sends `webhook.test` now and returns its delivery record. */
  test: adminProcedure
    .input(WebhookEndpointIdInput)
    .mutation(({ ctx, input }) =>
      sendTestWebhook(ctx, scopeOf(ctx.actor), { endpointId: input.id, ...opts(ctx) }),
    ),

  deliveries: adminReadProcedure.input(ListWebhookDeliveriesInput).query(({ ctx, input }) =>
    listWebhookDeliveries(ctx.db, scopeOf(ctx.actor), {
      ...(input.endpoint_id !== undefined ? { endpointId: input.endpoint_id } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
    }),
  ),

  /** "Retry now" on a delivery record. */
  retryDelivery: adminProcedure
    .input(WebhookEndpointIdInput)
    .mutation(({ ctx, input }) =>
      retryWebhookDelivery(ctx, scopeOf(ctx.actor), { id: input.id, ...opts(ctx) }),
    ),
});
