// `GET /signature_requests?q=`: a request matches when one of its signers' name, email or phone
// contains the term, case-insensitively (the API's rule for `q`).
//
// The trigram indexes (pg_trgm GIN on each column) find candidates; the exact rule is checked on
// the rows they return. Both parts are needed to stay flat at a million signers: a GIN scan of
// `email ilike '%jane.doe@example.com%'` must, for every row holding the term's rarest trigram,
// look up every other trigram of the term, and the domain's trigrams (`exa`, `com`, …) are in
// nearly every row, so that scan grows with the table (about 100 ms at 1M requests, issue 16).
// So the index is asked only for the term's distinctive part and the full term is checked on the
// few candidates, in an expression the planner cannot hand to the index.

/** A run of three letters or digits: the smallest fragment pg_trgm extracts a trigram from. */
const TRIGRAM = /[\p{L}\p{N}]{3}/u;

/**
 * The part of `term` the trigram indexes look up. For an email (or its start) it is the local
 * part with its `@`: the part that names a person, while domains repeat across signers. Every
 * other term is looked up whole. Any substring of the term is a correct look-up (whatever contains
 * the term contains it); this choice only decides how much of the index is read.
 */
export function indexedFragment(term: string): string {
  const at = term.indexOf('@');
  if (at <= 0 || at === term.length - 1) return term;
  const local = term.slice(0, at + 1);
  return TRIGRAM.test(local) ? local : term;
}
