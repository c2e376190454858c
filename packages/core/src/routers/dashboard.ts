import { scopeOf } from '../context.ts';
import { IdInput, RequestIdsInput } from '../contracts/signature-requests.ts';
import { ListTemplatesInput } from '../contracts/templates.ts';
import {
  accountOverview,
  listFolders,
  requestsWithSmsProblems,
  requestTimeline,
} from '../services/dashboard/activity.ts';
import { listTemplateCardsPage, requestDocuments } from '../services/dashboard/documents.ts';
import { accountMessageBacklog } from '../services/outbox-retry.ts';
import { actorProcedure, adminReadProcedure, router } from '../trpc.ts';

/** Read-only views the dashboard needs beyond the REST resources (no `openapi`/`mcp` meta). */
export const dashboardRouter = router({
  overview: actorProcedure.query(({ ctx }) => accountOverview(ctx.db, scopeOf(ctx.actor), ctx.now())),
  folders: actorProcedure.query(({ ctx }) => listFolders(ctx.db, scopeOf(ctx.actor))),
  requestTimeline: actorProcedure
    .input(IdInput)
    .query(({ ctx, input }) => requestTimeline(ctx.db, scopeOf(ctx.actor), input.id)),
  /** Of a page of the requests list, the requests with an SMS that did not reach its signer. */
  smsProblems: actorProcedure
    .input(RequestIdsInput)
    .query(({ ctx, input }) => requestsWithSmsProblems(ctx.db, scopeOf(ctx.actor), input.ids)),
  /** The templates list with each template's thumbnail and page, field and document counts. */
  templates: actorProcedure
    .input(ListTemplatesInput)
    .query(({ ctx, input }) => listTemplateCardsPage(ctx, scopeOf(ctx.actor), input)),
  /** A request's documents (sealed pages once completed) and every field with its value so far. */
  requestDocuments: actorProcedure
    .input(IdInput)
    .query(({ ctx, input }) => requestDocuments(ctx, scopeOf(ctx.actor), input.id)),
  /** Admins: this account side's emails and SMS still being retried, and those given up (issue 41). */
  messageBacklog: adminReadProcedure.query(({ ctx }) => accountMessageBacklog(ctx, scopeOf(ctx.actor))),
});
