import type { Executor, SignatureRequestRow, SignerRow } from '@esign/db';
import { findRequestViewById } from '@esign/db/queries/signature-requests';
import type { Config } from '../../config.ts';
import type { Scope } from '../../context.ts';
import type { SignatureRequestDto, SignerDto } from '../../contracts/signature-requests.ts';
import { signFileLink } from '../file-links.ts';
import type { FieldValue, ProducedFiles, RequestSnapshot } from '../request-model.ts';
import { signingUrl } from './invitations.ts';
import { loadSignersOf, type RequestView, requireRequestView, requireSigner } from './queries.ts';
import { effectiveStatus, effectiveValues, signerFields } from './status.ts';

// The one mapper per resource from rows to the specification's Signature request and Signer.

function fileRefs(config: Config, files: ProducedFiles | null, now: Date) {
  return (files?.files ?? [])
    .filter((f) => f.kind === 'document')
    .map((f) => ({
      name: f.name,
      url: signFileLink(config, { k: f.storage_key, t: 'application/pdf', n: `${f.name}.pdf` }, { now }),
    }));
}

export interface DtoOptions {
  config: Config;
  now: Date;
  withValues: boolean;
}

export function toSignerDto(
  signer: SignerRow,
  request: SignatureRequestRow,
  o: DtoOptions & { archived: boolean },
): SignerDto {
  const status = effectiveStatus(request, o.now);
  const linkLive =
    !o.archived &&
    (status === 'sent' || status === 'in_progress') &&
    signer.status !== 'signed' &&
    signer.status !== 'declined';
  const snapshot = request.snapshot as RequestSnapshot;
  const dto: SignerDto = {
    object: 'signer',
    id: signer.id,
    signature_request_id: signer.signature_request_id,
    // Issue 47: shown only for approvers and viewers (a signer's object is the spec's, unchanged).
    ...(signer.kind !== 'signer' ? { kind: signer.kind } : {}),
    role: signer.role,
    name: signer.name,
    email: signer.email,
    phone: signer.phone,
    external_id: signer.external_id,
    locale: signer.locale,
    metadata: signer.metadata,
    status: signer.status,
    signing_url: linkLive && signer.token_nonce ? signingUrl(o.config, signer.token_nonce) : null,
    sent_at: signer.sent_at?.toISOString() ?? null,
    viewed_at: signer.viewed_at?.toISOString() ?? null,
    signed_at: signer.signed_at?.toISOString() ?? null,
    declined_at: signer.declined_at?.toISOString() ?? null,
    ...(signer.status === 'declined' ? { decline_reason: signer.decline_reason } : {}),
    created_at: signer.created_at.toISOString(),
    updated_at: signer.updated_at.toISOString(),
  };
  if (o.withValues) {
    const values = effectiveValues(signer);
    dto.values = signerFields(snapshot, signer.role)
      .filter((f) => values[f.name] !== undefined && values[f.name] !== null)
      .map((f) => ({ field: f.name, value: values[f.name] as NonNullable<FieldValue> }));
    if (signer.status === 'signed')
      dto.documents = fileRefs(o.config, signer.documents as ProducedFiles | null, o.now);
  }
  return dto;
}

/**
 * The one mapper from rows to the spec's Signature request object: the request (with its creator
 * and template state, requestViews) and its signers in signing order.
 */
export function toSignatureRequestDto(
  row: RequestView,
  signers: SignerRow[],
  o: DtoOptions,
): SignatureRequestDto {
  const archived = row.template_archived;
  const status = effectiveStatus(row, o.now);
  const snapshot = row.snapshot as RequestSnapshot;
  const dto: SignatureRequestDto = {
    object: 'signature_request',
    id: row.id,
    status,
    template: row.template_id ? { id: row.template_id, name: snapshot.template.name } : null,
    signing_order: row.signing_order,
    source: row.source,
    created_by: row.created_by,
    locale: row.locale,
    signers: signers.map((s) => toSignerDto(s, row, { ...o, archived })),
    expires_at: row.expires_at?.toISOString() ?? null,
    completed_at: row.completed_at?.toISOString() ?? null,
    canceled_at: row.canceled_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    // Issue 34 (extensions): who is copied, who is told when it ends.
    cc: row.recipients.filter((r) => r.kind === 'cc').map((r) => r.email),
    notify: row.recipients.filter((r) => r.kind === 'notify').map((r) => r.email),
    // Issue 34.2, 34.3: shown only when set (the spec's object is unchanged otherwise).
    ...(row.reminders ? { reminders: row.reminders } : {}),
    ...(row.allow_delegation ? { allow_delegation: true } : {}),
    // Issue 44: shown only when a brand was chosen.
    ...(row.brand_id ? { brand_id: row.brand_id } : {}),
  };
  if (status === 'completed' && o.withValues) {
    const files = row.documents as ProducedFiles | null;
    const sealed = row.sealing_status === 'done' && files;
    dto.documents = sealed ? fileRefs(o.config, files, o.now) : null;
    dto.audit_trail_url =
      sealed && row.audit_trail_storage_key
        ? signFileLink(
            o.config,
            { k: row.audit_trail_storage_key, t: 'application/pdf', n: `audit-trail-${row.id}.pdf` },
            { now: o.now },
          )
        : null;
    dto.combined_document_url =
      sealed && row.combined_storage_key
        ? signFileLink(
            o.config,
            { k: row.combined_storage_key, t: 'application/pdf', n: `signed-${row.id}.pdf` },
            { now: o.now },
          )
        : null;
  }
  return dto;
}

/** Signature request objects of several requests: their signers in one statement. */
export async function signatureRequestDtos(
  db: Executor,
  rows: RequestView[],
  o: DtoOptions,
): Promise<SignatureRequestDto[]> {
  const signers = await loadSignersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toSignatureRequestDto(r, signers.get(r.id) ?? [], o));
}

/** One Signature request object: its signers in one statement. */
export async function signatureRequestDto(
  db: Executor,
  row: RequestView,
  o: DtoOptions,
): Promise<SignatureRequestDto> {
  const [dto] = await signatureRequestDtos(db, [row], o);
  return dto!;
}

/** The Signer object with values and, once signed, documents (its request read in one statement). */
export async function signerDto(
  db: Executor,
  signer: SignerRow,
  { config, now }: { config: Config; now: Date },
): Promise<SignerDto> {
  const request = await findRequestViewById(db, signer.signature_request_id);
  if (!request) throw new Error(`Signer ${signer.id}'s request ${signer.signature_request_id} was not found`);
  return toSignerDto(signer, request, { config, now, withValues: true, archived: request.template_archived });
}

/** What an event's data is built for: the object's id, at delivery time (event-data.ts). */
export interface EventDataTarget {
  id: number;
  config: Config;
  now: Date;
}

/** Event data of a `signature_request`: the Signature request object now, with values. */
export async function signatureRequestEventData(
  db: Executor,
  scope: Scope,
  { id, ...ctx }: EventDataTarget,
): Promise<SignatureRequestDto> {
  return signatureRequestDto(db, await requireRequestView(db, scope, id), { ...ctx, withValues: true });
}

/** Event data of a `signer`: the Signer object now. */
export async function signerEventData(
  db: Executor,
  scope: Scope,
  { id, ...ctx }: EventDataTarget,
): Promise<SignerDto> {
  return signerDto(db, await requireSigner(db, scope, id), ctx);
}
