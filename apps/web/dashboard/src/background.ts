/**
 * Starts work that an event handler or timer cannot await. The work shows its own errors where it
 * has a place for them (a toast, an error note); anything it still throws is reported as an
 * uncaught error is (`reportError`: the console and error monitors), and the page goes on.
 */
export function background(work: Promise<unknown>): void {
  work.catch((err: unknown) => reportError(err));
}
