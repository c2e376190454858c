import { msg } from '../messages/index.ts';
import type { Outputs } from '../router-types.ts';
import { errorCode, errorMessage } from '../trpc.ts';

// Issue 42 item 8: the public /verify page speaks to a recipient, not a developer. The verifier's
// refusals (documents.verifyPublic's codes and technical reasons, which the API keeps) become
// plain sentences from the catalogue here; anything else falls back to the shared error words.

/** The verifier's technical reasons, by code and wording, and the plain sentence for each. */
const REASONS: { code: string; reason?: RegExp; key: Parameters<typeof msg>[0] }[] = [
  { code: 'invalid_document', reason: /not a PDF/i, key: 'verify.problem.not_pdf' },
  { code: 'invalid_document', reason: /\bempty\b/i, key: 'verify.problem.empty' },
  { code: 'invalid_document', key: 'verify.problem.unreadable' },
  { code: 'document_too_large', key: 'verify.problem.too_large' },
  { code: 'rate_limited', key: 'verify.problem.rate_limited' },
  { code: 'invalid_request', key: 'verify.problem.unreadable' },
];

/** What the page says when a file could not be checked. */
export function verifyProblem(err: unknown): string {
  const code = errorCode(err);
  const reason = err instanceof Error ? err.message : '';
  const found = REASONS.find((r) => r.code === code && (!r.reason || r.reason.test(reason)));
  return found ? msg(found.key) : errorMessage(err);
}

type Verification = Outputs['documents']['verifyPublic'];

/** The verdict in a plain sentence (the verifier's summary names revisions, PAdES and CMS). */
export function plainSummary(v: Verification): string {
  if (v.verdict === 'unsigned') return msg('verify.plain.unsigned');
  if (v.signatures.some((s) => !s.valid)) return msg('verify.plain.broken');
  if (v.verdict === 'modified') {
    return msg(
      v.signatures.some((s) => s.modified_after_signing) ? 'verify.plain.modified' : 'verify.plain.differs',
    );
  }
  if (v.verdict === 'authentic')
    return msg(v.match?.kind === 'signer_copy' ? 'verify.plain.signer_copy' : 'verify.plain.authentic');
  return msg('verify.plain.intact_signature');
}
