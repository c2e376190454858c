import type { Environment } from './schema.ts';

/** One account side: every resource row belongs to exactly one (account, environment). */
export interface Scope {
  accountId: number;
  environment: Environment;
}
