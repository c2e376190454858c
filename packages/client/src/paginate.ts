import type { EsignClient } from './client.ts';
import type { paths } from './openapi.ts';

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type ListBody<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } }
  ? JsonOf<R>
  : never;

/** The paths whose GET answers the list envelope (`data`, `has_more`, `next_cursor`). */
export type ListPath = {
  [P in keyof paths]: ListBody<P> extends { data: unknown[]; has_more: boolean } ? P : never;
}[keyof paths];

/** One item of a list path. */
export type ListItem<P extends ListPath> = ListBody<P> extends { data: (infer T)[] } ? T : never;

/** A list path's query, without `cursor` (the iterator sets it). */
export type ListQuery<P extends ListPath> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? Omit<NonNullable<Q>, 'cursor'>
  : never;

/**
 * Every item of a list, page after page (spec, Pagination: continue while `has_more`, with
 * `cursor` = the previous `next_cursor`), fetched as the loop asks for them.
 *
 * ```ts
 * for await (const template of paginate(esign, '/templates', { limit: 100 })) console.log(template.name);
 * ```
 */
export async function* paginate<P extends ListPath>(
  client: EsignClient,
  path: P,
  query?: ListQuery<P>,
): AsyncGenerator<ListItem<P>, void, undefined> {
  let cursor: number | null | undefined;
  do {
    const get = client.GET as (p: string, o: unknown) => Promise<{ data?: unknown }>;
    const { data } = await get(path, { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } });
    const page = data as { data: ListItem<P>[]; has_more: boolean; next_cursor: number | null };
    yield* page.data;
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
}
