import type { Ctx } from './context.ts';
import { accountRouter } from './routers/account.ts';
import { apiKeysRouter } from './routers/api-keys.ts';
import { authRouter } from './routers/auth.ts';
import { billingRouter } from './routers/billing.ts';
import { brandsRouter } from './routers/brands.ts';
import { bulkSendsRouter } from './routers/bulk-sends.ts';
import { connectedAppsRouter } from './routers/connected-apps.ts';
import { dashboardRouter } from './routers/dashboard.ts';
import { documentsRouter } from './routers/documents.ts';
import { embedRouter } from './routers/embed.ts';
import { feedbackRouter } from './routers/feedback.ts';
import { membersRouter } from './routers/members.ts';
import { passkeysRouter } from './routers/passkeys.ts';
import { recipientsRouter } from './routers/recipients.ts';
import { remindersRouter } from './routers/reminders.ts';
import { sessionsRouter } from './routers/sessions.ts';
import { signatureRequestsRouter } from './routers/signature-requests.ts';
import { signersRouter } from './routers/signers.ts';
import { signingRouter } from './routers/signing.ts';
import { linksRouter, signingLinksRouter } from './routers/signing-links.ts';
import { ssoRouter } from './routers/sso.ts';
import { templatesRouter } from './routers/templates.ts';
import { twoStepRouter } from './routers/two-step.ts';
import { webhookEndpointsRouter } from './routers/webhook-endpoints.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  account: accountRouter,
  billing: billingRouter,
  documents: documentsRouter,
  feedback: feedbackRouter,
  templates: templatesRouter,
  signatureRequests: signatureRequestsRouter,
  signers: signersRouter,
  signing: signingRouter,
  // More ways to send (docs/sending.md): public links, bulk sends, embedding.
  signingLinks: signingLinksRouter,
  links: linksRouter,
  bulkSends: bulkSendsRouter,
  embed: embedRouter,
  // Issue 34.2: the account's default automatic reminders (dashboard only).
  reminders: remindersRouter,
  // Dashboard only (README, "Dashboard"): no REST route or MCP tool.
  auth: authRouter,
  sessions: sessionsRouter,
  twoStep: twoStepRouter,
  passkeys: passkeysRouter,
  sso: ssoRouter,
  connectedApps: connectedAppsRouter,
  members: membersRouter,
  apiKeys: apiKeysRouter,
  webhookEndpoints: webhookEndpointsRouter,
  dashboard: dashboardRouter,
  // Issue 34: default CC / notify addresses (dashboard) and the CC read-only page.
  recipients: recipientsRouter,
  // Issue 44: brands (REST /brands; MCP through get_account and brand_id).
  brands: brandsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);

/**
 * Calls the procedure at a dot-separated router path (`templates.list`, from `procedureMeta`)
 * through `createCaller`, for adapters that find procedures by their meta (REST, MCP).
 */
export function callProcedure(ctx: Ctx, path: string, input: unknown): Promise<unknown> {
  let target: unknown = createCaller(ctx);
  for (const key of path.split('.')) target = (target as Record<string, unknown>)[key];
  return (target as (input: unknown) => Promise<unknown>)(input);
}
