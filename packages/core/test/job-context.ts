import type { Db } from '@esign/db';
import { type Config, createCoreDeps, createLogger, type JobContext, parseConfig } from '../src/index.ts';

/** What a worker runs jobs with, over a test database: silent logs, the config's deps, a clock. */
export function testJobContext(
  db: Db,
  config: Config = parseConfig({}),
  now: () => Date = () => new Date(),
): JobContext {
  return { db, logger: createLogger('silent', 'test'), config, deps: createCoreDeps(config), now };
}
