import { sendFeedback } from '../services/feedback.ts';
import { actorProcedure, router } from '../trpc.ts';
import { FeedbackOutput, SendFeedbackInput } from './feedback.schemas.ts';

export const feedbackRouter = router({
  // Read-only keys may send feedback (Authentication rule 5).
  send: actorProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/feedback',
        tags: ['Feedback'],
        summary: 'Send a bug report, feature request, feedback or question to the operator',
      },
      successStatus: 201,
      mcp: {
        tool: 'send_feedback',
        scope: 'read',
        description:
          'Sends a bug report, feature request, feedback or question to the service operator (at most 20 per hour).',
      },
    })
    .input(SendFeedbackInput)
    .output(FeedbackOutput)
    .mutation(async ({ ctx, input }) => {
      const operatorEmail =
        ctx.config.OPERATOR_EMAIL ?? ctx.config.MAIL_FROM.replace(/^.*<([^>]+)>.*$/, '$1');
      const row = await ctx.db
        .transaction()
        .execute((tx) =>
          sendFeedback(tx, ctx.actor, input, { now: ctx.now(), source: ctx.source, operatorEmail }),
        );
      return {
        object: 'feedback' as const,
        id: row.id,
        kind: row.kind as (typeof input)['kind'],
        message: row.message,
        source: row.source,
        created_at: row.created_at.toISOString(),
      };
    }),
});
