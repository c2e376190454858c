import { randomUUID } from 'node:crypto';
import {
  type Db,
  type Executor,
  type FieldAreaRow,
  json,
  type TemplateFieldRow,
  type TemplateRow,
  type Tx,
} from '@esign/db';
import type { DetectedField } from '@esign/pdf';
import type { Config } from '../config.ts';
import type { Actor, CoreDeps, Scope, Source } from '../context.ts';
import { CoreError, notFound } from '../errors.ts';
import {
  type FieldDefinitionInput,
  type FieldType,
  OPTION_TYPES,
  type TemplateDto,
} from '../routers/templates.schemas.ts';
import { ingest, MAX_DOCUMENTS, readDocumentFile } from './documents-input.ts';
import { recordEvent, registerEventDataBuilder } from './events.ts';
import { pageImage, signFileLink } from './file-links.ts';
import { enqueueJob, type JobHandler } from './jobs.ts';
import { sha256 } from './storage.ts';

export const MAX_ROLES = 10;
export const DEFAULT_ROLE = 'Signer';

const TYPE_LABEL: Record<FieldType, string> = {
  text: 'Text Field',
  signature: 'Signature',
  initials: 'Initials',
  date: 'Date',
  checkbox: 'Checkbox',
  number: 'Number',
  phone: 'Phone',
  select: 'Select',
  radio: 'Radio',
  multiple: 'Multiple Select',
  image: 'Image',
  file: 'File',
  stamp: 'Stamp',
  cells: 'Cells',
};

/** A field as stored, before it gets its row id and position. */
interface FieldSpec {
  name: string;
  type: FieldType;
  role: string | undefined;
  required: boolean;
  options: string[] | null;
  areas: FieldAreaRow[];
  source: string;
}

interface DocumentInfo {
  pages: { width: number; height: number }[];
}

// ---------------------------------------------------------------- fields and roles

function invalidField(index: number, message: string): CoreError {
  return new CoreError('invalid_field', `fields[${index}]: ${message}`);
}

/** The spec's invalid_field rules that need the documents: pages, document indexes, options. */
function fieldSpecsFromDefinitions(
  defs: FieldDefinitionInput[],
  docs: DocumentInfo[],
  source: string,
): FieldSpec[] {
  return defs.map((def, i) => {
    if (OPTION_TYPES.includes(def.type) && !def.options?.length) {
      throw invalidField(i, `options are required for ${def.type} fields`);
    }
    const areas = def.areas.map((a, j) => {
      const doc = docs[a.document];
      if (!doc)
        throw invalidField(
          i,
          `areas[${j}].document ${a.document} does not exist (the template has ${docs.length})`,
        );
      if (a.page > doc.pages.length) {
        throw invalidField(
          i,
          `areas[${j}].page ${a.page} does not exist (document ${a.document} has ${doc.pages.length} pages)`,
        );
      }
      if (a.x + a.w > 1.0000001 || a.y + a.h > 1.0000001)
        throw invalidField(i, `areas[${j}] extends beyond the page`);
      return { page: a.page, x: a.x, y: a.y, w: a.w, h: a.h, document: a.document };
    });
    return {
      name: def.name ?? '',
      type: def.type,
      role: def.role,
      required: def.required,
      options: OPTION_TYPES.includes(def.type) ? (def.options ?? null) : null,
      areas,
      source,
    };
  });
}

function fieldSpecsFromDetected(detected: DetectedField[], documentIndex: number): FieldSpec[] {
  return detected.map((d) => ({
    name: d.name ?? '',
    type: d.type,
    role: d.role,
    required: d.required,
    options: OPTION_TYPES.includes(d.type) ? (d.options ?? null) : null,
    areas: d.areas.map((a) => ({ ...a, document: documentIndex })),
    source: d.source === 'text_tag' ? 'text_tag' : 'form',
  }));
}

/** Unnamed fields get `Signature 2`-style names, numbered per type, skipping names already taken. */
function nameFields(fields: FieldSpec[]): FieldSpec[] {
  const taken = new Set(fields.map((f) => f.name).filter(Boolean));
  const counters = new Map<FieldType, number>();
  return fields.map((f) => {
    if (f.name) return f;
    let n = counters.get(f.type) ?? 0;
    let name: string;
    do {
      n += 1;
      name = `${TYPE_LABEL[f.type]} ${n}`;
    } while (taken.has(name));
    counters.set(f.type, n);
    taken.add(name);
    return { ...f, name };
  });
}

/** Roles named by fields are added in order of appearance; unroled fields take the first role. */
function assignRoles(existing: string[], fields: FieldSpec[]): { roles: string[]; fields: FieldSpec[] } {
  const roles = [...existing];
  for (const f of fields) if (f.role && !roles.includes(f.role)) roles.push(f.role);
  if (roles.length === 0) roles.push(DEFAULT_ROLE);
  if (roles.length > MAX_ROLES) {
    throw new CoreError(
      'invalid_field',
      `A template has at most ${MAX_ROLES} roles; the fields name ${roles.length}`,
    );
  }
  return { roles, fields: fields.map((f) => ({ ...f, role: f.role ?? roles[0] })) };
}

async function insertFields(tx: Tx, templateId: number, fields: FieldSpec[]): Promise<void> {
  if (fields.length === 0) return;
  await tx
    .insertInto('template_fields')
    .values(
      fields.map((f, position) => ({
        id: randomUUID(),
        template_id: templateId,
        position,
        name: f.name || null,
        type: f.type,
        role: f.role!,
        required: f.required,
        options: f.options ? json(f.options) : null,
        areas: json(f.areas),
        source: f.source,
      })),
    )
    .execute();
}

async function folderId(
  tx: Executor,
  scope: Scope,
  name: string | undefined | null,
): Promise<number | null | undefined> {
  if (name === undefined) return undefined;
  if (name === null) return null;
  await tx
    .insertInto('folders')
    .values({ account_id: scope.accountId, environment: scope.environment, name })
    .onConflict((oc) => oc.columns(['account_id', 'environment', 'name']).doNothing())
    .execute();
  const row = await tx
    .selectFrom('folders')
    .select('id')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

// ---------------------------------------------------------------- reads and the DTO

export async function findTemplate(db: Executor, scope: Scope, id: number): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
}

export async function requireTemplate(db: Executor, scope: Scope, id: number): Promise<TemplateRow> {
  const row = await findTemplate(db, scope, id);
  if (!row) throw notFound('Template', id);
  return row;
}

export async function lockTemplate(tx: Tx, scope: Scope, id: number): Promise<TemplateRow> {
  const row = await tx
    .selectFrom('templates')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Template', id);
  return row;
}

export async function loadTemplateFields(db: Executor, templateId: number): Promise<TemplateFieldRow[]> {
  return db
    .selectFrom('template_fields')
    .selectAll()
    .where('template_id', '=', templateId)
    .orderBy('position')
    .execute();
}

export function toFieldDto(f: TemplateFieldRow) {
  return {
    id: f.id,
    ...(f.name ? { name: f.name } : {}),
    type: f.type as FieldType,
    role: f.role,
    required: f.required,
    ...(f.options && OPTION_TYPES.includes(f.type as FieldType) ? { options: f.options } : {}),
    areas: f.areas,
  };
}

export interface DtoContext {
  config: Config;
  now: Date;
}

/** The one mapper from rows to the spec's Template object. */
export async function toTemplateDto(
  db: Executor,
  row: TemplateRow,
  dc: DtoContext,
  opts: { withDetails: boolean },
): Promise<TemplateDto> {
  const [creator, folder] = await Promise.all([
    row.created_by_user_id
      ? db
          .selectFrom('users')
          .select(['id', 'email', 'name'])
          .where('id', '=', row.created_by_user_id)
          .executeTakeFirst()
      : undefined,
    row.folder_id
      ? db.selectFrom('folders').select('name').where('id', '=', row.folder_id).executeTakeFirst()
      : undefined,
  ]);
  const dto: TemplateDto = {
    object: 'template',
    id: row.id,
    name: row.name,
    external_id: row.external_id,
    folder: folder?.name ?? null,
    roles: row.roles,
    edit_url: `${dc.config.PUBLIC_URL}/templates/${row.id}/edit`,
    created_by: creator ? { id: creator.id, email: creator.email, name: creator.name } : null,
    archived_at: row.archived_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  if (!opts.withDetails) return dto;
  const [fields, documents] = await Promise.all([
    loadTemplateFields(db, row.id),
    db
      .selectFrom('template_documents')
      .selectAll()
      .where('template_id', '=', row.id)
      .orderBy('position')
      .execute(),
  ]);
  dto.fields = fields.map(toFieldDto);
  dto.documents = documents.map((d) => ({
    id: d.id,
    name: d.name,
    url: signFileLink(dc.config, { k: d.storage_key, t: 'application/pdf', n: `${d.name}.pdf` }, dc.now),
    preview_image_url:
      d.pages.length > 0
        ? signFileLink(
            dc.config,
            { k: d.storage_key, t: 'image/png', n: `${d.name}-page-1.png`, p: 1 },
            dc.now,
          )
        : null,
    page_count: d.pages.length,
  }));
  return dto;
}

registerEventDataBuilder('template', async (db: Db, scope, id, ctx) => {
  const row = await requireTemplate(db, scope, id);
  return toTemplateDto(db, row, ctx, { withDetails: true });
});

// ---------------------------------------------------------------- create

export interface CreateTemplateArgs {
  name?: string;
  external_id?: string;
  folder?: string;
  password?: string;
  documents?: { name?: string; file: string }[];
  fields?: FieldDefinitionInput[];
}

const baseName = (name: string) => name.replace(/\.(pdf|png|jpe?g|gif|webp|tiff?|bmp)$/i, '');

/**
 * POST /templates. Heavy work (download, parse, tag removal, storage) happens before the
 * transaction; the template, its documents, fields and the template.created event commit together.
 */
export async function createTemplate(
  db: Db,
  actor: Actor,
  input: CreateTemplateArgs,
  opts: { deps: CoreDeps; source: Source; now: Date },
): Promise<{ row: TemplateRow; warnings: string[] }> {
  const docs = input.documents ?? [];
  if (docs.length === 0)
    throw new CoreError('missing_documents', 'A template needs at least one document in `documents`');
  if (docs.length > MAX_DOCUMENTS) {
    throw new CoreError(
      'too_many_documents',
      `A template has at most ${MAX_DOCUMENTS} documents; got ${docs.length}`,
    );
  }
  const stored: {
    name: string;
    key: string;
    mime: string;
    size: number;
    sha: string;
    pages: { width: number; height: number }[];
  }[] = [];
  const detected: FieldSpec[] = [];
  const warnings: string[] = [];
  for (const [i, doc] of docs.entries()) {
    const label = `documents[${i}]`;
    const bytes = await readDocumentFile(doc.file, label, opts.deps);
    const result = await ingest(bytes, label, input.password, actor.accountId);
    const key = `templates/${actor.accountId}/${randomUUID()}.pdf`;
    await opts.deps.storage.put(key, result.pdf, 'application/pdf');
    stored.push({
      name: doc.name ? baseName(doc.name) : `Document ${i + 1}`,
      key,
      mime: result.mimeType,
      size: result.pdf.length,
      sha: sha256(result.pdf),
      pages: result.pages,
    });
    detected.push(...fieldSpecsFromDetected(result.fields, i));
    warnings.push(...result.warnings.map((w) => `${label}: ${w}`));
  }
  const given = fieldSpecsFromDefinitions(input.fields ?? [], stored, 'api');
  // When every text tag names a role, the template gets exactly those roles (plus any in `fields`).
  const { roles, fields } = assignRoles([], nameFields([...detected, ...given]));
  const scope = { accountId: actor.accountId, environment: actor.environment };
  const row = await db.transaction().execute(async (tx) => {
    const template = await tx
      .insertInto('templates')
      .values({
        account_id: actor.accountId,
        environment: actor.environment,
        name: input.name ?? baseName(docs[0]?.name ?? stored[0]!.name),
        external_id: input.external_id ?? null,
        folder_id: (await folderId(tx, scope, input.folder)) ?? null,
        roles: json(roles),
        source: opts.source,
        created_by_user_id: actor.userId,
        api_key_id: actor.apiKeyId,
        created_at: opts.now,
        updated_at: opts.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('template_documents')
      .values(
        stored.map((d, position) => ({
          template_id: template.id,
          position,
          name: d.name,
          storage_key: d.key,
          mime_type: d.mime,
          byte_size: d.size,
          sha256: d.sha,
          pages: json(d.pages),
        })),
      )
      .execute();
    await insertFields(tx, template.id, fields);
    await enqueueJob(tx, { kind: RENDER_PAGES_JOB, payload: { templateId: template.id }, maxAttempts: 3 });
    await recordEvent(tx, scope, {
      type: 'template.created',
      objectType: 'template',
      objectId: template.id,
      now: opts.now,
    });
    return template;
  });
  return { row, warnings };
}

// ---------------------------------------------------------------- list

export async function listTemplates(
  db: Executor,
  scope: Scope,
  q: {
    limit: number;
    cursor?: number;
    q?: string;
    archived?: boolean;
    external_id?: string;
    folder?: string;
  },
) {
  let query = db
    .selectFrom('templates')
    .selectAll('templates')
    .where('templates.account_id', '=', scope.accountId)
    .where('templates.environment', '=', scope.environment)
    .where('templates.archived_at', q.archived ? 'is not' : 'is', null)
    .orderBy('templates.id', 'desc')
    .limit(q.limit + 1);
  if (q.cursor) query = query.where('templates.id', '<', q.cursor);
  if (q.q) query = query.where('templates.name', 'ilike', `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.external_id !== undefined) query = query.where('templates.external_id', '=', q.external_id);
  if (q.folder !== undefined) {
    query = query
      .innerJoin('folders', 'folders.id', 'templates.folder_id')
      .where('folders.name', '=', q.folder);
  }
  const rows = await query.execute();
  const page = rows.slice(0, q.limit);
  return {
    rows: page,
    hasMore: rows.length > q.limit,
    nextCursor: rows.length > q.limit ? page.at(-1)!.id : null,
  };
}

// ---------------------------------------------------------------- update, duplicate, archive

export interface UpdateTemplateArgs {
  name?: string;
  external_id?: string | null;
  folder?: string;
  roles?: string[];
  fields?: FieldDefinitionInput[];
}

/** PATCH /templates/{id}: only sent keys change; roles renamed by position, never removed. */
export async function updateTemplate(
  tx: Tx,
  actor: Actor,
  id: number,
  input: UpdateTemplateArgs,
  now: Date,
): Promise<TemplateRow> {
  const scope = { accountId: actor.accountId, environment: actor.environment };
  const row = await lockTemplate(tx, scope, id);
  let roles = [...row.roles];
  if (input.roles) {
    if (new Set(input.roles).size !== input.roles.length)
      throw new CoreError('invalid_parameter', 'roles must be unique');
    const renames = new Map<string, string>();
    input.roles.forEach((name, i) => {
      if (i < roles.length) {
        if (roles[i] !== name) renames.set(roles[i]!, name);
        roles[i] = name;
      } else roles.push(name);
    });
    if (new Set(roles).size !== roles.length)
      throw new CoreError('invalid_parameter', 'roles would not be unique after renaming');
    if (roles.length > MAX_ROLES)
      throw new CoreError('invalid_parameter', `A template has at most ${MAX_ROLES} roles`);
    if (renames.size > 0) {
      // One statement, so swapping two role names cannot collide.
      await tx
        .updateTable('template_fields')
        .set((eb) => {
          let c = eb.case();
          let first = true;
          let chain: any;
          for (const [from, to] of renames) {
            chain = first ? c.when('role', '=', from).then(to) : chain.when('role', '=', from).then(to);
            first = false;
          }
          c = chain;
          return { role: (c as any).else(eb.ref('role')).end() };
        })
        .where('template_id', '=', id)
        .where('role', 'in', [...renames.keys()])
        .execute();
    }
  }
  if (input.fields) {
    const docs = await tx
      .selectFrom('template_documents')
      .select('pages')
      .where('template_id', '=', id)
      .orderBy('position')
      .execute();
    const specs = nameFields(fieldSpecsFromDefinitions(input.fields, docs, 'api'));
    const assigned = assignRoles(roles, specs);
    roles = assigned.roles;
    await tx.deleteFrom('template_fields').where('template_id', '=', id).execute();
    await insertFields(tx, id, assigned.fields);
  }
  const updated = await tx
    .updateTable('templates')
    .set({
      updated_at: now,
      roles: json(roles),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.external_id !== undefined ? { external_id: input.external_id } : {}),
      ...(input.folder !== undefined ? { folder_id: (await folderId(tx, scope, input.folder)) ?? null } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordEvent(tx, scope, { type: 'template.updated', objectType: 'template', objectId: id, now });
  return updated;
}

/** POST /templates/{id}/duplicate: documents (shared immutable files), fields (new ids) and roles. */
export async function duplicateTemplate(
  tx: Tx,
  actor: Actor,
  id: number,
  input: { name?: string; external_id?: string; folder?: string },
  opts: { source: Source; now: Date },
): Promise<TemplateRow> {
  const scope = { accountId: actor.accountId, environment: actor.environment };
  const original = await requireTemplate(tx, scope, id);
  const copy = await tx
    .insertInto('templates')
    .values({
      account_id: actor.accountId,
      environment: actor.environment,
      name: input.name ?? `${original.name} (Clone)`,
      external_id: input.external_id ?? null,
      folder_id:
        input.folder !== undefined ? ((await folderId(tx, scope, input.folder)) ?? null) : original.folder_id,
      roles: json(original.roles),
      source: opts.source,
      created_by_user_id: actor.userId,
      api_key_id: actor.apiKeyId,
      created_at: opts.now,
      updated_at: opts.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const docs = await tx
    .selectFrom('template_documents')
    .selectAll()
    .where('template_id', '=', id)
    .orderBy('position')
    .execute();
  if (docs.length) {
    await tx
      .insertInto('template_documents')
      .values(
        docs.map((d) => ({
          template_id: copy.id,
          position: d.position,
          name: d.name,
          storage_key: d.storage_key,
          original_storage_key: d.original_storage_key,
          mime_type: d.mime_type,
          byte_size: d.byte_size,
          sha256: d.sha256,
          pages: json(d.pages),
          preview_storage_key: d.preview_storage_key,
        })),
      )
      .execute();
  }
  const fields = await loadTemplateFields(tx, id);
  await insertFields(
    tx,
    copy.id,
    fields.map((f) => ({
      name: f.name ?? '',
      type: f.type as FieldType,
      role: f.role,
      required: f.required,
      options: f.options,
      areas: f.areas,
      source: f.source,
    })),
  );
  await recordEvent(tx, scope, {
    type: 'template.created',
    objectType: 'template',
    objectId: copy.id,
    now: opts.now,
  });
  return copy;
}

/** POST /templates/{id}/archive: idempotent; template.archived only the first time. */
export async function archiveTemplate(tx: Tx, actor: Actor, id: number, now: Date): Promise<TemplateRow> {
  const scope = { accountId: actor.accountId, environment: actor.environment };
  const row = await lockTemplate(tx, scope, id);
  if (row.archived_at) return row;
  const archived = await tx
    .updateTable('templates')
    .set({ archived_at: now, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordEvent(tx, scope, { type: 'template.archived', objectType: 'template', objectId: id, now });
  return archived;
}

export const RENDER_PAGES_JOB = 'template.render_pages';
/** Pages rendered ahead of the first view; later pages render on first request. */
export const PRERENDER_PAGES = 30;

/** Job: render a new template's page images in the worker so signers and the editor never wait on a cold render. */
export const renderTemplatePagesJob: JobHandler = async (ctx, payload) => {
  const docs = await ctx.db
    .selectFrom('template_documents')
    .select(['storage_key', 'pages'])
    .where('template_id', '=', Number(payload.templateId))
    .orderBy('position')
    .execute();
  for (const doc of docs) {
    const pdf = await ctx.deps.storage.get(doc.storage_key);
    const count = Math.min(doc.pages.length, PRERENDER_PAGES);
    for (let page = 1; page <= count; page++) await pageImage(ctx.deps.storage, doc.storage_key, page, pdf);
  }
};
