import { accountRouter } from './routers/account.ts';
import { billingRouter } from './routers/billing.ts';
import { documentsRouter } from './routers/documents.ts';
import { feedbackRouter } from './routers/feedback.ts';
import { signatureRequestsRouter } from './routers/signature-requests.ts';
import { signersRouter } from './routers/signers.ts';
import { signingRouter } from './routers/signing.ts';
import { templatesRouter } from './routers/templates.ts';
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
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
