import { SignUpInput } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { sessionQuery } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { ErrorNote, Loading, SubmitRow, TextField } from '../../ui.tsx';
import { EmailField, NameField, NewPasswordField, useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';

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
      <AuthLayout title="Create an account">
        <div className="notice" role="status">
          This server does not take sign-ups. Ask its operator to create an account for you (
          <code>esign account create</code>), or ask a colleague to invite you.
        </div>
        <p>
          <Link to="/login">Back to sign-in</Link>
        </p>
      </AuthLayout>
    );
  }
  const { errors } = form.formState;
  return (
    <AuthLayout
      title="Create an account"
      footer={
        <p>
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      }
    >
      <form onSubmit={form.handleSubmit((v) => signUp.mutate(v))} noValidate>
        <ErrorNote error={signUp.error} />
        <NameField error={errors.name?.message} {...form.register('name')} />
        <TextField
          label="Company or team name"
          autoComplete="organization"
          error={errors.account_name?.message}
          {...form.register('account_name')}
        />
        <EmailField error={errors.email?.message} {...form.register('email')} />
        <NewPasswordField error={errors.password?.message} {...form.register('password')} />
        <SubmitRow busy={signUp.isPending}>Create account</SubmitRow>
      </form>
    </AuthLayout>
  );
}
