import { CoreError } from '../errors.ts';

/** How long the read of a committed change's result is retried. */
const READ_AFTER_COMMIT_MS = 15_000;

/**
 * Reads the result of a change that has committed (the 201 of a create). The change is done, so a
 * failure here must not become an error answer: the client's retry would do it again (the spec
 * releases an Idempotency-Key on any failure), and a create's clean-up would undo part of it. A
 * read that fails for a reason other than a rule (a dropped connection, a database restart) is
 * tried again, waiting 100 ms doubling to 2 s, for up to 15 s, before its error is passed on.
 */
export async function readAfterCommit<T>(read: () => Promise<T>, forMs = READ_AFTER_COMMIT_MS): Promise<T> {
  const until = Date.now() + forMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      return await read();
    } catch (err) {
      if (err instanceof CoreError || Date.now() + wait > until) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
