import { scopeOf } from '../context.ts';
import { IdInput } from '../contracts/signature-requests.ts';
import { accountOverview, listFolders, requestTimeline } from '../services/dashboard/activity.ts';
import { actorProcedure, router } from '../trpc.ts';

/** Read-only views the dashboard needs beyond the REST resources (no `openapi`/`mcp` meta). */
export const dashboardRouter = router({
  overview: actorProcedure.query(({ ctx }) => accountOverview(ctx.db, scopeOf(ctx.actor), ctx.now())),
  folders: actorProcedure.query(({ ctx }) => listFolders(ctx.db, scopeOf(ctx.actor))),
  requestTimeline: actorProcedure
    .input(IdInput)
    .query(({ ctx, input }) => requestTimeline(ctx.db, scopeOf(ctx.actor), input.id)),
});
