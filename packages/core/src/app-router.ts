import { accountRouter } from './routers/account.ts';
import { feedbackRouter } from './routers/feedback.ts';
import { templatesRouter } from './routers/templates.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  account: accountRouter,
  feedback: feedbackRouter,
  templates: templatesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
