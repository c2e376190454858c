import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVICES = join(import.meta.dirname, '../src/services');
const QUERIES = join(import.meta.dirname, '../../db/src/queries');

/** What builds SQL: Kysely's builders, raw `sql` fragments, CTEs, and Kysely's (non-type) imports. */
const BUILDS_SQL =
  /selectFrom|insertInto|updateTable|deleteFrom|selectNoFrom|\bsql`|\bsql<|\.with\(|^import \{[^}]*\} from 'kysely'/m;

const inDir = (dir: string) =>
  readdirSync(join(SERVICES, dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f}`);

const FILES = [
  ...inDir('billing'),
  ...inDir('signing'),
  'mail.ts',
  'mail-secrets.ts',
  'idempotency.ts',
  'rate-limit.ts',
  'emails.ts',
];

describe('issue 28 item 1: the query layer (billing, mail, idempotency, rate limits, signing)', () => {
  it.each(FILES)('services/%s builds no SQL: its statements live in packages/db/src/queries', (file) => {
    const text = readFileSync(join(SERVICES, file), 'utf8');
    expect(text.match(BUILDS_SQL)?.[0] ?? null).toBeNull();
  });

  it('the locking reads of these modules take a Tx (never the pool), so they only run inside a transaction', () => {
    // The mail and SMS outboxes share their claim (queries/outbox.ts).
    for (const module of ['billing', 'outbox', 'signing']) {
      const text = readFileSync(join(QUERIES, `${module}.ts`), 'utf8');
      const functions = text.split(/\nexport async function /).slice(1);
      const locking = functions.filter((f) => /\.forUpdate\(\)/.test(f));
      expect(locking.length, module).toBeGreaterThan(0);
      for (const f of locking)
        expect(f, `${module}: ${f.slice(0, 40)}`).toMatch(/^\w+(<[^>]*>)?\(\s*tx: Tx,/);
    }
  });
});
