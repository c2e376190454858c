import type { Db } from '@esign/db';
import { type Config, parseConfig } from '../src/config.ts';
import { createCoreDeps } from '../src/context.ts';
import { createLogger } from '../src/logger.ts';
import type { JobContext } from '../src/services/jobs.ts';

/** What a worker runs jobs with, over a test database: silent logs, the config's deps, a clock. */
export function testJobContext(
  db: Db,
  config: Config = parseConfig({}),
  now: () => Date = () => new Date(),
): JobContext {
  return { db, logger: createLogger('silent', 'test'), config, deps: createCoreDeps(config), now };
}
