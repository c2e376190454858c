/**
 * Tests that need something outside the repository (a browser, a command-line tool, the
 * specification beside the checkout, root) ask here whether they run.
 *
 * - It is there: they run.
 * - It is missing on a developer's machine: they are skipped, and the skip is printed (never
 *   silently), with what to install.
 * - It is missing under CI (`CI` set, other than `false` or `0`): they run anyway and fail on the
 *   missing piece, so a CI run never passes with tests that did not run.
 */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return !!ci && ci !== 'false' && ci !== '0';
}

/**
 * Whether the tests needing `what` run here (see above). `hint` says how to provide it; under CI
 * the tests then fail on the missing piece themselves (a thrown ENOENT, a launch error).
 */
export function requirement(
  what: string,
  present: boolean,
  hint: string,
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = (line) => process.stderr.write(line),
): boolean {
  if (present) return true;
  if (inCI(env)) {
    log(`${what} is missing and CI is set: the tests that need it run and fail (${hint})\n`);
    return true;
  }
  log(`skipped: tests that need ${what} (missing here; ${hint}; under CI=true they fail instead)\n`);
  return false;
}
