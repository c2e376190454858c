/** PostgreSQL's limit on bind parameters in one statement (a 16-bit count in the protocol). */
export const MAX_STATEMENT_PARAMETERS = 65_535;

/**
 * Runs one statement per chunk of `rows`, each chunk small enough that `parametersPerRow` bind
 * parameters per row stay under PostgreSQL's limit, in order, on the caller's executor (inside the
 * caller's transaction, so all chunks commit or none). Returns the chunks' results concatenated.
 */
export async function insertInChunks<R, T>(
  rows: readonly R[],
  parametersPerRow: number,
  run: (chunk: R[]) => Promise<T[]>,
): Promise<T[]> {
  if (rows.length === 0) return [];
  const size = Math.max(1, Math.floor(MAX_STATEMENT_PARAMETERS / Math.max(1, parametersPerRow)));
  const out: T[] = [];
  for (let start = 0; start < rows.length; start += size) {
    out.push(...(await run(rows.slice(start, start + size))));
  }
  return out;
}
