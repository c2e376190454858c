import { type BrandRow, type Executor, json, type Tx } from '@esign/db';
import {
  type BrandUpdate,
  clearDefaultBrand,
  deleteBrandRow,
  findBrand,
  hasBrands,
  insertBrand,
  listBrandRows,
  lockBrand,
  updateBrandRow,
} from '@esign/db/queries/brands';
import { contrastFailures, contrastMessage } from '@esign/domain';
import type { Actor, Scope } from '../../context.ts';
import { scopeOf } from '../../context.ts';
import type { BrandDto, CreateBrandInput, UpdateBrandInput } from '../../contracts/brands.ts';
import { CoreError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import { type ListPage, listPage } from '../list-page.ts';
import type { ServiceContext } from '../service-context.ts';
import { checkEmailTexts } from './email-texts.ts';
import { cleanLogo } from './logo.ts';

// Brands (issue 44; docs/branding.md): several per account side, at most one default. Every
// change is checked (logo, colours) before it is written, and written with its audit entry (who
// changed which fields) in one transaction.

/** The Brand object; `withLogo` adds the logo itself (a single brand, never a list page). */
function toBrandDto(row: BrandRow, opts: { withLogo: boolean }): BrandDto {
  const logo =
    row.logo && row.logo_type
      ? {
          content_type: row.logo_type,
          size: row.logo.length,
          ...(opts.withLogo
            ? { data_uri: `data:${row.logo_type};base64,${row.logo.toString('base64')}` }
            : {}),
        }
      : null;
  return {
    object: 'brand',
    id: row.id,
    name: row.name,
    logo,
    primary_color: row.primary_color,
    accent_color: row.accent_color,
    support_email: row.support_email,
    support_url: row.support_url,
    legal_footer: row.legal_footer,
    from_name: row.from_name,
    reply_to: row.reply_to,
    from_address: row.from_address,
    is_default: row.is_default,
    email_texts: row.email_texts,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Refuses colours below WCAG AA on the signing page, naming the first failing pair. */
function assertContrast(colors: { primary_color: string; accent_color: string }): void {
  const failure = contrastFailures(colors)[0];
  if (failure) throw new CoreError('invalid_parameter', contrastMessage(failure));
}

export async function listBrands(
  db: Executor,
  scope: Scope,
  page: { limit: number; cursor?: number | undefined },
): Promise<ListPage<BrandDto>> {
  const rows = await listBrandRows(db, scope, page);
  return listPage(rows, page.limit, async (items) => items.map((r) => toBrandDto(r, { withLogo: false })));
}

export async function getBrand(db: Executor, scope: Scope, id: number): Promise<BrandDto> {
  const row = await findBrand(db, scope, id);
  if (!row) throw notFound('Brand', id);
  return toBrandDto(row, { withLogo: true });
}

/**
 * The brand a template or request names, checked to be of this account side (another account's
 * brand is a 404, like any id of another account). Null when none is named.
 */
export async function requireBrandChoice(
  db: Executor,
  scope: Scope,
  brandId: number | null | undefined,
): Promise<number | null> {
  if (brandId === undefined || brandId === null) return null;
  if (!(await findBrand(db, scope, brandId))) throw notFound('Brand', brandId);
  return brandId;
}

type Editable = Omit<UpdateBrandInput, 'id'>;

/** The columns a create or an update writes, the logo cleaned (refused when unsafe or too large). */
function columnsOf(input: Editable): BrandUpdate {
  const out: BrandUpdate = {};
  const plain = [
    'name',
    'primary_color',
    'accent_color',
    'support_email',
    'support_url',
    'legal_footer',
    'from_name',
    'reply_to',
    'from_address',
  ] as const;
  for (const key of plain) if (input[key] !== undefined) (out as Record<string, unknown>)[key] = input[key];
  if (input.email_texts !== undefined) {
    checkEmailTexts(input.email_texts);
    out.email_texts = json(input.email_texts);
  }
  if (input.logo === null) Object.assign(out, { logo: null, logo_type: null });
  else if (input.logo !== undefined) {
    const logo = cleanLogo(input.logo);
    Object.assign(out, { logo: logo.bytes, logo_type: logo.type });
  }
  return out;
}

/** The fields a change names, as the audit entry records them (never the logo's bytes). */
const changedFields = (input: Editable): string[] =>
  Object.keys(input)
    .filter((k) => input[k as keyof Editable] !== undefined)
    .sort();

async function audit(
  tx: Tx,
  actor: Actor,
  entry: { type: string; brand: BrandRow; changed?: string[]; now: Date },
) {
  await recordAudit(tx, scopeOf(actor), {
    type: entry.type,
    by: { kind: 'actor', actor },
    data: {
      brand_id: entry.brand.id,
      brand_name: entry.brand.name,
      ...(entry.changed ? { changed: entry.changed } : {}),
    },
    now: entry.now,
  });
}

export async function createBrand(
  sc: ServiceContext,
  actor: Actor,
  input: CreateBrandInput,
): Promise<BrandDto> {
  assertContrast(input);
  const columns = columnsOf(input);
  const scope = scopeOf(actor);
  const now = sc.now();
  const row = await sc.db.transaction().execute(async (tx) => {
    const first = !(await hasBrands(tx, scope));
    // The first brand of an account side is its default: a brand always applies once one exists.
    const isDefault = input.is_default ?? first;
    if (isDefault) await clearDefaultBrand(tx, scope);
    const brand = await insertBrand(tx, scope, {
      ...columns,
      name: input.name,
      primary_color: input.primary_color,
      accent_color: input.accent_color,
      is_default: isDefault,
      created_by_user_id: actor.userId,
      created_at: now,
      updated_at: now,
    });
    await audit(tx, actor, { type: 'brand.created', brand, changed: changedFields(input), now });
    return brand;
  });
  return toBrandDto(row, { withLogo: true });
}

export async function updateBrand(
  sc: ServiceContext,
  actor: Actor,
  input: UpdateBrandInput,
): Promise<BrandDto> {
  const { id, ...patch } = input;
  const scope = scopeOf(actor);
  const columns = columnsOf(patch);
  const now = sc.now();
  const row = await sc.db.transaction().execute(async (tx) => {
    const current = await lockBrand(tx, scope, id);
    if (!current) throw notFound('Brand', id);
    assertContrast({
      primary_color: patch.primary_color ?? current.primary_color,
      accent_color: patch.accent_color ?? current.accent_color,
    });
    if (patch.is_default === true) await clearDefaultBrand(tx, scope, id);
    const brand = await updateBrandRow(tx, scope, id, {
      ...columns,
      ...(patch.is_default === undefined ? {} : { is_default: patch.is_default }),
      updated_at: now,
    });
    await audit(tx, actor, { type: 'brand.updated', brand, changed: changedFields(patch), now });
    return brand;
  });
  return toBrandDto(row, { withLogo: true });
}

/** Deletes a brand; templates and requests that named it show the default from then on. */
export async function deleteBrand(
  sc: ServiceContext,
  actor: Actor,
  id: number,
): Promise<{ object: 'brand'; id: number; deleted: true }> {
  const scope = scopeOf(actor);
  const now = sc.now();
  await sc.db.transaction().execute(async (tx) => {
    const brand = await lockBrand(tx, scope, id);
    if (!brand) throw notFound('Brand', id);
    await deleteBrandRow(tx, scope, id);
    await audit(tx, actor, { type: 'brand.deleted', brand, now });
  });
  return { object: 'brand', id, deleted: true };
}
