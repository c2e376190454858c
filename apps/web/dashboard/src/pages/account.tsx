import { UpdateAccountInput } from '@esign/core/schemas/members';
import { ChangePasswordInput, UpdateProfileInput } from '@esign/core/schemas/sessions';
import { LANGUAGE_NAMES, LOCALES } from '@esign/i18n';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatAgo, formatDateTime } from '../format.ts';
import { msg, t } from '../messages/index.ts';
import { type Session, sessionQuery } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { Badge, Button, CardForm, ErrorNote, Loading, PageHeader, TextField, useToast } from '../ui.tsx';
import { PasskeysSection } from './account/passkeys.tsx';
import { TwoStepSection } from './account/two-step.tsx';
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
        toast(msg('account.profile.saved'));
        await queryClient.invalidateQueries();
      },
    }),
  );
  if (profile.isPending) return <Loading />;
  const { errors } = form.formState;
  return (
    <CardForm
      id="profile"
      title={msg('account.profile.title')}
      intro={<p className="hint">{t('account.profile.signed_in_as', { email: profile.data?.email })}</p>}
      onSubmit={form.handleSubmit((v) => save.mutate(v))}
      error={save.error ?? profile.error}
      busy={save.isPending}
      submitLabel={msg('account.profile.submit')}
    >
      <div className="grid-2">
        <TextField
          label={msg('account.profile.name')}
          autoComplete="name"
          error={errors.name?.message}
          {...form.register('name')}
        />
        <TextField
          label={msg('account.profile.country')}
          placeholder={msg('account.profile.country_example')}
          maxLength={2}
          hint={msg('account.profile.country_hint')}
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
        toast(msg('account.name.saved'));
        await queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
      },
    }),
  );
  return (
    <CardForm
      id="acct"
      title={msg('account.name.title')}
      onSubmit={form.handleSubmit((v) => save.mutate(v))}
      error={save.error}
      busy={save.isPending}
      submitLabel={msg('account.name.submit')}
    >
      <TextField
        label={msg('account.name.label')}
        hint={msg('account.name.hint')}
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
        toast(msg('account.language.saved'));
        await queryClient.invalidateQueries({ queryKey: trpc.members.language.queryKey() });
      },
    }),
  );
  if (current.isPending) return <Loading />;
  const value = choice ?? current.data?.default_locale ?? '';
  return (
    <CardForm
      id="signer-language"
      title={msg('account.language.title')}
      intro={<p className="hint">{msg('account.language.intro')}</p>}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ default_locale: value || null });
      }}
      error={save.error ?? current.error}
      busy={save.isPending}
      submitLabel={msg('account.language.submit')}
    >
      <label htmlFor="default-locale">{msg('account.language.label')}</label>
      <select id="default-locale" value={value} onChange={(e) => setChoice(e.target.value)}>
        <option value="">{msg('account.language.browser')}</option>
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
        toast(t('account.password.changed', { count: r.signed_out_sessions }));
        form.reset({ current_password: '', password: '' });
        await queryClient.invalidateQueries();
      },
    }),
  );
  const { errors } = form.formState;
  // Someone who signs in only by emailed links has no current password to give.
  const currentPassword =
    profile.data?.has_password === false ? null : (
      <TextField
        label={msg('account.password.current')}
        type="password"
        autoComplete="current-password"
        {...form.register('current_password')}
      />
    );
  return (
    <CardForm
      id="pw"
      title={msg(
        profile.data?.has_password === false ? 'account.password.title_set' : 'account.password.title_change',
      )}
      onSubmit={form.handleSubmit((v) => change.mutate(v))}
      error={change.error}
      busy={change.isPending}
      submitLabel={msg('account.password.submit')}
    >
      <div className="grid-2">
        {currentPassword}
        <TextField
          label={msg('account.password.new')}
          type="password"
          autoComplete="new-password"
          hint={msg('account.password.hint')}
          error={errors.password?.message}
          {...form.register('password')}
        />
      </div>
    </CardForm>
  );
}

/** Browsers by name (names, not words to translate), each with how its user agent shows it, first match wins. */
const BROWSERS: Record<string, RegExp> = {
  Edge: /Edg\//,
  Firefox: /Firefox\//,
  Chrome: /Chrome\//,
  Safari: /Safari\//,
};

/** Operating systems by name, as `BROWSERS`. */
const SYSTEMS: Record<string, RegExp> = {
  iOS: /iPhone|iPad/,
  Android: /Android/,
  macOS: /Mac OS X/,
  Windows: /Windows/,
  Linux: /Linux/,
};

const nameIn = (names: Record<string, RegExp>, ua: string) =>
  Object.entries(names).find(([, pattern]) => pattern.test(ua))?.[0];

/** A short description of a browser from its user agent. */
function describeAgent(ua: string | null): string {
  if (!ua) return msg('account.sessions.unknown_browser');
  const browser = nameIn(BROWSERS, ua) ?? msg('account.sessions.browser');
  const os = nameIn(SYSTEMS, ua);
  return os ? t('account.sessions.agent', { browser, os }) : browser;
}

function Sessions() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.sessions.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.sessions.list.queryKey() });
  const revoke = useMutation(
    trpc.sessions.revoke.mutationOptions({
      onSuccess: async () => {
        toast(msg('account.sessions.signed_out'));
        await refresh();
      },
    }),
  );
  const others = useMutation(
    trpc.sessions.revokeOthers.mutationOptions({
      onSuccess: async (r) => {
        toast(t('account.sessions.others_signed_out', { count: r.signed_out_sessions }));
        await refresh();
      },
    }),
  );
  return (
    <section className="card" aria-labelledby="sessions">
      <div className="section-head">
        <h2 id="sessions">{msg('account.sessions.title')}</h2>
        <Button
          small
          onClick={() => others.mutate()}
          busy={others.isPending}
          disabled={(list.data?.length ?? 0) < 2}
        >
          {msg('account.sessions.sign_out_others')}
        </Button>
      </div>
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error ?? revoke.error ?? others.error} />
      <ul className="rows">
        {list.data?.map((s) => (
          <li key={s.id} className="row">
            <div className="row-main">
              <strong>{describeAgent(s.user_agent)}</strong>{' '}
              {s.current ? <Badge tone="good">{msg('account.sessions.this_browser')}</Badge> : null}
              {s.environment === 'test' ? (
                <Badge tone="warn">{msg('account.sessions.test_mode')}</Badge>
              ) : null}
              <div className="hint">
                {t('account.sessions.details', {
                  address: s.ip ?? msg('account.sessions.unknown_address'),
                  signed_in: formatDateTime(s.created_at),
                  last_active: formatAgo(s.last_seen_at),
                })}{' '}
                {t('account.sessions.method', { method: s.method.replaceAll('+', '_') })}
              </div>
            </div>
            {s.current ? null : (
              <div className="row-actions">
                <Button small onClick={() => revoke.mutate({ id: s.id })}>
                  {msg('account.sessions.sign_out')}
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Admins: this account's emails and SMS still being retried, and those given up (issue 41). */
function MessageDelivery() {
  const backlog = useQuery(trpc.dashboard.messageBacklog.queryOptions());
  if (backlog.isPending) return <Loading />;
  const lines: string[] = [];
  for (const row of backlog.data ?? []) {
    if (row.waiting > 0)
      lines.push(
        t(`account.delivery.${row.channel}_waiting`, {
          count: row.waiting,
          ago: formatAgo(row.oldest_waiting_at),
        }),
      );
    if (row.undeliverable > 0)
      lines.push(t(`account.delivery.${row.channel}_undeliverable`, { count: row.undeliverable }));
  }
  return (
    <section className="card" aria-labelledby="delivery">
      <h2 id="delivery">{msg('account.delivery.title')}</h2>
      <ErrorNote error={backlog.error} />
      {backlog.data ? (
        lines.length ? (
          lines.map((line) => (
            <p key={line} className="hint">
              {line}
            </p>
          ))
        ) : (
          <p className="hint">{msg('account.delivery.all_sent')}</p>
        )
      ) : null}
    </section>
  );
}

export function AccountPage({ session }: { session: Session }) {
  return (
    <>
      <PageHeader title={msg('account.title')}>
        {msg(session.user.role === 'admin' ? 'account.intro_admin' : 'account.intro')}
      </PageHeader>
      <ProfileForm />
      {session.user.role === 'admin' ? <AccountNameForm session={session} /> : null}
      <CopyDefaultsForm session={session} />
      {session.user.role === 'admin' ? <ReminderDefaultsForm /> : null}
      {session.user.role === 'admin' ? <SignerLanguageForm /> : null}
      {session.user.role === 'admin' ? <MessageDelivery /> : null}
      <PasswordForm />
      <TwoStepSection />
      <PasskeysSection />
      <Sessions />
    </>
  );
}
