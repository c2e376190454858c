import { NewPassword } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { tokenFromHash } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { ErrorNote, SubmitRow } from '../../ui.tsx';
import { NewPasswordField, useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';

const Form = z
  .object({ password: NewPassword, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords differ' });

/** /reset-password#token=...: choose a new password from the emailed link. */
export function ResetPasswordPage() {
  const token = useRef(tokenFromHash());
  const signedIn = useSignedIn();
  const form = useForm<z.infer<typeof Form>>({ resolver: zodResolver(Form) });
  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      onSuccess: () => signedIn('/', { clearHash: true }),
    }),
  );
  if (!token.current) {
    return (
      <AuthLayout title="Reset your password">
        <div className="notice notice-error" role="alert">
          This reset link is incomplete. Open it again from the email, or{' '}
          <Link to="/login">ask for a new one</Link>.
        </div>
      </AuthLayout>
    );
  }
  const { errors } = form.formState;
  return (
    <AuthLayout title="Choose a new password">
      <p className="lead">Your other sessions will be signed out.</p>
      <form
        onSubmit={form.handleSubmit((v) => reset.mutate({ token: token.current!, password: v.password }))}
        noValidate
      >
        <ErrorNote error={reset.error} />
        <NewPasswordField
          label="New password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <NewPasswordField
          label="Repeat the new password"
          hint={null}
          error={errors.confirm?.message}
          {...form.register('confirm')}
        />
        <SubmitRow busy={reset.isPending}>Save and sign in</SubmitRow>
      </form>
    </AuthLayout>
  );
}
