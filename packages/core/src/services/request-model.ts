import type { FieldAreaRow } from '@esign/db';
import type { FieldLogic } from '@esign/domain';
import type { FieldType } from '../contracts/templates.ts';

/**
 * What a signature request keeps of its template when it is sent (signature_requests.snapshot):
 * later template edits change nothing for these signers.
 */
export interface RequestSnapshot {
  template: { id: number; name: string };
  roles: string[];
  documents: SnapshotDocument[];
  fields: SnapshotField[];
}

export interface SnapshotDocument {
  index: number;
  template_document_id: number;
  name: string;
  storage_key: string;
  sha256: string;
  /** SHA-256 exactly as uploaded (before text-tag removal); absent in older snapshots. */
  uploaded_sha256?: string | null;
  /** Each page's size as runs of equal pages (see pageRuns); snapshots before 2026-11-26 have `pages`. */
  page_sizes?: PageRun[];
  pages?: PageSize[];
}

/** A page's size in points, as displayed. */
export interface PageSize {
  width: number;
  height: number;
}

/** `count` pages in a row of one size: `[count, width, height]`. */
export type PageRun = [count: number, width: number, height: number];

/**
 * Page sizes as runs of equal pages. The snapshot is read by every signing procedure (and the
 * seal job) and written by every send: a 5,000-page contract of one paper size is one run instead
 * of 5,000 objects (130 kB of JSON that PostgreSQL sent and this process parsed each time).
 */
export function pageRuns(pages: readonly PageSize[]): PageRun[] {
  const runs: PageRun[] = [];
  for (const p of pages) {
    const last = runs.at(-1);
    if (last && last[1] === p.width && last[2] === p.height) last[0]++;
    else runs.push([1, p.width, p.height]);
  }
  return runs;
}

/** A snapshot document's page sizes as runs, either way it was stored. */
export function snapshotPageRuns(doc: Pick<SnapshotDocument, 'page_sizes' | 'pages'>): PageRun[] {
  return doc.page_sizes ?? pageRuns(doc.pages ?? []);
}

/** A field as the request keeps it; with its form logic (issue 46) when it has any. */
export interface SnapshotField extends FieldLogic {
  id: string;
  /** Always set: unnamed template fields get their generated name (`Text Field 2`). */
  name: string;
  type: FieldType;
  role: string;
  required: boolean;
  options?: string[];
  areas: FieldAreaRow[];
}

/** A file the service produced (signature_requests.documents / signers.documents = { files }). */
export interface ProducedFile {
  kind: 'document' | 'audit_trail' | 'combined';
  name: string;
  storage_key: string;
  sha256: string;
  /** for kind=document: SHA-256 of the document as sent, before values and seal */
  original_sha256?: string;
}

export interface ProducedFiles {
  files: ProducedFile[];
}

/** A field value as stored (signers.prefill and signers.values); @esign/domain defines it. */
export type { FieldValue } from '@esign/domain';

/** Reads signature_requests.documents / signers.documents defensively: a list of produced files. */
export function producedFiles(value: unknown): ProducedFile[] {
  const files = (value as ProducedFiles | null)?.files;
  return Array.isArray(files)
    ? files.filter((f) => f && typeof f.storage_key === 'string' && typeof f.name === 'string')
    : [];
}
