import type { AppRouter } from '@esign/core';
import type { inferRouterOutputs } from '@trpc/server';

/** What each procedure answers, for the props of components that show part of an answer. */
export type Outputs = inferRouterOutputs<AppRouter>;
