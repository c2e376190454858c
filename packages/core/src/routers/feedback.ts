import { FeedbackOutput, SendFeedbackInput } from '../contracts/feedback.ts';
import { sendFeedback } from '../services/feedback.ts';
import { actorProcedure, router } from '../trpc.ts';

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
        title: 'Send feedback',
        hints: { readOnly: false, openWorld: true },
        scope: 'read',
        description:
          'Sends a bug report, feature request, feedback or question to the service operator (at most 20 per hour).',
      },
    })
    .input(SendFeedbackInput)
    .output(FeedbackOutput)
    .mutation(({ ctx, input }) => sendFeedback(ctx, ctx.actor, { ...input, source: ctx.source })),
});
