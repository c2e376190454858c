import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce, createDb, type Db, preparedInsert, preparedSql } from '../src/index.ts';

// Issue 16: the statements every API request runs are prepared, so PostgreSQL parses and plans
// them once per pooled connection instead of once per request.

let tdb: TestDatabase;
let db: Db;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = createDb(tdb.url, { max: 2 });
  await sql`create table prep_test (id int primary key, v int not null)`.execute(tdb.db);
  await sql`insert into prep_test values (1, 10), (2, 20), (3, 30)`.execute(tdb.db);
  await sql`create table prep_insert (id serial primary key, a int not null, b text not null default 'dflt', c jsonb)`.execute(
    tdb.db,
  );
});
afterAll(async () => {
  await db.destroy();
  await tdb.drop();
});

type Conn = Parameters<Parameters<ReturnType<Db['connection']>['execute']>[0]>[0];

const preparedHere = async (conn: Conn) =>
  (await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(conn)).rows.map(
    (r) => r.name,
  );

describe('prepared statements (issue 16)', () => {
  it('a preparedSql text is sent as a named statement: prepared once per connection, same answers every time', async () => {
    const text = preparedSql('test_prep_by_id', 'select v from prep_test where id = $1');
    await db.connection().execute(async (conn) => {
      expect(await preparedHere(conn)).not.toContain('test_prep_by_id');
      for (const [id, v] of [
        [1, 10],
        [2, 20],
        [1, 10],
      ] as const) {
        const { rows } = await conn.executeQuery(CompiledQuery.raw(text, [id]));
        expect(rows).toEqual([{ v }]);
      }
      expect((await preparedHere(conn)).filter((n) => n === 'test_prep_by_id')).toHaveLength(1);
    });
  });

  it('one name per SQL text: naming another text the same is refused', () => {
    preparedSql('test_prep_once', 'select 1 as one');
    expect(preparedSql('test_prep_once', 'select 1 as one')).toBe('select 1 as one');
    expect(() => preparedSql('test_prep_other', 'select 1 as one')).toThrow(/already prepared/);
  });

  it('a migration that changes a prepared result (0A000 "cached plan must not change result type"): the query runs again unnamed and answers; nothing is lost', async () => {
    const text = preparedSql('test_prep_changing', 'select v from prep_test where id = $1 and true');
    await db.connection().execute(async (conn) => {
      expect((await conn.executeQuery(CompiledQuery.raw(text, [3]))).rows).toEqual([{ v: 30 }]);
      await sql`alter table prep_test alter column v type text using v::text`.execute(tdb.db);
      expect((await conn.executeQuery(CompiledQuery.raw(text, [3]))).rows).toEqual([{ v: '30' }]);
      expect((await conn.executeQuery(CompiledQuery.raw(text, [2]))).rows).toEqual([{ v: '20' }]);
      await sql`alter table prep_test alter column v type int using v::int`.execute(tdb.db);
    });
  });

  it('compiledOnce: built and compiled once per shape, each shape its own named statement, every call with its own values (the rows a freshly built query gives)', async () => {
    let builds = 0;
    const page = compiledOnce(
      'test_prep_page',
      (below: boolean) => String(below),
      (_db, v: { below: number | undefined; limit: number }, below: boolean) => {
        builds++;
        let q = db
          .selectFrom('prep_test' as never)
          .select(['id' as never])
          .orderBy('id' as never, 'desc')
          .limit(v.limit);
        if (below) q = q.where('id' as never, '<', v.below as never);
        return q;
      },
    );
    const fresh = (below: number | undefined, limit: number) => {
      let q = db
        .selectFrom('prep_test' as never)
        .select(['id' as never])
        .orderBy('id' as never, 'desc')
        .limit(limit);
      if (below !== undefined) q = q.where('id' as never, '<', below as never);
      return q.execute();
    };
    await db.connection().execute(async (conn) => {
      const before = await preparedHere(conn);
      for (const [below, limit] of [
        [undefined, 10],
        [3, 10],
        [undefined, 1],
        [2, 10],
        [3, 1],
      ] as const) {
        const rows = await page(conn, below !== undefined, { below, limit });
        expect(rows).toEqual(await fresh(below, limit));
      }
      expect(await page(conn, true, { below: 3, limit: 10 })).toEqual([{ id: 2 }, { id: 1 }]);
      expect(builds).toBe(2);
      const added = (await preparedHere(conn)).filter((n) => !before.includes(n));
      expect(added).toHaveLength(2);
      expect(added.every((n) => n.startsWith('test_prep_page_'))).toBe(true);
    });
  });

  it('preparedInsert (issue 31: a send writes its request and signers prepared): one named statement per shape (row count and columns), a left-out column keeps its DEFAULT, every call writes its own values in input order; expressions and many rows are built as usual', async () => {
    type Row = { a: number; b?: string; c?: unknown };
    const insert = preparedInsert('test_prep_insert', (d, rows: Row[]) =>
      d
        .insertInto('prep_insert' as never)
        .values(rows as never)
        .returning(['a' as never, 'b' as never, 'c' as never]),
    );
    await db.connection().execute(async (conn) => {
      const before = await preparedHere(conn);
      expect(await insert(conn, [{ a: 1, b: 'x', c: JSON.stringify({ k: [1] }) }])).toEqual([
        { a: 1, b: 'x', c: { k: [1] } },
      ]);
      expect(await insert(conn, [{ a: 2, b: 'y', c: null }])).toEqual([{ a: 2, b: 'y', c: null }]);
      expect(await insert(conn, [{ a: 3 }, { a: 4, b: 'z' }])).toEqual([
        { a: 3, b: 'dflt', c: null },
        { a: 4, b: 'z', c: null },
      ]);
      expect(await insert(conn, [{ a: 5, b: undefined }])).toEqual([{ a: 5, b: 'dflt', c: null }]);
      // An expression's values would be fixed at the first call: such rows are never prepared.
      expect(await insert(conn, [{ a: 6, b: sql<string>`${'e1'} || 'x'` as never }])).toEqual([
        { a: 6, b: 'e1x', c: null },
      ]);
      expect(await insert(conn, [{ a: 7, b: sql<string>`${'e2'} || 'x'` as never }])).toEqual([
        { a: 7, b: 'e2x', c: null },
      ]);
      const many = Array.from({ length: 6 }, (_, i) => ({ a: 100 + i }));
      expect((await insert(conn, many)).map((r) => (r as { a: number }).a)).toEqual(many.map((r) => r.a));
      const added = (await preparedHere(conn)).filter((n) => !before.includes(n));
      // Shapes: [a,b,c], [a] + [a,b], [a]: three statements, none for the expressions or the six rows.
      expect(added.filter((n) => n.startsWith('test_prep_insert_'))).toHaveLength(3);
    });
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from prep_insert`.execute(tdb.db)).rows[0]!.n,
    ).toBe(13);
  });
});
