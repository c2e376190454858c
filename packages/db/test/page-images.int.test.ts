import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findPageRenderFailure,
  insertPageRenderFailure,
  listPageRenderFailures,
} from '../src/queries/page-images.ts';

// Issue 29 item 4: a page that could not be rendered is remembered, but only from `since` on, so
// the service can try a page again after its retry window; a later failure replaces an earlier one.

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.drop());

const at = (iso: string) => new Date(iso);

describe('page_render_failures queries (issue 29 item 4)', () => {
  it('a failure counts from since on; a later failure of the same page replaces it', async () => {
    const storageKey = `templates/1/${Date.now()}.pdf`;
    await insertPageRenderFailure(tdb.db, {
      storageKey,
      page: 3,
      reason: 'over the time limit',
      now: at('2026-11-27T10:00:00Z'),
    });
    const found = await findPageRenderFailure(tdb.db, {
      storageKey,
      page: 3,
      since: at('2026-11-27T09:30:00Z'),
    });
    expect(found).toMatchObject({ page: 3, reason: 'over the time limit' });
    expect(
      await findPageRenderFailure(tdb.db, { storageKey, page: 3, since: at('2026-11-27T10:30:00Z') }),
    ).toBeUndefined();
    expect(
      await findPageRenderFailure(tdb.db, { storageKey, page: 4, since: at('2026-11-27T09:00:00Z') }),
    ).toBeUndefined();

    await insertPageRenderFailure(tdb.db, {
      storageKey,
      page: 3,
      reason: 'over the memory limit',
      now: at('2026-11-27T12:00:00Z'),
    });
    const again = await findPageRenderFailure(tdb.db, {
      storageKey,
      page: 3,
      since: at('2026-11-27T11:30:00Z'),
    });
    expect(again).toMatchObject({ reason: 'over the memory limit' });
    expect(again?.failed_at.toISOString()).toBe('2026-11-27T12:00:00.000Z');

    await insertPageRenderFailure(tdb.db, {
      storageKey,
      page: 1,
      reason: 'x',
      now: at('2026-11-27T12:00:00Z'),
    });
    expect(await listPageRenderFailures(tdb.db, { storageKey, since: at('2026-11-27T11:00:00Z') })).toEqual([
      1, 3,
    ]);
    expect(await listPageRenderFailures(tdb.db, { storageKey, since: at('2026-11-27T13:00:00Z') })).toEqual(
      [],
    );
  });
});
