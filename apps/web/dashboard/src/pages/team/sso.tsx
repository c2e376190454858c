import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { msg, t } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import {
  Button,
  CardForm,
  CheckboxField,
  Loading,
  SelectField,
  TextArea,
  TextField,
  useToast,
} from '../../ui.tsx';

// Issue 45 item 4: the account's OpenID Connect provider (admins). The secret is never shown back;
// an empty secret field keeps the stored one.

type Role = 'admin' | 'member' | 'viewer';
const ROLES: Role[] = ['admin', 'member', 'viewer'];

interface Fields {
  issuer: string;
  client_id: string;
  client_secret: string;
  domains: string;
  default_role: Role;
  role_claim: string;
  role_map: string;
  required: boolean;
  break_glass_email: string;
}

const parseMap = (text: string): Record<string, Role> =>
  Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.split('='))
      .filter((p) => p.length === 2 && p[0]!.trim())
      .map(([k, v]) => [k!.trim(), v!.trim() as Role]),
  );

function toInput(f: Fields) {
  return {
    issuer: f.issuer.trim(),
    client_id: f.client_id,
    ...(f.client_secret ? { client_secret: f.client_secret } : {}),
    domains: f.domains.split(/[\s,]+/).filter(Boolean),
    default_role: f.default_role,
    role_claim: f.role_claim.trim() || null,
    role_map: parseMap(f.role_map),
    required: f.required,
    break_glass_email: f.break_glass_email.trim() || null,
  };
}

export function SsoSettings() {
  const settings = useQuery(trpc.sso.settings.queryOptions());
  if (settings.isPending) return <Loading />;
  if (!settings.data) return null;
  const s = settings.data;
  return (
    <SsoForm
      redirectUri={s.redirect_uri}
      configured={s.configured}
      initial={{
        issuer: s.issuer ?? '',
        client_id: s.client_id ?? '',
        client_secret: '',
        domains: s.domains.join(', '),
        default_role: s.default_role,
        role_claim: s.role_claim ?? '',
        role_map: Object.entries(s.role_map)
          .map(([k, v]) => `${k}=${v}`)
          .join('\n'),
        required: s.required,
        break_glass_email: s.break_glass_email ?? '',
      }}
    />
  );
}

function SsoForm({
  redirectUri,
  configured,
  initial,
}: {
  redirectUri: string;
  configured: boolean;
  initial: Fields;
}) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [f, setF] = useState<Fields>(initial);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.sso.settings.queryKey() });
  const save = useMutation(
    trpc.sso.save.mutationOptions({
      onSuccess: async () => {
        toast(msg('team.sso.saved'));
        setF({ ...f, client_secret: '' });
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.sso.remove.mutationOptions({
      onSuccess: async () => {
        toast(msg('team.sso.removed'));
        await refresh();
      },
    }),
  );
  return (
    <CardForm
      id="sso"
      title={msg('team.sso.title')}
      intro={<p className="hint">{t('team.sso.intro', { redirect: redirectUri })}</p>}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(toInput(f));
      }}
      error={save.error ?? remove.error}
      busy={save.isPending}
      submitLabel={msg('team.sso.save')}
    >
      <SsoFields f={f} setF={setF} configured={configured} />
      {configured ? (
        <Button variant="danger" busy={remove.isPending} onClick={() => remove.mutate()}>
          {msg('team.sso.remove')}
        </Button>
      ) : null}
    </CardForm>
  );
}

/** The form's fields: the provider, the domains, roles, and the SSO-only rule. */
function SsoFields({ f, setF, configured }: { f: Fields; setF: (f: Fields) => void; configured: boolean }) {
  const set =
    <K extends keyof Fields>(k: K) =>
    (e: { target: { value: string } }) =>
      setF({ ...f, [k]: e.target.value });
  return (
    <>
      <TextField label={msg('team.sso.issuer')} type="url" value={f.issuer} onChange={set('issuer')} />
      <TextField label={msg('team.sso.client_id')} value={f.client_id} onChange={set('client_id')} />
      <TextField
        label={msg('team.sso.client_secret')}
        type="password"
        autoComplete="off"
        hint={configured ? msg('team.sso.client_secret_keep') : undefined}
        value={f.client_secret}
        onChange={set('client_secret')}
      />
      <TextField
        label={msg('team.sso.domains')}
        hint={msg('team.sso.domains_hint')}
        value={f.domains}
        onChange={set('domains')}
      />
      <SelectField
        label={msg('team.sso.default_role')}
        value={f.default_role}
        onChange={set('default_role')}
        options={ROLES.map((r) => ({ value: r, label: t('team.role', { role: r }) }))}
      />
      <TextField
        label={msg('team.sso.role_claim')}
        hint={msg('team.sso.role_claim_hint')}
        value={f.role_claim}
        onChange={set('role_claim')}
      />
      <TextArea
        label={msg('team.sso.role_map')}
        hint={msg('team.sso.role_map_hint')}
        value={f.role_map}
        onChange={set('role_map')}
        rows={3}
      />
      <CheckboxField
        label={msg('team.sso.required')}
        checked={f.required}
        onChange={(e) => setF({ ...f, required: e.target.checked })}
      />
      <TextField
        label={msg('team.sso.break_glass')}
        type="email"
        hint={msg('team.sso.break_glass_hint')}
        value={f.break_glass_email}
        onChange={set('break_glass_email')}
      />
    </>
  );
}
