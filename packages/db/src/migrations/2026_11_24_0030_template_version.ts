import { type Kysely, sql } from 'kysely';

// Frozen once released. The template editor (issue 12): every change of a template's roles, fields or
// documents through PATCH /templates/{id} or the editor counts up `version`, so the editor's save can
// say which version it edited and be refused when someone else saved in between.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table templates add column version integer not null default 1`.execute(db);
}
