import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { describeActivity, formatDateTime, REQUEST_STATUS_LABEL, SIGNER_STATUS_LABEL } from '../format.ts';
import type { Session } from '../session.tsx';
import { errorCode, trpc } from '../trpc.ts';
import {
  Badge,
  Button,
  Confirm,
  CopyButton,
  EmptyState,
  ErrorNote,
  Loading,
  Modal,
  PageHeader,
  statusTone,
  TextField,
  useToast,
} from '../ui.tsx';

interface Signer {
  id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
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

function EditSigner({
  signer,
  requestId,
  onClose,
}: {
  signer: Signer;
  requestId: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(signer.name ?? '');
  const [email, setEmail] = useState(signer.email ?? '');
  const update = useMutation(
    trpc.signers.update.mutationOptions({
      onSuccess: async (_, v) => {
        toast(v.resend ? 'Saved and the link was emailed again' : 'Signer saved');
        onClose();
        await queryClient.invalidateQueries({
          queryKey: trpc.signatureRequests.get.queryKey({ id: requestId }),
        });
      },
    }),
  );
  const save = (resend: boolean) =>
    update.mutate({ id: signer.id, name: name.trim() || null, email: email.trim() || null, resend });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save(false);
      }}
      noValidate
    >
      <ErrorNote error={update.error} />
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} />
      <TextField label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <div className="form-actions">
        <Button type="submit" busy={update.isPending && !update.variables?.resend}>
          Save
        </Button>
        {signer.sent_at ? (
          <Button
            variant="primary"
            onClick={() => save(true)}
            busy={update.isPending && update.variables?.resend === true}
          >
            Save and resend the link
          </Button>
        ) : null}
      </div>
    </form>
  );
}

interface RequestFiles {
  documents?: { name: string; url: string }[] | null | undefined;
  audit_trail_url?: string | null | undefined;
  combined_document_url?: string | null | undefined;
}

/** The sealed files of a completed request (while sealing runs, a note that it is coming). */
function Downloads({ request: r }: { request: RequestFiles }) {
  return (
    <section className="card" aria-labelledby="downloads">
      <h2 id="downloads">Signed documents</h2>
      {r.audit_trail_url ? (
        <ul className="plain downloads">
          {r.documents?.map((d) => (
            <li key={d.url}>
              <a href={d.url} download>
                {d.name}.pdf
              </a>
            </li>
          ))}
          <li>
            <a href={r.audit_trail_url} download>
              Audit trail
            </a>
          </li>
          {r.combined_document_url ? (
            <li>
              <a href={r.combined_document_url} download>
                Everything in one PDF
              </a>
            </li>
          ) : null}
        </ul>
      ) : (
        <Loading label="Sealing the signed documents…" />
      )}
    </section>
  );
}

function SignerRow({
  signer: s,
  canWrite,
  editable,
  onEdit,
}: {
  signer: Signer;
  canWrite: boolean;
  editable: boolean;
  onEdit: () => void;
}) {
  return (
    <li className="row">
      <div className="row-main">
        <strong>{s.name || s.email || s.phone}</strong>{' '}
        {s.role ? <span className="hint">as {s.role}</span> : null}{' '}
        <Badge tone={statusTone(s.status)}>{SIGNER_STATUS_LABEL[s.status] ?? s.status}</Badge>
        <div className="hint">
          {[s.email, s.phone].filter(Boolean).join(' · ')}
          {s.viewed_at ? ` · opened ${formatDateTime(s.viewed_at)}` : ''}
          {s.signed_at ? ` · signed ${formatDateTime(s.signed_at)}` : ''}
          {s.declined_at
            ? ` · declined ${formatDateTime(s.declined_at)}${s.decline_reason ? `: “${s.decline_reason}”` : ''}`
            : ''}
        </div>
      </div>
      <div className="row-actions">
        {s.signing_url && canWrite ? <CopyButton value={s.signing_url} label="Copy signing link" /> : null}
        {editable ? (
          <Button small onClick={onEdit}>
            Edit or resend
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** What happened, oldest first, from the request's audit trail. */
function Timeline({ id }: { id: number }) {
  const timeline = useQuery(trpc.dashboard.requestTimeline.queryOptions({ id }));
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Timeline</h2>
      {timeline.isPending ? <Loading /> : null}
      <ErrorNote error={timeline.error} />
      <ol className="timeline">
        {timeline.data?.map((a) => (
          <li key={a.id}>
            <time dateTime={a.created_at}>{formatDateTime(a.created_at)}</time> {describeActivity(a)}
            {a.ip ? <span className="hint"> · {a.ip}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function RequestPage({ session }: { session: Session }) {
  const id = Number(useParams().id);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState<Signer | null>(null);
  const canWrite = session.user.role !== 'viewer';
  const request = useQuery({
    ...trpc.signatureRequests.get.queryOptions({ id }),
    // Follow signers live while the request is open, and while sealing finishes.
    refetchInterval: (q) =>
      q.state.data && ['sent', 'in_progress'].includes(q.state.data.status)
        ? 10_000
        : q.state.data?.status === 'completed' && !q.state.data.audit_trail_url
          ? 3_000
          : false,
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.signatureRequests.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.dashboard.requestTimeline.queryKey({ id }) }),
    ]);
  const remind = useMutation(
    trpc.signatureRequests.remind.mutationOptions({
      onSuccess: async (r) => {
        toast(
          r.reminded_signer_ids.length
            ? `Reminded ${r.reminded_signer_ids.length} signer(s)`
            : 'Nobody needed a reminder',
        );
        await refresh();
      },
      onError: (e) => toast(e.message, 'bad'),
    }),
  );
  const cancel = useMutation(
    trpc.signatureRequests.cancel.mutationOptions({
      onSuccess: async () => {
        toast('Request canceled: the signing links no longer work');
        await refresh();
      },
      onError: (e) => toast(e.message, 'bad'),
    }),
  );
  if (request.isPending) return <Loading />;
  if (request.error) {
    return errorCode(request.error) === 'not_found' ? (
      <EmptyState title="Request not found" action={<Link to="/requests">Back to requests</Link>}>
        It does not exist, or belongs to the other side (live/test) of your account.
      </EmptyState>
    ) : (
      <ErrorNote error={request.error} />
    );
  }
  const r = request.data;
  const open = r.status === 'sent' || r.status === 'in_progress';
  return (
    <>
      <p className="crumbs">
        <Link to="/requests">Requests</Link> / {r.template?.name ?? `Request ${r.id}`}
      </p>
      <PageHeader
        title={r.template?.name ?? `Request ${r.id}`}
        actions={
          open && canWrite ? (
            <>
              <Button onClick={() => remind.mutate({ id: r.id })} busy={remind.isPending}>
                Remind signers
              </Button>
              <Confirm
                trigger={<Button variant="danger">Cancel request</Button>}
                title="Cancel this request?"
                description="Signers can no longer open or sign it. This cannot be undone."
                confirmLabel="Cancel request"
                onConfirm={() => cancel.mutate({ id: r.id })}
              />
            </>
          ) : null
        }
      >
        <Badge tone={statusTone(r.status)}>{REQUEST_STATUS_LABEL[r.status] ?? r.status}</Badge> Sent{' '}
        {formatDateTime(r.created_at)}
        {r.expires_at ? ` · expires ${formatDateTime(r.expires_at)}` : ''}
        {r.created_by ? ` · by ${r.created_by.name || r.created_by.email}` : ''}
      </PageHeader>
      {r.status === 'completed' ? <Downloads request={r} /> : null}
      <section aria-labelledby="signers">
        <h2 id="signers">Signers</h2>
        <ul className="rows">
          {r.signers.map((s) => (
            <SignerRow
              key={s.id}
              signer={s}
              canWrite={canWrite}
              editable={open && canWrite && s.status !== 'signed' && s.status !== 'declined'}
              onEdit={() => setEditing(s)}
            />
          ))}
        </ul>
      </section>
      <Modal
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={`Edit ${editing?.name || editing?.email || 'signer'}`}
      >
        {editing ? <EditSigner signer={editing} requestId={r.id} onClose={() => setEditing(null)} /> : null}
      </Modal>
      <Timeline id={r.id} />
    </>
  );
}
