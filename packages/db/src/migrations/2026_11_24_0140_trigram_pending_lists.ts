import { type Kysely, sql } from 'kysely';

// Frozen once released. The trigram (GIN) search indexes keep new entries in a pending list that
// every search reads in full before the index proper; it is merged into the index only when it
// outgrows `gin_pending_list_limit` (4 MB by default) or at a vacuum. At a million signers, 6,000
// rows pending (180 to 380 pages per index) made a signer search that reads 130 index pages
// in 0.9 ms read 900 pages in 16 to 36 ms (issue 16). At 64 kB (the least PostgreSQL allows) a
// search reads at most 8 such pages per index; an insert that overflows the list merges about a
// hundred rows. The lists already pending are merged now.
const TRIGRAM_INDEXES = [
  'signers_name_trgm_idx',
  'signers_email_trgm_idx',
  'signers_phone_trgm_idx',
  'templates_name_trgm_idx',
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of TRIGRAM_INDEXES) {
    await sql`alter index ${sql.id(index)} set (gin_pending_list_limit = 64)`.execute(db);
    await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
}
