import { SOURCES } from '@esign/domain';
import { z } from 'zod';
import { DateTime, IdOutput } from './ids.ts';

const FEEDBACK_KINDS = ['bug_report', 'feature_request', 'feedback', 'question'] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];

export const SendFeedbackInput = z.object({
  kind: z.enum(FEEDBACK_KINDS).describe('bug_report, feature_request, feedback or question'),
  message: z.string().trim().min(1).max(10_000).describe('What to tell the operator'),
});

export const FeedbackOutput = z.object({
  object: z.literal('feedback'),
  id: IdOutput,
  kind: z.enum(FEEDBACK_KINDS),
  message: z.string(),
  source: z
    .string()
    .meta({ enum: [...SOURCES], examples: ['api'] })
    .describe('where the record was created: api, mcp, invite (dashboard), link, bulk, embed'),
  created_at: DateTime,
});
