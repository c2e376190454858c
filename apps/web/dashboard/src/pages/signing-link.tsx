import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { msg, t, tx } from '../messages/index.ts';
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

/** The `source` of the requests a public link makes (a value of the API). */
const LINK_SOURCE = 'link';

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
      <PageHeader title={t('link.title', { name: template.data.name })}>
        {tx('link.intro', { source: LINK_SOURCE, code: (c) => <code>{c}</code> })}
      </PageHeader>
      <LinkStatus link={link.data} />
      {session.user.role !== 'viewer' ? (
        <LinkSettings id={id} roles={template.data.roles} link={link.data} />
      ) : null}
      <p>
        <Link to="/templates">{msg('link.back')}</Link>
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
      <h2 id="link-status">{msg(link.enabled ? 'link.status.on' : 'link.status.off')}</h2>
      {link.url && link.enabled ? (
        <p className="row-actions">
          <code className="grow">{link.url}</code> <CopyButton value={link.url} label={msg('link.copy')} />
        </p>
      ) : (
        <p className="hint">{msg('link.status.off_hint')}</p>
      )}
      <p className="hint">
        {link.max_uses
          ? t('link.uses_capped', { uses: link.uses, max: link.max_uses })
          : t('link.uses', { uses: link.uses })}
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
        toast(msg(l.enabled ? 'link.saved_on' : 'link.saved_off'));
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
      title={msg('link.settings')}
      onSubmit={submit}
      error={save.error}
      busy={save.isPending}
      submitLabel={msg('link.save')}
    >
      <CheckboxField
        label={msg('link.enabled')}
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      <SelectField
        label={msg('link.role')}
        value={role}
        onChange={(e) => setRole(e.target.value)}
        options={roles.map((r) => ({ value: r, label: r }))}
      />
      {presets.map((p, i) => (
        <PresetFields key={p.role} preset={p} onChange={(patch) => setPreset(i, patch)} />
      ))}
      <TextField
        label={msg('link.cap')}
        inputMode="numeric"
        value={cap}
        onChange={(e) => setCap(e.target.value.replace(/\D/g, ''))}
        hint={msg('link.cap_hint')}
      />
    </CardForm>
  );
}

/** The person pre-assigned to one of the template's other roles. */
function PresetFields({ preset, onChange }: { preset: Preset; onChange: (patch: Partial<Preset>) => void }) {
  return (
    <fieldset className="card">
      <legend>{t('link.preset.legend', { role: preset.role })}</legend>
      <TextField
        label={t('link.preset.name', { role: preset.role })}
        value={preset.name}
        onChange={(e) => onChange({ name: e.target.value })}
      />
      <TextField
        label={t('link.preset.email', { role: preset.role })}
        type="email"
        required
        value={preset.email}
        onChange={(e) => onChange({ email: e.target.value })}
      />
    </fieldset>
  );
}
