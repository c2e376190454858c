/**
 * PDF branch of the ingest pipeline: open (and decrypt), measure pages, find and remove text
 * tags, read AcroForm fields, and save only when something changed.
 *
 * Memory: pages are processed one at a time; only the decoded content of the page in hand (and of
 * form XObjects that hold tags) is kept. Nothing is rendered. An unchanged, unencrypted input is
 * returned as is, without a copy.
 */
import type { PDF, PdfDict, PdfStream } from '@libpdf/core';
import { extractFormFields } from './acroform.ts';
import { applyRemovals } from './content/rewrite.ts';
import { type ContentTarget, type ScanEnv, TextScanner } from './content/text-scan.ts';
import { dropDanglingReferences } from './dangling.ts';
import { DocumentInputError } from './errors.ts';
import { inherited, type PageGeometry, pageGeometry } from './geometry.ts';
import { checkInflation } from './inflation.ts';
import type { InflationLimits } from './inflation-limits.ts';
import { openPdf } from './open-pdf.ts';
import { asDict, asStream, decodeStream, get, items, type ObjCtx } from './pdf-objects.ts';
import { findTags, type Removals, type TagOccurrence } from './text-tags.ts';
import type { DetectedField, DetectedRole, IngestedDocument } from './types.ts';

export interface PdfIngestOptions {
  password?: string;
  strictTags: boolean;
  /** The most one stream and the whole document may decompress to (inflation.ts). */
  inflation: InflationLimits;
}

/** Decoded page contents (streams joined by a newline, as readers do), or null with a reason. */
function readPageContents(ctx: ObjCtx, page: PdfDict): Uint8Array | string | null {
  const contents = get(ctx, page, 'Contents');
  if (!contents) return null;
  const streams: PdfStream[] = [];
  if (contents.type === 'array') {
    for (const it of items(ctx, contents)) {
      const s = asStream(it);
      if (s) streams.push(s);
    }
  } else {
    const s = asStream(contents);
    if (s) streams.push(s);
  }
  if (streams.length === 0) return null;
  try {
    if (streams.length === 1) return decodeStream(streams[0]!);
    const parts = streams.map((s) => decodeStream(s));
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      out[at + p.length] = 0x0a;
      at += p.length + 1;
    }
    return out;
  } catch (e) {
    return e instanceof RangeError ? 'its content is too large to scan' : 'its content could not be decoded';
  }
}

/**
 * Merges tag occurrences into fields: same name and role → one field with several areas. A role
 * tag (issue 47) makes no field: it is kept in `roles` where it stands among the fields.
 */
function tagsToFields(
  occurrences: TagOccurrence[],
  warn: (m: string) => void,
): { fields: DetectedField[]; roles: DetectedRole[] } {
  const fields: DetectedField[] = [];
  const roles: DetectedRole[] = [];
  const byKey = new Map<string, DetectedField>();
  for (const o of occurrences) {
    const { spec } = o;
    if (spec.kind && spec.role !== undefined) {
      const earlier = roles.find((r) => r.role === spec.role);
      if (!earlier) roles.push({ role: spec.role, kind: spec.kind, fieldsBefore: fields.length });
      else if (earlier.kind !== spec.kind)
        warn(
          `Text tag "${o.text}" on page ${o.area.page} makes "${spec.role}" ${spec.kind}, but an earlier tag made it ${earlier.kind}; the first one counts`,
        );
      continue;
    }
    const key = spec.name === undefined ? undefined : `${spec.name}\u0000${spec.role ?? ''}`;
    const existing = key === undefined ? undefined : byKey.get(key);
    if (existing) {
      if (existing.type !== spec.type)
        warn(
          `Text tag "${o.text}" on page ${o.area.page} has type ${spec.type} but an earlier tag named "${spec.name}" has type ${existing.type}; it was added to that ${existing.type} field`,
        );
      existing.areas.push(o.area);
      continue;
    }
    const field: DetectedField = {
      type: spec.type,
      required: spec.required,
      areas: [o.area],
      source: 'text_tag',
    };
    if (spec.name !== undefined) field.name = spec.name;
    if (spec.role !== undefined) field.role = spec.role;
    if (spec.options) field.options = spec.options;
    if (spec.logic) field.logic = spec.logic;
    fields.push(field);
    if (key !== undefined) byKey.set(key, field);
  }
  return { fields, roles };
}

type Page = ReturnType<PDF['getPages']>[number];

/** The pages, or `invalid_document` when the page tree cannot be read or holds none. */
function readPages(pdf: PDF): Page[] {
  let pages: Page[];
  try {
    pages = pdf.getPages();
  } catch (e) {
    throw new DocumentInputError('invalid_document', 'The PDF is damaged: its page tree could not be read', {
      cause: e,
    });
  }
  if (pages.length === 0) throw new DocumentInputError('invalid_document', 'The PDF has no pages');
  return pages;
}

interface ScannedPages {
  geometries: PageGeometry[];
  occurrences: TagOccurrence[];
  /** Whether a tag was removed from a page or a form XObject. */
  modified: boolean;
}

/** Measures every page, finds its text tags and removes them from the content streams. */
function scanPages(pdf: PDF, pages: Page[], env: ScanEnv, strictTags: boolean): ScannedPages {
  const { ctx, warn } = env;
  const geometries: PageGeometry[] = [];
  const occurrences: TagOccurrence[] = [];
  const removals: Removals = new Map();
  let modified = false;
  for (const [index, page] of pages.entries()) {
    const pageNumber = index + 1;
    const geometry = pageGeometry(ctx, page.dict);
    geometries.push(geometry);
    const content = readPageContents(ctx, page.dict);
    if (content === null) continue;
    if (typeof content === 'string') {
      warn(`Page ${pageNumber}: ${content}; text tags on it were not looked for`);
      continue;
    }
    const target: ContentTarget = { kind: 'page', bytes: content };
    const scanner = new TextScanner(env);
    scanner.scan(target, asDict(inherited(ctx, page.dict, 'Resources')));
    occurrences.push(
      ...findTags(scanner.glyphs, { page: pageNumber, geometry, strict: strictTags, warn, removals }),
    );
    const pageRemovals = removals.get(target);
    if (pageRemovals) {
      // A new stream rather than an in-place edit: the old one may be shared with other pages,
      // and a full save drops it when nothing else refers to it.
      page.dict.set('Contents', pdf.createStream({}, applyRemovals(content, pageRemovals.values())));
      removals.delete(target);
      modified = true;
    }
    // Keep decoded form XObjects only while they have pending edits.
    for (const [stream, t] of env.forms) if (!removals.has(t)) env.forms.delete(stream);
  }
  for (const [target, rem] of removals) {
    if (target.kind === 'form' && target.stream) {
      target.stream.setData(applyRemovals(target.bytes, rem.values()));
      modified = true;
    }
  }
  return { geometries, occurrences, modified };
}

/** The saved PDF, or `invalid_document` when it cannot be written. */
async function savePdf(pdf: PDF): Promise<Uint8Array> {
  try {
    return await pdf.save();
  } catch (e) {
    throw new DocumentInputError('invalid_document', 'The PDF is damaged and could not be rewritten', {
      cause: e,
    });
  }
}

export async function ingestPdf(
  bytes: Uint8Array,
  opts: PdfIngestOptions,
): Promise<Omit<IngestedDocument, 'mimeType' | 'inputSha256' | 'sha256'>> {
  const { pdf, decrypted, warnings } = await openPdf(bytes, opts.password);
  const warn = (m: string) => {
    if (warnings.length < 200) warnings.push(m);
  };
  const ctx: ObjCtx = { resolve: (ref) => pdf.getObject(ref) };
  const pages = readPages(pdf);
  await checkInflation(ctx, [pdf.getCatalog()], opts.inflation);
  const repaired = dropDanglingReferences(pdf, pages, warn) > 0;
  const env: ScanEnv = { ctx, fonts: new WeakMap(), forms: new Map(), warn };
  const { geometries, occurrences, modified } = scanPages(pdf, pages, env, opts.strictTags);

  const form = extractFormFields(ctx, pdf, geometries, warn);
  if (modified && form.hasSignedSignatures)
    warn('The PDF carried digital signatures; removing its text tags invalidated them');

  const out = modified || repaired || decrypted || pdf.recoveredViaBruteForce ? await savePdf(pdf) : bytes;
  const tagged = tagsToFields(occurrences, warn);
  return {
    pdf: out,
    kind: 'pdf',
    pages: geometries.map((g) => ({ width: round2(g.width), height: round2(g.height) })),
    fields: [...tagged.fields, ...form.fields],
    ...(tagged.roles.length ? { roles: tagged.roles } : {}),
    warnings,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
