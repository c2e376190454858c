import { SignUpInput } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { msg, tx } from '../../messages/index.ts';
import { sessionQuery } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { ErrorNote, Loading, SubmitRow, TextField } from '../../ui.tsx';
import { EmailField, NameField, NewPasswordField, useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';

/** The operator's command that creates an account (apps/cli). */
const CREATE_ACCOUNT_COMMAND = 'esign account create';

/** /signup: only when the operator turned self-service sign-up on (SIGNUP_ENABLED). */
export function SignUpPage() {
  const session = useQuery(sessionQuery());
  const signedIn = useSignedIn();
  const form = useForm<z.input<typeof SignUpInput>>({ resolver: zodResolver(SignUpInput) });
  const signUp = useMutation(
    trpc.auth.signUp.mutationOptions({
      onSuccess: () => signedIn(),
    }),
  );
  if (session.isPending) return <Loading />;
  if (!session.data?.signup_enabled) {
    return (
      <AuthLayout title={msg('auth.signup.title')}>
        <div className="notice" role="status">
          {tx('auth.signup.closed', { command: <code>{CREATE_ACCOUNT_COMMAND}</code> })}
        </div>
        <p>
          <Link to="/login">{msg('auth.back_to_sign_in')}</Link>
        </p>
      </AuthLayout>
    );
  }
  const { errors } = form.formState;
  return (
    <AuthLayout
      title={msg('auth.signup.title')}
      footer={<p>{tx('auth.signup.have_account', { link: (c) => <Link to="/login">{c}</Link> })}</p>}
    >
      <form onSubmit={form.handleSubmit((v) => signUp.mutate(v))} noValidate>
        <ErrorNote error={signUp.error} />
        <NameField error={errors.name?.message} {...form.register('name')} />
        <TextField
          label={msg('auth.signup.company')}
          autoComplete="organization"
          error={errors.account_name?.message}
          {...form.register('account_name')}
        />
        <EmailField error={errors.email?.message} {...form.register('email')} />
        <NewPasswordField error={errors.password?.message} {...form.register('password')} />
        <SubmitRow busy={signUp.isPending}>{msg('auth.signup.submit')}</SubmitRow>
      </form>
    </AuthLayout>
  );
}
