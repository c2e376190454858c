/**
 * The signing procedures' shapes as the page uses them, inferred from the
 * server's router: a changed procedure fails the page's type check. Type-only imports, so nothing of
 * the server reaches the browser bundle.
 */
import type { AppRouter } from '@esign/core';
import type { inferRouterOutputs } from '@trpc/server';

export type { FieldType, FieldValue, FileValue } from '@esign/domain';

type SigningOutputs = inferRouterOutputs<AppRouter>['signing'];

/** What signing.open answers. */
export type OpenResult = SigningOutputs['open'];
export type SigningField = OpenResult['fields'][number];
/** Fractions of the page size; `page` is 1-based, `document` the 0-based document index. */
export type Area = SigningField['areas'][number];
export type DocumentInfo = OpenResult['documents'][number];
/** One page of a document: its 1-based number and its size in points. */
export interface PageInfo {
  number: number;
  width: number;
  height: number;
}
