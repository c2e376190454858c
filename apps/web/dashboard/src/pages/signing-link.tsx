import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import {
  CardForm,
  CheckboxField,
  CopyButton,
  ErrorNote,
  Loading,
  PageHeader,
  SelectField,
  TextField,
  useToast,
} from '../ui.tsx';

// /templates/:id/link: a template's public signing link (source `link`, docs/sending.md).

interface Preset {
  role: string;
  name: string;
  email: string;
}

export function SigningLinkPage({ session }: { session: Session }) {
  const id = Number(useParams().id);
  const template = useQuery(trpc.templates.get.queryOptions({ id }));
  const link = useQuery(trpc.signingLinks.get.queryOptions({ id }));
  if (template.isPending || link.isPending) return <Loading />;
  if (!template.data || !link.data) return <ErrorNote error={template.error ?? link.error} />;
  return (
    <>
      <PageHeader title={`Public link: ${template.data.name}`}>
        Anyone with the link enters their name and email, confirms the email with a code, and signs their own
        copy. Each signature is a request of yours (source <code>link</code>) and uses credits as usual.
      </PageHeader>
      <LinkStatus link={link.data} />
      {session.user.role !== 'viewer' ? (
        <LinkSettings id={id} roles={template.data.roles} link={link.data} />
      ) : null}
      <p>
        <Link to="/templates">Back to templates</Link>
      </p>
    </>
  );
}

interface LinkData {
  enabled: boolean;
  url: string | null;
  role: string | null;
  preset_signers: { role: string; name?: string | null | undefined; email: string }[];
  max_uses: number | null;
  uses: number;
}

function LinkStatus({ link }: { link: LinkData }) {
  return (
    <section className="card" aria-labelledby="link-status">
      <h2 id="link-status">{link.enabled ? 'The link is on' : 'The link is off'}</h2>
      {link.url && link.enabled ? (
        <p className="row-actions">
          <code className="grow">{link.url}</code> <CopyButton value={link.url} label="Copy link" />
        </p>
      ) : (
        <p className="hint">Visitors who open the link are told it is turned off.</p>
      )}
      <p className="hint">
        {link.uses} signed through it{link.max_uses ? ` of at most ${link.max_uses}` : ''}.
      </p>
    </section>
  );
}

function LinkSettings({ id, roles, link }: { id: number; roles: string[]; link: LinkData }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [enabled, setEnabled] = useState(link.enabled);
  const [role, setRole] = useState(link.role ?? roles[0] ?? '');
  const [cap, setCap] = useState(link.max_uses ? String(link.max_uses) : '');
  const [presets, setPresets] = useState<Preset[]>([]);
  useEffect(() => {
    setPresets(
      roles
        .filter((r) => r !== role)
        .map((r) => {
          const p = link.preset_signers.find((x) => x.role === r);
          return { role: r, name: p?.name ?? '', email: p?.email ?? '' };
        }),
    );
  }, [roles, role, link.preset_signers]);
  const save = useMutation(
    trpc.signingLinks.update.mutationOptions({
      onSuccess: async (l) => {
        toast(l.enabled ? 'The public link is on' : 'The public link is off');
        await queryClient.invalidateQueries({ queryKey: trpc.signingLinks.pathKey() });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      id,
      enabled,
      role,
      max_uses: cap.trim() ? Number(cap) : null,
      preset_signers: presets.map((p) => ({
        role: p.role,
        email: p.email.trim(),
        ...(p.name.trim() ? { name: p.name.trim() } : {}),
      })),
    });
  };
  const setPreset = (i: number, patch: Partial<Preset>) =>
    setPresets((ps) => ps.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <CardForm
      id="link-settings"
      title="Settings"
      onSubmit={submit}
      error={save.error}
      busy={save.isPending}
      submitLabel="Save"
    >
      <CheckboxField
        label="Turn the public link on"
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      <SelectField
        label="Visitors sign as"
        value={role}
        onChange={(e) => setRole(e.target.value)}
        options={roles.map((r) => ({ value: r, label: r }))}
      />
      {presets.map((p, i) => (
        <PresetFields key={p.role} preset={p} onChange={(patch) => setPreset(i, patch)} />
      ))}
      <TextField
        label="Most signatures through the link (optional)"
        inputMode="numeric"
        value={cap}
        onChange={(e) => setCap(e.target.value.replace(/\D/g, ''))}
        hint="At the cap the link says it is no longer available. Leave empty for no cap."
      />
    </CardForm>
  );
}

/** The person pre-assigned to one of the template's other roles. */
function PresetFields({ preset, onChange }: { preset: Preset; onChange: (patch: Partial<Preset>) => void }) {
  return (
    <fieldset className="card">
      <legend>{preset.role}: the same person on every copy</legend>
      <TextField
        label={`${preset.role} name`}
        value={preset.name}
        onChange={(e) => onChange({ name: e.target.value })}
      />
      <TextField
        label={`${preset.role} email`}
        type="email"
        required
        value={preset.email}
        onChange={(e) => onChange({ email: e.target.value })}
      />
    </fieldset>
  );
}
