import { UpdateAccountInput } from '@esign/core/schemas/members';
import { ChangePasswordInput, UpdateProfileInput } from '@esign/core/schemas/sessions';
import { LANGUAGE_NAMES, LOCALES } from '@esign/i18n';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatAgo, formatDateTime } from '../format.ts';
import { type Session, sessionQuery } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { Badge, Button, CardForm, ErrorNote, Loading, PageHeader, TextField, useToast } from '../ui.tsx';
import { CopyDefaultsForm } from './copy-defaults.tsx';
import { ReminderDefaultsForm } from './request-extras.tsx';

function ProfileForm() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.sessions.profile.queryOptions());
  const form = useForm<z.input<typeof UpdateProfileInput>>({
    resolver: zodResolver(UpdateProfileInput),
    values: profile.data
      ? { name: profile.data.name ?? '', billing_country: profile.data.billing_country ?? '' }
      : undefined,
  });
  const save = useMutation(
    trpc.sessions.updateProfile.mutationOptions({
      onSuccess: async () => {
        toast('Profile saved');
        await queryClient.invalidateQueries();
      },
    }),
  );
  if (profile.isPending) return <Loading />;
  const { errors } = form.formState;
  return (
    <CardForm
      id="profile"
      title="Your profile"
      intro={<p className="hint">Signed in as {profile.data?.email}.</p>}
      onSubmit={form.handleSubmit((v) => save.mutate(v))}
      error={save.error ?? profile.error}
      busy={save.isPending}
      submitLabel="Save profile"
    >
      <div className="grid-2">
        <TextField label="Name" autoComplete="name" error={errors.name?.message} {...form.register('name')} />
        <TextField
          label="Billing country"
          placeholder="US"
          maxLength={2}
          hint="Two-letter code; needed before buying credits."
          error={errors.billing_country?.message}
          {...form.register('billing_country')}
        />
      </div>
    </CardForm>
  );
}

function AccountNameForm({ session }: { session: Session }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const form = useForm<z.infer<typeof UpdateAccountInput>>({
    resolver: zodResolver(UpdateAccountInput),
    defaultValues: { name: session.account.name ?? '' },
  });
  const save = useMutation(
    trpc.members.updateAccount.mutationOptions({
      onSuccess: async () => {
        toast('Account renamed');
        await queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
      },
    }),
  );
  return (
    <CardForm
      id="acct"
      title="Account"
      onSubmit={form.handleSubmit((v) => save.mutate(v))}
      error={save.error}
      busy={save.isPending}
      submitLabel="Rename account"
    >
      <TextField
        label="Account name"
        hint="Shown to people you invite."
        error={form.formState.errors.name?.message}
        {...form.register('name')}
      />
    </CardForm>
  );
}

/** The language signers read when neither their signer nor the request names one (issue 32). */
function SignerLanguageForm() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const current = useQuery(trpc.members.language.queryOptions());
  const [choice, setChoice] = useState<string | null>(null);
  const save = useMutation(
    trpc.members.setLanguage.mutationOptions({
      onSuccess: async () => {
        toast('Signers\u2019 language saved');
        await queryClient.invalidateQueries({ queryKey: trpc.members.language.queryKey() });
      },
    }),
  );
  if (current.isPending) return <Loading />;
  const value = choice ?? current.data?.default_locale ?? '';
  return (
    <CardForm
      id="signer-language"
      title="Signers' language"
      intro={
        <p className="hint">
          What signers read (signing page, emails, consent, audit trail) when neither the signer nor the
          request names a language. Without one, the signing page follows each signer's browser.
        </p>
      }
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ default_locale: value || null });
      }}
      error={save.error ?? current.error}
      busy={save.isPending}
      submitLabel="Save language"
    >
      <label htmlFor="default-locale">Default language</label>
      <select id="default-locale" value={value} onChange={(e) => setChoice(e.target.value)}>
        <option value="">The signer's browser language</option>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </CardForm>
  );
}

function PasswordForm() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.sessions.profile.queryOptions());
  const form = useForm<z.input<typeof ChangePasswordInput>>({ resolver: zodResolver(ChangePasswordInput) });
  const change = useMutation(
    trpc.sessions.changePassword.mutationOptions({
      onSuccess: async (r) => {
        toast(
          `Password changed${r.signed_out_sessions ? `; ${r.signed_out_sessions} other session(s) signed out` : ''}`,
        );
        form.reset({ current_password: '', password: '' });
        await queryClient.invalidateQueries();
      },
    }),
  );
  const { errors } = form.formState;
  return (
    <CardForm
      id="pw"
      title={profile.data?.has_password === false ? 'Set a password' : 'Change password'}
      onSubmit={form.handleSubmit((v) => change.mutate(v))}
      error={change.error}
      busy={change.isPending}
      submitLabel="Save password"
    >
      <div className="grid-2">
        {profile.data?.has_password === false ? null : (
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            {...form.register('current_password')}
          />
        )}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters. Your other sessions will be signed out."
          error={errors.password?.message}
          {...form.register('password')}
        />
      </div>
    </CardForm>
  );
}

/** A short description of a browser from its user agent. */
function describeAgent(ua: string | null): string {
  if (!ua) return 'Unknown browser';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /iPhone|iPad/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

function Sessions() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.sessions.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.sessions.list.queryKey() });
  const revoke = useMutation(
    trpc.sessions.revoke.mutationOptions({
      onSuccess: async () => {
        toast('Session signed out');
        await refresh();
      },
    }),
  );
  const others = useMutation(
    trpc.sessions.revokeOthers.mutationOptions({
      onSuccess: async (r) => {
        toast(`${r.signed_out_sessions} other session(s) signed out`);
        await refresh();
      },
    }),
  );
  return (
    <section className="card" aria-labelledby="sessions">
      <div className="section-head">
        <h2 id="sessions">Where you are signed in</h2>
        <Button
          small
          onClick={() => others.mutate()}
          busy={others.isPending}
          disabled={(list.data?.length ?? 0) < 2}
        >
          Sign out other sessions
        </Button>
      </div>
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error ?? revoke.error ?? others.error} />
      <ul className="rows">
        {list.data?.map((s) => (
          <li key={s.id} className="row">
            <div className="row-main">
              <strong>{describeAgent(s.user_agent)}</strong>{' '}
              {s.current ? <Badge tone="good">this browser</Badge> : null}
              {s.environment === 'test' ? <Badge tone="warn">test mode</Badge> : null}
              <div className="hint">
                {s.ip ?? 'unknown address'} · signed in {formatDateTime(s.created_at)} · last active{' '}
                {formatAgo(s.last_seen_at)}
              </div>
            </div>
            {s.current ? null : (
              <div className="row-actions">
                <Button small onClick={() => revoke.mutate({ id: s.id })}>
                  Sign out
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function AccountPage({ session }: { session: Session }) {
  return (
    <>
      <PageHeader title="Account">
        Your profile, password and sessions{session.user.role === 'admin' ? ', and the account name' : ''}.
      </PageHeader>
      <ProfileForm />
      {session.user.role === 'admin' ? <AccountNameForm session={session} /> : null}
      <CopyDefaultsForm session={session} />
      {session.user.role === 'admin' ? <ReminderDefaultsForm /> : null}
      {session.user.role === 'admin' ? <SignerLanguageForm /> : null}
      <PasswordForm />
      <Sessions />
    </>
  );
}
