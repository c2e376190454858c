import type { TemplateRow } from '@esign/db';
import type { SendDocumentRow, SendFieldRow } from '@esign/db/queries/signature-requests';
import { formIssues } from '@esign/domain';
import { guardedFetch } from '@esign/webhooks';
import type { CoreDeps } from '../../context.ts';
import {
  type CreateSignatureRequestInput,
  MAX_PREFILL_IMAGE_URLS,
} from '../../contracts/signature-requests.ts';
import { CoreError } from '../../errors.ts';
import { isImageField, normaliseValues } from '../field-values.ts';
import { type FieldValue, pageRuns, type RequestSnapshot, type SnapshotField } from '../request-model.ts';
import { hasFormLogic } from '../signing/form-logic.ts';
import { normalisePhone } from '../sms/phone.ts';
import { roleKindOf } from '../templates/role-kinds.ts';
import { signerFields } from './status.ts';

// The rules of POST /signature_requests that decide what is sent, as steps: the template must be
// sendable, the signers fill its roles, the request keeps a snapshot of it, and each signer's
// metadata and prefill are checked against their fields.

type SignerInput = NonNullable<CreateSignatureRequestInput['signers']>[number];

/** A signer ready to be written: their role decided, metadata an object, prefill normalised. */
type PlannedSigner = SignerInput & {
  role: string;
  metadata: Record<string, unknown>;
  prefill: Record<string, FieldValue>;
};

/** What the request is made from: the template as read (in the transaction: as locked). */
export interface TemplateSource {
  template: TemplateRow;
  fields: SendFieldRow[];
  documents: SendDocumentRow[];
}

export interface RequestPlan {
  snapshot: RequestSnapshot;
  signers: PlannedSigner[];
}

/** Turns image values given as URLs into data: URIs (or leaves them, when nothing may be fetched). */
export type InlineImages = (
  fields: SnapshotField[],
  values: Record<string, unknown>,
  label: string,
) => Promise<Record<string, unknown>>;

export function parseExpiry(value: string | undefined, now: Date): Date | null {
  if (value === undefined) return null;
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime())) {
    throw new CoreError(
      'invalid_parameter',
      'expires_at must be an ISO 8601 date-time such as 2030-01-31T12:00:00Z',
    );
  }
  if (d <= now) throw new CoreError('invalid_parameter', 'expires_at must be in the future');
  return d;
}

export function objectParam(value: unknown, name: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CoreError('invalid_parameter', `${name} must be an object`);
  return value as Record<string, unknown>;
}

/** The template must be active (`template_archived`) and have a field (`template_has_no_fields`). */
function assertSendable(template: TemplateRow, fields: SendFieldRow[]): void {
  if (template.archived_at)
    throw new CoreError('template_archived', `Template ${template.id} is archived and cannot be sent`);
  if (fields.length === 0) {
    throw new CoreError(
      'template_has_no_fields',
      `Template ${template.id} has no fields yet; add fields (text tags, PATCH fields, or the editor) first`,
    );
  }
}

/** At most one signer per role; roles left out are filled in template order; signers sign in role order. */
function assignRoles(signersIn: SignerInput[], roles: string[]): (SignerInput & { role: string })[] {
  if (signersIn.length === 0) throw new CoreError('missing_signers', 'signers must list at least one signer');
  if (signersIn.length > roles.length) {
    throw new CoreError(
      'invalid_signer',
      `The template has ${roles.length} role(s) (${roles.join(', ')}) but ${signersIn.length} signers were given`,
    );
  }
  const taken = new Set<string>();
  for (const [i, s] of signersIn.entries()) {
    if (!s.email && !s.phone)
      throw new CoreError('invalid_signer', `signers[${i}] needs an email or a phone`);
    if (s.role === undefined) continue;
    if (!roles.includes(s.role))
      throw new CoreError(
        'invalid_signer',
        `signers[${i}].role "${s.role}" is not a role of the template (${roles.join(', ')})`,
      );
    if (taken.has(s.role))
      throw new CoreError('invalid_signer', `signers[${i}].role "${s.role}" is given twice`);
    taken.add(s.role);
  }
  const free = roles.filter((r) => !taken.has(r));
  const assigned = signersIn.map((s, i) => ({
    ...s,
    role: s.role ?? free.shift()!,
    // E.164, or 422 invalid_parameter for a number that cannot exist (sms/phone.ts).
    ...(s.phone ? { phone: normalisePhone(s.phone, `signers[${i}].phone`) } : {}),
  }));
  assigned.sort((a, b) => roles.indexOf(a.role) - roles.indexOf(b.role));
  return assigned;
}

/** What the request keeps of its template: later template edits change nothing for its signers. */
function buildSnapshot({ template, fields, documents }: TemplateSource): RequestSnapshot {
  return {
    template: { id: template.id, name: template.name },
    roles: template.roles,
    documents: documents.map((d, index) => ({
      index,
      template_document_id: d.id,
      name: d.name,
      storage_key: d.storage_key,
      sha256: d.sha256,
      uploaded_sha256: d.uploaded_sha256,
      page_sizes: pageRuns(d.pages),
    })),
    fields: fields.map((f) => ({
      id: f.id,
      name: f.name ?? f.id,
      type: f.type as SnapshotField['type'],
      role: f.role,
      required: f.required,
      ...(f.options ? { options: f.options } : {}),
      areas: f.areas,
      ...(f.logic ?? {}),
    })),
  };
}

/** Checks the template and every signer against it; `inline` runs before each prefill is checked. */
export async function planRequest(
  source: TemplateSource,
  signersIn: SignerInput[],
  inline: InlineImages,
): Promise<RequestPlan> {
  assertSendable(source.template, source.fields);
  const assigned = assignRoles(signersIn, source.template.roles);
  const snapshot = buildSnapshot(source);
  const signers: PlannedSigner[] = [];
  for (const [i, s] of assigned.entries()) {
    const label = `signers[${i}].prefill`;
    const metadata = objectParam(s.metadata, `signers[${i}].metadata`) ?? {};
    const prefillIn = objectParam(s.prefill, label);
    const fields = signerFields(snapshot, s.role);
    // Issue 47: the template's kind of the role, unless the send names one.
    const kind = s.kind ?? roleKindOf(source.template, s.role);
    assertPartFields({ ...s, kind }, fields, i);
    const prefill = prefillIn
      ? normaliseValues(fields, await inline(fields, prefillIn, label), { what: label })
      : {};
    signers.push({ ...s, kind, metadata, prefill });
  }
  return { snapshot, signers: withoutComputedPrefill(snapshot, signers) };
}

/**
 * Issue 46: prefill for a formula field is ignored (the formula computes it), and so is prefill
 * for a field the prefilled answers hide (a bulk send's column for the other branch); the same
 * rule for one request and for every row of a bulk send.
 */
function withoutComputedPrefill(snapshot: RequestSnapshot, signers: PlannedSigner[]): PlannedSigner[] {
  if (!hasFormLogic(snapshot) || signers.every((s) => Object.keys(s.prefill).length === 0)) return signers;
  const values: Record<string, FieldValue> = {};
  for (const s of signers) Object.assign(values, s.prefill);
  const { state } = formIssues(snapshot.fields, values, { role: '' });
  const ignored = (name: string) => {
    const f = state.fields[name];
    return f !== undefined && (!f.visible || f.computed !== undefined);
  };
  return signers.map((s) => ({
    ...s,
    prefill: Object.fromEntries(Object.entries(s.prefill).filter(([name]) => !ignored(name))),
  }));
}

/**
 * Issue 47: an approver or a viewer fills no field, so they must fill a role without fields (add
 * one with PATCH /templates/{id} `roles`, or in the editor); their role's fields would stay empty.
 */
function assertPartFields(s: SignerInput & { role: string }, fields: SnapshotField[], i: number): void {
  if (!s.kind || s.kind === 'signer' || fields.length === 0) return;
  throw new CoreError(
    'invalid_signer',
    `signers[${i}].kind ${s.kind}: ${s.kind === 'approver' ? 'an' : 'a'} ${s.kind} fills no field, but role "${s.role}" has ${fields.length} (${fields
      .slice(0, 3)
      .map((f) => f.name)
      .join(', ')}); give them a role without fields`,
  );
}

/** Values already checked (in the transaction, nothing is fetched). */
export const keepImages: InlineImages = async (_fields, values) => values;

/**
 * The spec: image or signature prefills may be "a base64 image or an https URL". URLs are fetched
 * once, through the outbound guard, into data: URIs, before any transaction is opened.
 */
export function downloadImages(deps: CoreDeps): InlineImages {
  // One request's downloads, across its signers: each URL fetched once, at most MAX_PREFILL_IMAGE_URLS.
  const fetched = new Map<string, Promise<string>>();
  return async (fields, values, label) => {
    const out = { ...values };
    for (const f of fields) {
      const v = out[f.name];
      if (!isImageField(f.type) || typeof v !== 'string' || !v.startsWith('https://')) continue;
      let image = fetched.get(v);
      if (!image) {
        if (fetched.size >= MAX_PREFILL_IMAGE_URLS) {
          throw new CoreError(
            'invalid_request',
            `${label}.${f.name}: a request may download at most ${MAX_PREFILL_IMAGE_URLS} image URLs; send further images as base64`,
          );
        }
        image = fetchImage(v, deps, `${label}.${f.name}`);
        image.catch(() => {});
        fetched.set(v, image);
      }
      out[f.name] = await image;
    }
    return out;
  };
}

async function fetchImage(url: string, deps: CoreDeps, label: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    const res = await guardedFetch(url, {
      timeoutMs: 15_000,
      maxBytes: 3 * 1024 * 1024,
      allowedProtocols: ['https:'],
      requireOk: true,
      allowPrivate: deps.outbound?.allowPrivate ?? false,
      ca: deps.outbound?.ca,
      lookup: deps.outbound?.lookup,
    });
    bytes = res.body;
  } catch (err) {
    throw new CoreError(
      'invalid_request',
      `${label}: the image URL could not be downloaded (${(err as Error).message})`,
    );
  }
  const png = bytes[0] === 0x89 && bytes[1] === 0x50;
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  if (!png && !jpeg) throw new CoreError('invalid_request', `${label}: the URL is not a PNG or JPEG image`);
  return `data:image/${png ? 'png' : 'jpeg'};base64,${Buffer.from(bytes).toString('base64')}`;
}
