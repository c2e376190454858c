import { accountRouter } from './routers/account.ts';
import { feedbackRouter } from './routers/feedback.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  account: accountRouter,
  feedback: feedbackRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
