import { describe, expect, it } from 'vitest';
import { type PageSize, pageRuns, snapshotPageRuns } from '../src/services/request-model.ts';

// Issue 18: a request's snapshot keeps its documents' page sizes as runs of equal pages
// (`page_sizes`), read by every signing procedure, and signing.open answers them as they are.

describe('page sizes in the snapshot (page_sizes runs)', () => {
  it('a 5,000-page document of one size is one run', () => {
    const pages: PageSize[] = Array.from({ length: 5000 }, () => ({ width: 612, height: 792 }));
    const runs = pageRuns(pages);
    expect(runs).toEqual([[5000, 612, 792]]);
    expect(JSON.stringify(runs).length).toBeLessThan(20);
    expect(snapshotPageRuns({ page_sizes: runs })).toBe(runs);
  });

  it('mixed sizes keep their order: a landscape page between portrait ones is its own run', () => {
    const a4 = { width: 595.28, height: 841.89 };
    const landscape = { width: 841.89, height: 595.28 };
    const pages = [a4, a4, landscape, a4, { width: 612, height: 792 }];
    const runs = pageRuns(pages);
    expect(runs).toEqual([
      [2, 595.28, 841.89],
      [1, 841.89, 595.28],
      [1, 595.28, 841.89],
      [1, 612, 792],
    ]);
    const back = runs.flatMap(([count, width, height]) =>
      Array.from({ length: count }, () => ({ width, height })),
    );
    expect(back).toEqual(pages);
  });

  it('older snapshots (every page in `pages`) read as runs, documents without pages as none', () => {
    const pages = [
      { width: 100, height: 200 },
      { width: 100, height: 200 },
    ];
    expect(snapshotPageRuns({ pages })).toEqual([[2, 100, 200]]);
    expect(snapshotPageRuns({})).toEqual([]);
    expect(pageRuns([])).toEqual([]);
  });
});
