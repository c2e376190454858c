import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 47: the part each template role plays by default, by position like
// `roles` (roles are renamed by position and never removed): `role_kinds[i]` is roles[i]'s kind
// (`signer`, `approver`, `viewer`); missing entries are `signer`. Approver and viewer roles take no
// fields; a request's signer of such a role gets its kind unless the send names another.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table templates add column role_kinds jsonb not null default '[]'::jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table templates drop column role_kinds`.execute(db);
}
