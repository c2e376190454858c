import type { IdempotencyClaim } from './idempotency.ts';
import type { JobContext } from './jobs.ts';

/**
 * What a service that runs a whole operation needs: the database (it opens the one transaction
 * itself), config, collaborators, logger and clock. A procedure's ctx, a job's ctx and a process
 * runtime with `now` all are one, so the API, the MCP tools, the worker and the CLI run the same
 * service with the same rules and the same after-commit work (mail sent at once).
 */
export type ServiceContext = JobContext & {
  /** A request's Idempotency-Key claim (ctx.idempotency): its outcome commits with the work. */
  idempotency?: IdempotencyClaim | null;
};
