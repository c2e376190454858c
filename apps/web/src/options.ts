import type { Config, CoreDeps } from '@esign/core';
import type { Db } from '@esign/db';
import type { Logger } from 'pino';

export interface WebOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now?: () => Date;
}

/** What every route module of the web app is registered with: the options and one clock. */
export type WebRouteOptions = WebOptions & { now: () => Date };
