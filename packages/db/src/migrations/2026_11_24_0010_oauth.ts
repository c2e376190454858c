import { type Kysely, sql } from 'kysely';

// Frozen once released. MCP OAuth (spec, Authentication rule 8): the authorization server
// (oidc-provider) keeps every record it makes (grants, codes, access and refresh tokens,
// interactions, registration tokens) in one table, keyed by model and the SHA-256 of the record's
// id, so any process can serve any step and a token's value is never stored. Registered clients
// stay in oauth_clients. The hand-made grant/code/token tables of the first migration were never
// used and are replaced by this one.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
drop table oauth_tokens;
drop table oauth_codes;
drop table oauth_grants;

create table oauth_records (
  model text not null,
  id_hash text not null,
  payload jsonb not null,
  grant_id text,
  client_id text,
  user_id integer references users(id),
  uid text,
  user_code text,
  expires_at timestamptz,
  consumed_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (model, id_hash)
);
create index oauth_records_grant_idx on oauth_records (grant_id) where grant_id is not null;
create index oauth_records_uid_idx on oauth_records (model, uid) where uid is not null;
create index oauth_records_user_code_idx on oauth_records (model, user_code) where user_code is not null;
create index oauth_records_user_idx on oauth_records (user_id, client_id) where model = 'Grant';
create index oauth_records_expires_idx on oauth_records (expires_at);

alter table oauth_clients add column updated_at timestamptz not null default now();
`.execute(db);
}
