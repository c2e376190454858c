import { type Kysely, sql } from 'kysely';

// Frozen once released. Which language a signer reads (issue 32, Languages): a BCP 47 tag on the
// signer (`signers[].locale`), on the request (`locale`) and the account's default
// (`default_locale`, the dashboard's Account setting). Null means "not chosen here": the next one
// in that order applies, and for the signing page at last the browser's Accept-Language. Tags are
// checked by core before they are stored; the column only bounds their length.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table signers add column locale text check (char_length(locale) <= 35);
alter table signature_requests add column locale text check (char_length(locale) <= 35);
alter table accounts add column default_locale text check (char_length(default_locale) <= 35);
`.execute(db);
}
