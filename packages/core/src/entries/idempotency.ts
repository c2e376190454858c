/** @esign/core/idempotency: the REST adapter's Idempotency-Key steps (apps/api, README "Idempotency"). */
// biome-ignore-all assist/source/organizeImports: the exports stay in their commented groups

// Idempotency-Key: claim a key, record or release the outcome, and replay a committed one.
export { replayCommittedOutcome } from '../idempotent-replay.ts';
export {
  beginIdempotent,
  type CommittedOutcome,
  completeIdempotent,
  type IdempotencyClaim,
  type IdempotencyRequest,
  releaseIdempotent,
} from '../services/idempotency.ts';
