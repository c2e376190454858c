import { listTemplateCards } from '@esign/db/queries/templates';
import type { Scope } from '../../context.ts';
import type { FieldType } from '../../contracts/templates.ts';
import { FILE_LINK_TTL_SECONDS, signFileLink, signingPages } from '../file-links.ts';
import { producedFiles, type RequestSnapshot, snapshotPageRuns } from '../request-model.ts';
import { type SealedDownloadsDto, sealedDownloads } from '../sealed-downloads.ts';
import { effectiveValue, sealValueOf, signerFor } from '../sealing/values.ts';
import type { ServiceContext } from '../service-context.ts';
import { loadSigners, requireRequest } from '../signature-requests/queries.ts';
import { effectiveStatus } from '../signature-requests/status.ts';
import { listTemplates } from '../templates/read.ts';

// What the dashboard shows of documents beyond the REST resources (issue 33 item 7): thumbnails
// with counts in the templates list, and a request's pages with the values drawn.

type ReadContext = Pick<ServiceContext, 'db' | 'config' | 'now'>;

/** A template list item's card: its first page's image and how much it holds. */
interface TemplateCardDto {
  page_count: number;
  field_count: number;
  document_count: number;
  /** Page 1 of the first document (rendered on first request, then cached); null without documents. */
  thumbnail_url: string | null;
}

/**
 * The templates list (GET /templates' filters and envelope), each item with its card: two
 * statements whatever the page size (the list, then every card of the page in one).
 */
export async function listTemplateCardsPage(
  sc: ReadContext,
  scope: Scope,
  input: Parameters<typeof listTemplates>[2],
) {
  const page = await listTemplates(sc, scope, input);
  const cards = new Map(
    (
      await listTemplateCards(
        sc.db,
        scope,
        page.data.map((t) => t.id),
      )
    ).map((c) => [c.id, c]),
  );
  const now = sc.now();
  return {
    ...page,
    data: page.data.map((t) => {
      const c = cards.get(t.id);
      const first = c?.first_document;
      const card: TemplateCardDto = {
        page_count: c?.page_count ?? 0,
        field_count: c?.field_count ?? 0,
        document_count: c?.document_count ?? 0,
        thumbnail_url:
          first && first.page_count > 0
            ? signFileLink(
                sc.config,
                { k: first.storage_key, t: 'image/png', n: `${first.name}-page-1.png`, p: 1 },
                { now },
              )
            : null,
      };
      return { ...t, ...card };
    }),
  };
}

/** A field of a request as the dashboard draws it: where it stands, who fills it, its value so far. */
export interface RequestFieldDto {
  id: string;
  name: string;
  type: FieldType;
  role: string;
  required: boolean;
  signer_id: number | null;
  areas: { page: number; x: number; y: number; w: number; h: number; document: number }[];
  /** As sealing draws it: pictures as data: URIs, files by name, lists as strings; null when empty. */
  value: string | number | boolean | string[] | null;
}

/** A request's document: its pages as images, sealed (values drawn in) or as sent. */
export interface RequestDocumentDto {
  index: number;
  name: string;
  /** true: the pages are the sealed document's, values already drawn; false: the pages as sent. */
  sealed: boolean;
  /** The page image link with `{page}` for the 1-based page number. */
  page_image_url: string;
  page_count: number;
  /** Page sizes in points as runs of equal pages: `[count, width, height]`. */
  page_sizes: [number, number, number][];
}

/**
 * The documents of a request with every field and its value so far (issue 33 item 7). Once the
 * request is completed and sealed, the pages are the sealed files' (values drawn by sealing);
 * before, they are the documents as sent, and the dashboard draws the values over them; and
 * `downloads` links the sealed files under names led by the request's brand (issue 44,
 * sealed-downloads.ts). Scoped to the account side: another account's request is `404 not_found`.
 */
export async function requestDocuments(
  sc: ReadContext,
  scope: Scope,
  id: number,
): Promise<{
  documents: RequestDocumentDto[];
  fields: RequestFieldDto[];
  downloads: SealedDownloadsDto | null;
}> {
  const row = await requireRequest(sc.db, scope, id);
  const signers = await loadSigners(sc.db, row.id);
  const snapshot = row.snapshot as RequestSnapshot;
  const now = sc.now();
  const done = effectiveStatus(row, now) === 'completed' && row.sealing_status === 'done';
  const sealedFiles = done ? producedFiles(row.documents).filter((f) => f.kind === 'document') : [];
  const docs = [...snapshot.documents].sort((a, b) => a.index - b.index);
  const sealed = sealedFiles.length === docs.length;
  const documents = docs.map((d, i) => ({
    index: d.index,
    name: d.name,
    sealed,
    ...signingPages(
      sc.config,
      {
        storage_key: sealed ? sealedFiles[i]!.storage_key : d.storage_key,
        name: d.name,
        page_sizes: snapshotPageRuns(d),
      },
      { now, ttlSeconds: FILE_LINK_TTL_SECONDS },
    ),
  }));
  const fields = snapshot.fields.map((f) => {
    const signer = signerFor(f, signers);
    return {
      id: f.id,
      name: f.name,
      type: f.type,
      role: f.role,
      required: f.required,
      signer_id: signer?.id ?? null,
      areas: f.areas.map((a) => ({ ...a, document: a.document ?? 0 })),
      value: signer ? sealValueOf(f.type, effectiveValue(signer, f.name)) : null,
    };
  });
  const downloads = done ? await sealedDownloads(sc.db, row, { config: sc.config, now }) : null;
  return { documents, fields, downloads };
}
