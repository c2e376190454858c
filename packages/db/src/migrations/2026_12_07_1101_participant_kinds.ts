import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 47: every part people play in a signature.
// - `signers.kind`: `signer` (every existing row and the default), `approver` (reviews and approves
//   or rejects with a reason; fills no field) or `viewer` (opens and acknowledges having read).
// - `signer_host_sessions`: in-person signing. A dashboard user hosts a signer on their own device;
//   the device holds an HTTP-only cookie whose SHA-256 is `id_hash`, so the hosted page cannot be
//   reopened from another device. Consumed (`used_at`) when the signer finishes.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table signers add column kind text not null default 'signer'
  constraint signers_kind_check check (kind in ('signer', 'approver', 'viewer'));

create table signer_host_sessions (
  id_hash text primary key,
  signer_id integer not null references signers(id) on delete cascade,
  host_user_id integer not null references users(id),
  user_agent text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index signer_host_sessions_signer_idx on signer_host_sessions (signer_id);
`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
drop table signer_host_sessions;
alter table signers drop column kind;
`.execute(db);
}
