import type { Executor, SignatureRequestRow } from '@esign/db';
import type { Config } from '../config.ts';
import { requestBrand } from './brands/branded-mail.ts';
import { downloadName, FILE_LINK_TTL_SECONDS, signFileLink } from './file-links.ts';
import { readerLocale } from './locale.ts';
import { type ProducedFile, producedFiles, type RequestSnapshot } from './request-model.ts';

// The names a request's sealed files download under where no one reader is known (issue 44): the
// dashboard's Downloads and the completion SMS's short links. As in the emails and on the CC page
// (file-links.ts downloadName), the request's brand leads ("Acme Law - Lease - audit trail.pdf"),
// and the audit trail and combined file are named in the request's language (its `locale`, else
// the account's default, else English). The REST API's Signature request keeps the
// specification's plain names (`audit-trail-{id}.pdf`, `signed-{id}.pdf`).

export type NamedRequest = Pick<
  SignatureRequestRow,
  'account_id' | 'environment' | 'brand_id' | 'template_id' | 'locale' | 'snapshot'
>;

/** The download name (with `.pdf`) of each of `request`'s produced files. */
export async function sealedFileNamer(
  db: Executor,
  request: NamedRequest,
): Promise<(file: Pick<ProducedFile, 'kind' | 'name'>) => string> {
  const brand = (await requestBrand(db, request))?.name ?? null;
  const { locale } = await readerLocale(db, { request });
  const title = (request.snapshot as RequestSnapshot).template.name;
  return (file) => `${downloadName(locale, file, { title, brand })}.pdf`;
}

/** What the dashboard's Downloads link to: each sealed document, the audit trail, the combined file. */
export interface SealedDownloadsDto {
  documents: { name: string; url: string }[];
  audit_trail_url: string | null;
  combined_document_url: string | null;
}

/** The signed links of a sealed request's files under their download names (null: not sealed). */
export async function sealedDownloads(
  db: Executor,
  request: NamedRequest & Pick<SignatureRequestRow, 'documents'>,
  at: { config: Config; now: Date },
): Promise<SealedDownloadsDto | null> {
  const { config, now } = at;
  const files = producedFiles(request.documents);
  if (!files.some((f) => f.kind === 'audit_trail')) return null;
  const nameOf = await sealedFileNamer(db, request);
  const link = (f: ProducedFile) =>
    signFileLink(
      config,
      { k: f.storage_key, t: 'application/pdf', n: nameOf(f) },
      { now, ttlSeconds: FILE_LINK_TTL_SECONDS },
    );
  const one = (kind: ProducedFile['kind']) => {
    const f = files.find((x) => x.kind === kind);
    return f ? link(f) : null;
  };
  return {
    documents: files.filter((f) => f.kind === 'document').map((f) => ({ name: f.name, url: link(f) })),
    audit_trail_url: one('audit_trail'),
    combined_document_url: one('combined'),
  };
}
