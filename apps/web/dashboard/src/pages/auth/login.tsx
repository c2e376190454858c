import { EmailInput, SignInInput } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation } from 'react-router';
import type { z } from 'zod';
import { isServerPage } from '../../links.ts';
import { msg, tx } from '../../messages/index.ts';
import { nextPath, sessionQuery } from '../../session.tsx';
import { trpc, trpcClient } from '../../trpc.ts';
import { Button, ErrorNote, Loading, SubmitRow, TextField } from '../../ui.tsx';
import { EmailField, useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';
import { RequiredTwoStepPage } from './required-two-step.tsx';
import { type SecondStepChallenge, SecondStepForm } from './second-step.tsx';
import { SsoSignIn } from './sso-sign-in.tsx';

function PasswordForm({
  onForgot,
  onSecondStep,
}: {
  onForgot: (email: string) => void;
  onSecondStep: (challenge: SecondStepChallenge) => void;
}) {
  const signedIn = useSignedIn();
  const location = useLocation();
  const form = useForm<z.infer<typeof SignInInput>>({ resolver: zodResolver(SignInInput) });
  const signIn = useMutation(
    trpc.auth.signIn.mutationOptions({
      onSuccess: (r) => (r.signed_in ? signedIn(nextPath(location.search)) : onSecondStep(r.second_step)),
    }),
  );
  const { errors } = form.formState;
  return (
    <form onSubmit={form.handleSubmit((v) => signIn.mutate(v))} noValidate>
      <ErrorNote error={signIn.error} />
      <EmailField error={errors.email?.message} {...form.register('email')} />
      <TextField
        label={msg('auth.field.password')}
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <div className="form-actions spread">
        <button type="button" className="link-button" onClick={() => onForgot(form.getValues('email') ?? '')}>
          {msg('auth.login.forgot')}
        </button>
        <Button type="submit" variant="primary" busy={signIn.isPending}>
          {msg('auth.login.submit')}
        </Button>
      </div>
    </form>
  );
}

/** A passkey alone (issue 45 item 2): any passkey of this site the browser offers (a discoverable credential). */
function PasskeySignIn() {
  const signedIn = useSignedIn();
  const location = useLocation();
  const signIn = useMutation({
    mutationFn: async () => {
      const { ticket, options } = await trpcClient.passkeys.startSignIn.mutate();
      const response = await startAuthentication({
        // The JSON options as the server's library wrote them (tRPC's inferred type is wider).
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      return trpcClient.passkeys.signIn.mutate({ ticket, response });
    },
    onSuccess: () => signedIn(nextPath(location.search)),
  });
  return (
    <div className="alt-sign-in">
      <ErrorNote error={signIn.error} />
      <Button busy={signIn.isPending} onClick={() => signIn.mutate()}>
        {msg('auth.passkey.sign_in')}
      </Button>
    </div>
  );
}

/** Sign-in links and password resets: the same form, a different email. */
function EmailForm({ purpose, initialEmail }: { purpose: 'link' | 'reset'; initialEmail?: string }) {
  const location = useLocation();
  const form = useForm<z.infer<typeof EmailInput>>({
    resolver: zodResolver(EmailInput),
    defaultValues: { email: initialEmail ?? '' },
  });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const options = { onSuccess: (_: unknown, v: { email: string }) => setSentTo(v.email) };
  const link = useMutation(trpc.auth.requestSignInLink.mutationOptions(options));
  const reset = useMutation(trpc.auth.requestPasswordReset.mutationOptions(options));
  const m = purpose === 'link' ? link : reset;
  if (sentTo) {
    return (
      <div className="notice notice-good" role="status">
        {tx(purpose === 'link' ? 'auth.login.link_sent' : 'auth.login.reset_sent', {
          b: (c) => <strong>{c}</strong>,
          email: sentTo,
        })}{' '}
        <button type="button" className="link-button" onClick={() => setSentTo(null)}>
          {msg('auth.login.another_address')}
        </button>
      </div>
    );
  }
  return (
    <form
      onSubmit={form.handleSubmit((v) =>
        purpose === 'link' ? link.mutate({ ...v, next: nextPath(location.search) }) : reset.mutate(v),
      )}
      noValidate
    >
      <ErrorNote error={m.error} />
      <EmailField error={form.formState.errors.email?.message} {...form.register('email')} />
      <SubmitRow busy={m.isPending}>
        {msg(purpose === 'link' ? 'auth.login.send_link' : 'auth.login.send_reset')}
      </SubmitRow>
    </form>
  );
}

export function LoginPage() {
  const session = useQuery(sessionQuery());
  const location = useLocation();
  const signedIn = useSignedIn();
  const [tab, setTab] = useState('password');
  const [resetEmail, setResetEmail] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<SecondStepChallenge | null>(null);
  if (session.isPending) return <Loading />;
  if (session.data?.session?.second_step_required) return <RequiredTwoStepPage />;
  if (session.data?.session) {
    const next = nextPath(location.search);
    if (isServerPage(next)) {
      window.location.replace(next);
      return <Loading />;
    }
    return <Navigate to={next} replace />;
  }
  if (challenge !== null) {
    return (
      <AuthLayout title={msg('auth.login.title')}>
        <SecondStepForm
          token={challenge.token}
          methods={challenge.methods}
          onSignedIn={() => signedIn(nextPath(location.search))}
          onStartOver={() => setChallenge(null)}
        />
      </AuthLayout>
    );
  }
  if (resetEmail !== null) {
    return (
      <AuthLayout title={msg('auth.login.reset_title')}>
        <p className="lead">{msg('auth.login.reset_lead')}</p>
        <EmailForm purpose="reset" initialEmail={resetEmail} />
        <p>
          <button type="button" className="link-button" onClick={() => setResetEmail(null)}>
            {msg('auth.back_to_sign_in')}
          </button>
        </p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title={msg('auth.login.title')}
      footer={
        session.data?.signup_enabled ? (
          <p>{tx('auth.login.new_here', { link: (c) => <Link to="/signup">{c}</Link> })}</p>
        ) : null
      }
    >
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List className="tabs" aria-label={msg('auth.login.tabs')}>
          <Tabs.Trigger className="tab" value="password">
            {msg('auth.login.tab_password')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="link">
            {msg('auth.login.tab_link')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="password" className="tab-panel">
          <PasswordForm onForgot={(email) => setResetEmail(email)} onSecondStep={setChallenge} />
        </Tabs.Content>
        <Tabs.Content value="link" className="tab-panel">
          <p className="hint">{msg('auth.login.link_intro')}</p>
          <EmailForm purpose="link" />
        </Tabs.Content>
      </Tabs.Root>
      <p className="or-divider">{msg('auth.passkey.or')}</p>
      <PasskeySignIn />
      <SsoSignIn />
    </AuthLayout>
  );
}
