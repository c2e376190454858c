import { callProcedure } from './app-router.ts';
import type { Ctx } from './context.ts';
import type { CommittedOutcome, IdempotentResourceType } from './services/idempotency.ts';

/** The read that shows each kind of resource an idempotent request makes, and its id's type. */
const READ_OF: Record<IdempotentResourceType, { procedure: string; numericId: boolean }> = {
  signature_request: { procedure: 'signatureRequests.get', numericId: true },
  template: { procedure: 'templates.get', numericId: true },
  checkout: { procedure: 'billing.getCheckout', numericId: false },
  bulk_send: { procedure: 'bulkSends.get', numericId: true },
};

/**
 * The answer of an idempotent request whose work committed but whose answer was never stored (its
 * process died in between): the answer recorded with the work, or else the resource the work made
 * as its read procedure shows it now, with the caller's rules (JSON, as the stored answers are).
 */
export async function replayCommittedOutcome(ctx: Ctx, outcome: CommittedOutcome): Promise<string> {
  if (outcome.body !== null) return outcome.body;
  const read = READ_OF[outcome.resourceType];
  const id = read.numericId ? Number(outcome.resourceId) : outcome.resourceId;
  return JSON.stringify(await callProcedure(ctx, read.procedure, { id }));
}
