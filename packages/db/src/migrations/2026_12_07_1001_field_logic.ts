import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 46: a template field's form logic (show_when, required_when,
// formula, format, validation) as one jsonb object; null when the field has none.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table template_fields add column logic jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table template_fields drop column logic`.execute(db);
}
