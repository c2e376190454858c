import type { Config, CoreDeps } from '@esign/core';
import type { Db } from '@esign/db';
import type { Logger } from 'pino';

/** What the REST adapter is built with; every part of it (routes, handler) reads the same. */
export interface RestApiOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now?: () => Date;
}
