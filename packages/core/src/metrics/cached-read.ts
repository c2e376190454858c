/** A reading, or the fact that there is none (failed, or not in time). */
export type Reading<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * `read` shared by everyone who asks: its result (success or failure) serves every call for
 * `cacheMs`, at most one `read` runs at a time, and a caller waits at most `waitMs` for it (then
 * gets a failure; the read carries on, and the next caller waits for that same one). So however
 * often and however many at once ask, `read` runs at most once per `cacheMs`, and a read that
 * hangs (a database that does not answer) delays nobody by more than `waitMs`.
 */
export function cachedRead<T>(
  read: () => Promise<T>,
  cacheMs: number,
  waitMs: number,
): () => Promise<Reading<T>> {
  let last: { at: number; reading: Reading<T> } | null = null;
  let running: Promise<Reading<T>> | null = null;
  return async () => {
    if (last && performance.now() - last.at < cacheMs) return last.reading;
    running ??= read()
      .then(
        (value): Reading<T> => ({ ok: true, value }),
        (error: unknown): Reading<T> => ({ ok: false, error }),
      )
      .then((reading) => {
        last = { at: performance.now(), reading };
        running = null;
        return reading;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Reading<T>>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, error: new Error(`no answer within ${waitMs} ms`) }),
        waitMs,
      );
    });
    try {
      return await Promise.race([running, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
