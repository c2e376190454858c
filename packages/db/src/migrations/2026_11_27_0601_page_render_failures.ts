import { type Kysely, sql } from 'kysely';

// Frozen once released. Pages that could not be rendered (issue 29, item 4): a page whose render
// ran out of the document pool's memory or time is remembered, so every process answers its page
// image link at once instead of rendering it again. A stored file never changes, so its key and
// the page name the failure for good.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
create table page_render_failures (
  storage_key text not null,
  page integer not null check (page > 0),
  reason text not null,
  failed_at timestamptz not null,
  primary key (storage_key, page)
);
`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table page_render_failures`.execute(db);
}
