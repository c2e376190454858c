import { json, type SignatureRequestRow, type SignerRow, type Tx } from '@esign/db';
import { updateSigner as updateSignerRow } from '@esign/db/queries/signers';
import { isEmail } from '@esign/domain';
import { type Actor, type Scope, scopeOf } from '../../context.ts';
import type { SignerDto } from '../../contracts/signature-requests.ts';
import { CoreError } from '../../errors.ts';
import { normaliseValues } from '../field-values.ts';
import type { RequestSnapshot } from '../request-model.ts';
import type { ServiceContext } from '../service-context.ts';
import { noOutgoing, normalisePhone } from '../sms/index.ts';
import { signerDto } from './dto.ts';
import { queueInvitation, sendQueuedMail } from './invitations.ts';
import { objectParam } from './plan.ts';
import { lockRequest, lockSigner, requireSigner, senderNameOf } from './queries.ts';
import { effectiveStatus, isFinished, RESEND_INTERVAL_MS, signerFields } from './status.ts';

// GET and PATCH /signers/{id}.

/** GET /signers/{id}: the Signer with values and, once signed, documents. */
export async function getSigner(
  sc: Pick<ServiceContext, 'db' | 'config' | 'now'>,
  scope: Scope,
  id: number,
): Promise<SignerDto> {
  return signerDto(sc.db, await requireSigner(sc.db, scope, id), { config: sc.config, now: sc.now() });
}

export interface UpdateSignerArgs {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  external_id?: string | null;
  locale?: string | null;
  metadata?: unknown;
  prefill?: unknown;
  resend: boolean;
}

/** The checks of PATCH /signers/{id}, on the locked request and signer; returns what to write. */
function checkSignerPatch(
  request: SignatureRequestRow,
  signer: SignerRow,
  input: UpdateSignerArgs,
  now: Date,
) {
  const id = signer.id;
  if (isFinished(signer)) {
    throw new CoreError('signer_finished', `Signer ${id} has ${signer.status} and cannot be changed`);
  }
  const status = effectiveStatus(request, now);
  if (status === 'canceled' || status === 'declined' || status === 'expired') {
    throw new CoreError(
      'not_open',
      `Signature request ${request.id} is ${status}; its signers cannot be changed`,
    );
  }
  if (input.email !== undefined && input.email !== null && !isEmail(input.email)) {
    throw new CoreError('invalid_parameter', `Invalid signer email "${input.email}"`);
  }
  const email = input.email !== undefined ? input.email : signer.email;
  // E.164, or 422 invalid_parameter for a number that cannot exist (sms/phone.ts).
  const phone = input.phone
    ? normalisePhone(input.phone, 'phone')
    : input.phone === null
      ? null
      : signer.phone;
  if (!email && !phone) throw new CoreError('invalid_parameter', 'A signer must keep an email or a phone');
  const metadata = objectParam(input.metadata, 'metadata');
  const snapshot = request.snapshot as RequestSnapshot;
  const prefillIn = objectParam(input.prefill, 'prefill');
  const prefill = prefillIn
    ? {
        ...(signer.prefill as object),
        ...normaliseValues(signerFields(snapshot, signer.role), prefillIn, { what: 'prefill' }),
      }
    : undefined;
  if (input.resend) {
    const invited = signer.sent_at !== null || signer.invited_at !== null;
    if (!invited || signer.status === 'waiting') {
      throw new CoreError('invalid_request', `Signer ${id} has not been invited yet; it is not their turn`);
    }
    if (!email && !phone)
      throw new CoreError('invalid_request', `Signer ${id} has no email address or phone to resend to`);
    if (signer.last_emailed_at && now.getTime() - signer.last_emailed_at.getTime() < RESEND_INTERVAL_MS) {
      const retry = Math.ceil((signer.last_emailed_at.getTime() + RESEND_INTERVAL_MS - now.getTime()) / 1000);
      throw new CoreError(
        'remind_too_soon',
        `Signer ${id} was emailed less than 10 minutes ago; retry in ${retry} s`,
        { retryAfterSeconds: retry },
      );
    }
  }
  return { metadata, prefill, phone };
}

async function updateLocked(
  tx: Tx,
  sc: ServiceContext,
  actor: Actor,
  id: number,
  input: UpdateSignerArgs,
  now: Date,
) {
  const scope = scopeOf(actor);
  const found = await requireSigner(tx, scope, id);
  // The request first, then the signer: the order every change to a signer locks them in.
  const request = await lockRequest(tx, scope, found.signature_request_id);
  const signer = await lockSigner(tx, scope, id);
  const { metadata, prefill, phone } = checkSignerPatch(request, signer, input, now);
  const updated = await updateSignerRow(tx, id, {
    updated_at: now,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.phone !== undefined ? { phone } : {}),
    ...(input.external_id !== undefined ? { external_id: input.external_id } : {}),
    ...(input.locale !== undefined ? { locale: input.locale } : {}),
    ...(metadata !== undefined ? { metadata: json(metadata) } : {}),
    ...(prefill !== undefined ? { prefill: json(prefill) } : {}),
    ...(input.resend ? { last_emailed_at: now } : {}),
  });
  const mailIds = input.resend
    ? await queueInvitation(tx, sc.config, {
        request,
        signer: updated,
        kind: 'resend',
        senderName: await senderNameOf(tx, request),
        now,
      })
    : noOutgoing();
  return { mailIds };
}

/**
 * PATCH /signers/{id}: only sent keys change; `resend` emails the link again (only once invited, at
 * most every 10 minutes). One transaction; the email goes out after the commit. Returns the Signer.
 */
export async function updateSigner(
  sc: ServiceContext,
  actor: Actor,
  { id, input }: { id: number; input: UpdateSignerArgs },
): Promise<SignerDto> {
  const now = sc.now();
  const { mailIds } = await sc.db.transaction().execute((tx) => updateLocked(tx, sc, actor, id, input, now));
  await sendQueuedMail(sc, mailIds);
  return getSigner(sc, scopeOf(actor), id);
}
