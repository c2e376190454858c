import { z } from 'zod';
import { IdOutput } from './ids.ts';

const Headers = z.record(z.string(), z.string());

export const CreateWebhookEndpointInput = z.object({
  url: z.string().trim().min(1, 'Enter the URL that receives events').max(2048),
  events: z.array(z.string()).min(1, 'Choose at least one event').optional(),
  headers: Headers.optional(),
  enabled: z.boolean().optional(),
});

export const UpdateWebhookEndpointInput = z.object({
  id: IdOutput.positive(),
  url: z.string().trim().min(1).max(2048).optional(),
  events: z.array(z.string()).min(1, 'Choose at least one event').optional(),
  headers: Headers.optional(),
  enabled: z.boolean().optional(),
});

export const WebhookEndpointIdInput = z.object({ id: IdOutput.positive() });

export const ListWebhookDeliveriesInput = z.object({
  endpoint_id: IdOutput.positive().optional(),
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  cursor: z.number().int().positive().optional(),
});
