import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 28, item 1: core decides, packages/db fetches. No file of packages/core/src builds SQL:
// every statement is a function in @esign/db/queries/<resource>.ts (packages/db/README.md).

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** All of core's source, unit tests beside it excepted. */
const OWNED = ['.'];

/** What builds SQL: Kysely's query builders, raw `sql` fragments and CTEs, or any import of kysely. */
const QUERY_BUILDING =
  /selectFrom|insertInto|updateTable|deleteFrom|selectNoFrom|sql`|sql<|\.with\(|from 'kysely'/;

function filesUnder(path: string): string[] {
  const full = join(src, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(full, name));
}

/** `file:line: text` for each line of `source` that builds SQL. */
function queryLines(name: string, source: string): string[] {
  return source
    .split('\n')
    .flatMap((line, i) => (QUERY_BUILDING.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : []));
}

describe('query layer (issue 28, item 1)', () => {
  it('no file of packages/core/src builds SQL: every statement is in @esign/db/queries', () => {
    const found = OWNED.flatMap(filesUnder).flatMap((file) =>
      queryLines(relative(src, file), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('the check sees a query builder, a raw sql fragment and a kysely import', () => {
    const sample = [
      "const row = await db.selectFrom('users').selectAll().execute();",
      'const n = sql<number>`count(*)`;',
      "import { sql } from 'kysely';",
      "const ok = await findUserByEmail(db, 'a@example.com');",
    ].join('\n');
    expect(queryLines('sample.ts', sample).map((l) => l.split(':')[1])).toEqual(['1', '2', '3']);
  });
});
