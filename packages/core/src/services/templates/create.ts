import { randomUUID } from 'node:crypto';
import type { Executor, TemplateRow, Tx } from '@esign/db';
import { insertTemplateDocuments } from '@esign/db/queries/template-documents';
import { insertTemplate as insertTemplateRow, templateViewOf } from '@esign/db/queries/templates';
import type { ParticipantKind } from '@esign/domain';
import { type Actor, type CoreDeps, type Source, scopeOf } from '../../context.ts';
import type { FieldDefinitionInput, TemplateDto } from '../../contracts/templates.ts';
import { CoreError } from '../../errors.ts';
import { readAfterCommit } from '../after-commit.ts';
import { requireBrandChoice } from '../brands/brands.ts';
import { ingest, MAX_DOCUMENTS, readDocumentFile } from '../documents-input.ts';
import { recordEvent } from '../events.ts';
import { commitIdempotentOutcome } from '../idempotency.ts';
import { enqueueJob } from '../jobs.ts';
import type { ServiceContext } from '../service-context.ts';
import { removeFiles } from '../storage.ts';
import { toTemplateDto } from './dto.ts';
import {
  type FieldSpec,
  fieldSpecsFromDefinitions,
  fieldSpecsFromDetected,
  insertFields,
  nameFields,
} from './fields.ts';
import { folderId } from './queries.ts';
import { RENDER_PAGES_JOB } from './render-pages.ts';
import { type DeclaredRole, rolesFromTags } from './role-kinds.ts';

export interface CreateTemplateArgs {
  name?: string;
  external_id?: string;
  folder?: string;
  password?: string;
  documents?: { name?: string; file: string }[];
  fields?: FieldDefinitionInput[];
  /** Issue 44: the brand its requests show. */
  brand_id?: number;
}

const baseName = (name: string) => name.replace(/\.(pdf|png|jpe?g|gif|webp|tiff?|bmp)$/i, '');

export interface StoredDocument {
  name: string;
  key: string;
  mime: string;
  size: number;
  sha: string;
  /** SHA-256 of the bytes as uploaded (before conversion and text-tag removal). */
  uploadedSha: string;
  pages: { width: number; height: number }[];
}

/** The slow part, before any transaction: download, parse, remove tags, store each document. */
export async function storeDocuments(
  deps: CoreDeps,
  opts: {
    accountId: number;
    input: Pick<CreateTemplateArgs, 'documents' | 'password'>;
    /** Every key stored, as soon as it is: the caller removes them if the create fails later. */
    keys: string[];
  },
): Promise<{
  stored: StoredDocument[];
  detected: FieldSpec[];
  declared: DeclaredRole[];
  warnings: string[];
}> {
  const { accountId, input, keys } = opts;
  const docs = input.documents ?? [];
  if (docs.length === 0)
    throw new CoreError('missing_documents', 'A template needs at least one document in `documents`');
  if (docs.length > MAX_DOCUMENTS) {
    throw new CoreError(
      'too_many_documents',
      `A template has at most ${MAX_DOCUMENTS} documents; got ${docs.length}`,
    );
  }
  const stored: StoredDocument[] = [];
  const detected: FieldSpec[] = [];
  const declared: DeclaredRole[] = [];
  const warnings: string[] = [];
  for (const [i, doc] of docs.entries()) {
    const label = `documents[${i}]`;
    const bytes = await readDocumentFile(doc.file, label, deps);
    const result = await ingest(bytes, { label, password: input.password, accountId });
    const key = `templates/${accountId}/${randomUUID()}.pdf`;
    keys.push(key);
    await deps.storage.put(key, result.pdf, 'application/pdf');
    stored.push({
      name: doc.name ? baseName(doc.name) : `Document ${i + 1}`,
      key,
      mime: result.mimeType,
      size: result.pdf.length,
      // Hashed where the document was processed (a worker of the pool), not on this event loop.
      sha: result.sha256,
      uploadedSha: result.inputSha256,
      pages: result.pages,
    });
    // Issue 47: role tags, placed among the fields of every document so far.
    for (const r of result.roles ?? [])
      declared.push({ role: r.role, kind: r.kind, at: detected.length + r.fieldsBefore });
    detected.push(...fieldSpecsFromDetected(result.fields, i));
    warnings.push(...result.warnings.map((w) => `${label}: ${w}`));
  }
  return { stored, detected, declared, warnings };
}

/** Stored documents as the template's documents, from `firstPosition` on. */
export async function insertDocuments(
  tx: Tx,
  templateId: number,
  opts: { stored: StoredDocument[]; firstPosition?: number },
): Promise<void> {
  const first = opts.firstPosition ?? 0;
  await insertTemplateDocuments(
    tx,
    templateId,
    opts.stored.map((d, i) => ({
      position: first + i,
      name: d.name,
      storage_key: d.key,
      mime_type: d.mime,
      byte_size: d.size,
      sha256: d.sha,
      uploaded_sha256: d.uploadedSha,
      pages: d.pages,
    })),
  );
}

/** The template, its documents and fields, its page-rendering job and template.created, together. */
async function insertTemplate(
  tx: Tx,
  actor: Actor,
  t: {
    name: string;
    input: CreateTemplateArgs;
    stored: StoredDocument[];
    roles: string[];
    role_kinds: ParticipantKind[];
    fields: FieldSpec[];
  },
  opts: { source: Source; now: Date },
) {
  const scope = scopeOf(actor);
  const template = await insertTemplateRow(tx, scope, {
    name: t.name,
    external_id: t.input.external_id ?? null,
    brand_id: await requireBrandChoice(tx, scope, t.input.brand_id),
    folder_id: (await folderId(tx, scope, t.input.folder)) ?? null,
    roles: t.roles,
    role_kinds: t.role_kinds,
    source: opts.source,
    created_by_user_id: actor.userId,
    api_key_id: actor.apiKeyId,
    created_at: opts.now,
    updated_at: opts.now,
  });
  await insertDocuments(tx, template.id, { stored: t.stored });
  await insertFields(tx, template.id, { fields: t.fields });
  await enqueueJob(tx, { kind: RENDER_PAGES_JOB, payload: { templateId: template.id }, maxAttempts: 3 });
  await recordEvent(tx, scope, {
    type: 'template.created',
    objectType: 'template',
    objectId: template.id,
    now: opts.now,
  });
  return template;
}

/**
 * POST /templates. Heavy work (download, parse, tag removal, storage) happens before the
 * transaction; the template, its documents, fields and the template.created event commit together.
 * Returns the Template object, with `warnings` when ingestion had any.
 */
export async function createTemplate(
  sc: ServiceContext,
  actor: Actor,
  { source, ...input }: CreateTemplateArgs & { source: Source },
): Promise<TemplateDto> {
  const keys: string[] = [];
  const row = await storeAndInsert(sc, actor, input, { source }, keys).catch(async (err: unknown) => {
    // A failed create leaves no stored file behind (a later document, a field or the commit failed).
    await removeFiles(sc.deps.storage, keys);
    throw err;
  });
  if (row.answer) return row.answer;
  // Committed: the template and its files stay, whatever the read of the answer meets.
  const dto = await readAfterCommit(() => answerOf(sc, sc.db, row.template));
  return row.warnings.length ? { ...dto, warnings: row.warnings } : dto;
}

/** The Template object as POST /templates answers it (GET /templates/{id} shows the same). */
async function answerOf(sc: ServiceContext, db: Executor, template: TemplateRow): Promise<TemplateDto> {
  return toTemplateDto(db, await templateViewOf(db, template), {
    config: sc.config,
    now: sc.now(),
    withDetails: true,
  });
}

/** Stores the documents, then writes the template in one transaction. */
async function storeAndInsert(
  sc: ServiceContext,
  actor: Actor,
  input: CreateTemplateArgs,
  opts: { source: Source },
  keys: string[],
) {
  const now = sc.now();
  const { stored, detected, declared, warnings } = await storeDocuments(sc.deps, {
    accountId: actor.accountId,
    input,
    keys,
  });
  const given = fieldSpecsFromDefinitions(input.fields ?? [], stored, 'api');
  // When every text tag names a role, the template gets exactly those roles (plus any in `fields`);
  // role tags add theirs with its kind (issue 47).
  const { roles, fields, role_kinds } = rolesFromTags(
    { roles: [], role_kinds: [], fields: [] },
    nameFields([...detected, ...given]),
    declared,
  );
  const name = input.name ?? baseName(input.documents?.[0]?.name ?? stored[0]!.name);
  return sc.db.transaction().execute(async (tx) => {
    const template = await insertTemplate(
      tx,
      actor,
      { name, input, stored, roles, role_kinds, fields },
      { source: opts.source, now },
    );
    // The Idempotency-Key's outcome commits with the template (issue 41): a retry reads the
    // template. Its ingestion `warnings` are in no read, so an answer with warnings is recorded as
    // it is (built in this transaction) and replayed as it was.
    if (!sc.idempotency || warnings.length === 0) {
      await commitIdempotentOutcome(tx, sc.idempotency, { resource: { type: 'template', id: template.id } });
      return { template, warnings, answer: null };
    }
    const answer: TemplateDto = { ...(await answerOf(sc, tx, template)), warnings };
    await commitIdempotentOutcome(tx, sc.idempotency, {
      resource: { type: 'template', id: template.id },
      body: answer,
    });
    return { template, warnings, answer };
  });
}
