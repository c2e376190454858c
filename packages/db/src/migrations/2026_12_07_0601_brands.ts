import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 44: brands (logo, colours, sender identity, own email words).
// - brands: several per account side, at most one default (partial unique index);
//   logo bytes are stored already cleaned (PNG or JPEG; an SVG upload is rasterised to PNG).
// - templates.brand_id, signature_requests.brand_id: the brand chosen for them (null: the
//   account side's default applies). Deleting a brand clears the choice.
// - mail_outbox.from_name, from_address, brand_id: the sender identity an email goes out with, and
//   the brand whose logo it carries inline.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
create table brands (
  id serial primary key,
  account_id integer not null references accounts(id),
  environment text not null check (environment in ('live', 'test')),
  name text not null,
  logo bytea,
  logo_type text check (logo_type in ('image/png', 'image/jpeg')),
  primary_color text not null,
  accent_color text not null,
  support_email text,
  support_url text,
  legal_footer text,
  from_name text,
  reply_to text,
  from_address text,
  email_texts jsonb not null default '{}'::jsonb,
  is_default boolean not null default false,
  created_by_user_id integer references users(id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((logo is null) = (logo_type is null))
);
create index brands_scope_idx on brands (account_id, environment, id desc);
create unique index brands_one_default_idx on brands (account_id, environment) where is_default;
alter table templates add column brand_id integer references brands(id) on delete set null;
alter table signature_requests add column brand_id integer references brands(id) on delete set null;
alter table mail_outbox add column from_name text;
alter table mail_outbox add column from_address text;
alter table mail_outbox add column brand_id integer references brands(id) on delete set null;
`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
alter table mail_outbox drop column brand_id;
alter table mail_outbox drop column from_address;
alter table mail_outbox drop column from_name;
alter table signature_requests drop column brand_id;
alter table templates drop column brand_id;
drop table brands;
`.execute(db);
}
