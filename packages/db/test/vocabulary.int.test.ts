import { REQUEST_STATUSES, SIGNER_STATUSES, USER_ROLES } from '@esign/domain';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.drop());

/** The values a column's CHECK (column IN (...)) constraint allows, read back from PostgreSQL. */
async function allowed(table: string, column: string): Promise<string[]> {
  const { rows } = await sql<{ def: string }>`
    select pg_get_constraintdef(c.oid) as def
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.conrelid = ${table}::regclass and c.contype = 'c' and a.attname = ${column}`.execute(tdb.db);
  expect(rows).toHaveLength(1);
  return [...(rows[0]?.def ?? '').matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1] ?? '');
}

// The frozen migrations keep their own copy of these lists (they may not import app code); this
// proves the copy and @esign/domain agree, so a new status cannot reach only one of them.
describe('the tables allow exactly the vocabulary of @esign/domain', () => {
  it('signature_requests.status: the statuses of a signature request (spec: Signature request `status`)', async () => {
    expect(await allowed('signature_requests', 'status')).toEqual([...REQUEST_STATUSES]);
  });

  it('signers.status: the statuses of a signer (spec: Signer `status`)', async () => {
    expect(await allowed('signers', 'status')).toEqual([...SIGNER_STATUSES]);
  });

  it('users.role: the user roles (operations.md `user create --role`)', async () => {
    expect(await allowed('users', 'role')).toEqual([...USER_ROLES]);
  });

  it('account_sso.default_role: the role single sign-on gives new users (issue 45 item 4)', async () => {
    expect(await allowed('account_sso', 'default_role')).toEqual([...USER_ROLES]);
  });
});
