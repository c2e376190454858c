import { NewPassword } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { msg, tx } from '../../messages/index.ts';
import { tokenFromHash } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { ErrorNote, SubmitRow } from '../../ui.tsx';
import { NewPasswordField, useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';

const Form = z
  .object({ password: NewPassword, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: msg('auth.reset.differ') });

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
      <AuthLayout title={msg('auth.reset.title')}>
        <div className="notice notice-error" role="alert">
          {tx('auth.reset.incomplete', { link: (c) => <Link to="/login">{c}</Link> })}
        </div>
      </AuthLayout>
    );
  }
  const { errors } = form.formState;
  return (
    <AuthLayout title={msg('auth.reset.choose_title')}>
      <p className="lead">{msg('auth.reset.lead')}</p>
      <form
        onSubmit={form.handleSubmit((v) => reset.mutate({ token: token.current!, password: v.password }))}
        noValidate
      >
        <ErrorNote error={reset.error} />
        <NewPasswordField
          label={msg('auth.reset.new_password')}
          error={errors.password?.message}
          {...form.register('password')}
        />
        <NewPasswordField
          label={msg('auth.reset.repeat')}
          hint={null}
          error={errors.confirm?.message}
          {...form.register('confirm')}
        />
        <SubmitRow busy={reset.isPending}>{msg('auth.reset.submit')}</SubmitRow>
      </form>
    </AuthLayout>
  );
}
