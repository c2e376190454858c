/**
 * Most procedures one `/trpc/...?batch=1` request may run (issue 29 item 2): the dashboard's
 * batching link sends at most this many (it splits a larger set of calls into several requests);
 * the server refuses a larger batch with 422 `invalid_request`, and counts each call of a smaller
 * one against the caller's rate limit.
 */
export const TRPC_MAX_BATCH = 10;
