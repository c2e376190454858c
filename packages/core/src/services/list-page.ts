// The list envelope of the specification, in one place: a query asks for `limit + 1` rows, newest
// first, below the cursor; the extra row only says whether there is a next page.

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  /** The id of the page's last row while more follow; the next request passes it as `cursor`. */
  next_cursor: number | null;
}

/** Cuts the `limit + 1` rows of a query to one page and shows the page's rows as `toData` does. */
export async function listPage<R extends { id: number }, T>(
  rows: R[],
  limit: number,
  toData: (page: R[]) => Promise<T[]>,
): Promise<ListPage<T>> {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    object: 'list',
    data: await toData(page),
    has_more: hasMore,
    next_cursor: hasMore ? page.at(-1)!.id : null,
  };
}

/** An ILIKE pattern matching text that contains `term`, its `\`, `%` and `_` taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
