import { useMutation } from '@tanstack/react-query';
import { formatDateTime, SIGNER_STATUS_LABEL } from '../../format.ts';
import { msg, t } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Badge, Button, CopyButton, statusTone } from '../../ui.tsx';
import { type RequestField, SignerValues } from './documents.tsx';

export interface Signer {
  id: number;
  /** Issue 47: an approver or a viewer (absent: a signer). */
  kind?: 'approver' | 'viewer' | undefined;
  name: string | null;
  email: string | null;
  phone: string | null;
  /** The language set for this signer, or null (the request's). */
  locale?: string | null | undefined;
  role: string | null;
  status: string;
  signing_url: string | null;
  sent_at: string | null;
  viewed_at: string | null;
  signed_at: string | null;
  declined_at: string | null;
  decline_reason?: string | null | undefined;
  documents?: { name: string; url: string }[] | undefined;
}

/** When a signer declined, and why if they said. */
const declined = (at: string, reason: string | null | undefined) =>
  reason
    ? t('requests.signer.declined_reason', { date: formatDateTime(at), reason })
    : t('requests.signer.declined', { date: formatDateTime(at) });

/**
 * Issue 47, in-person signing: this browser becomes the signer's device (signers.host sets its
 * cookie), then opens their page in hosted mode; it comes back here when they are done.
 */
function HostButton({ signer }: { signer: Signer }) {
  const host = useMutation(
    trpc.signers.host.mutationOptions({ onSuccess: (r) => window.location.assign(r.signing_url) }),
  );
  return (
    <>
      <Button small onClick={() => host.mutate({ id: signer.id })} disabled={host.isPending}>
        {msg('requests.signer.host')}
      </Button>
      {host.error ? <span className="field-error">{host.error.message}</span> : null}
    </>
  );
}

const HOSTABLE = new Set(['ready', 'sent', 'viewed']);

/** Issue 47: an approver's `signed` reads Approved (`declined`: Rejected), a viewer's Read. */
function statusLabel(s: Signer): string {
  if (s.kind === 'approver' && s.status === 'signed') return msg('requests.signer.kind.approved');
  if (s.kind === 'approver' && s.status === 'declined') return msg('requests.signer.kind.rejected');
  if (s.kind === 'viewer' && s.status === 'signed') return msg('requests.signer.kind.read');
  return SIGNER_STATUS_LABEL[s.status] ?? s.status;
}

/** A signer: status, what they did when, their signing link and an Edit button while it helps. */
export function SignerRow({
  signer: s,
  canWrite,
  editable,
  onEdit,
  values,
}: {
  signer: Signer;
  canWrite: boolean;
  /** The fields this signer fills, with their values so far. */
  values: RequestField[];
  editable: boolean;
  onEdit: () => void;
}) {
  return (
    <li className="row">
      <div className="row-main">
        <strong>{s.name || s.email || s.phone}</strong>{' '}
        {s.role ? <span className="hint">{t('requests.signer.as_role', { role: s.role })}</span> : null}{' '}
        {s.kind ? <Badge tone="neutral">{msg(`requests.signer.kind.${s.kind}`)}</Badge> : null}{' '}
        <Badge tone={statusTone(s.status)}>{statusLabel(s)}</Badge>
        <div className="hint">
          {[s.email, s.phone].filter(Boolean).join(' · ')}
          {s.viewed_at ? ` · ${t('requests.signer.opened', { date: formatDateTime(s.viewed_at) })}` : ''}
          {s.signed_at ? ` · ${t('requests.signer.signed', { date: formatDateTime(s.signed_at) })}` : ''}
          {s.declined_at ? ` · ${declined(s.declined_at, s.decline_reason)}` : ''}
        </div>
        <SignerValues
          fields={values}
          signerName={s.name || s.email || s.phone || msg('requests.signer.this_signer')}
        />
      </div>
      <div className="row-actions">
        {s.signing_url && canWrite ? (
          <CopyButton value={s.signing_url} label={msg('requests.signer.copy_link')} />
        ) : null}
        {editable && s.signing_url && HOSTABLE.has(s.status) ? <HostButton signer={s} /> : null}
        {editable ? (
          <Button small onClick={onEdit}>
            {msg('requests.signer.edit')}
          </Button>
        ) : null}
      </div>
    </li>
  );
}
