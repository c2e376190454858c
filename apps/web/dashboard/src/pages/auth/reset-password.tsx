import { NewPassword } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { msg, tx } from '../../messages/index.ts';
import { tokenFromHash } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { ErrorNote, SubmitRow } from '../../ui.tsx';
import { NewPasswordField, useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';
import { type SecondStepChallenge, SecondStepForm } from './second-step.tsx';

const Form = z
  .object({ password: NewPassword, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: msg('auth.reset.differ') });

/** /reset-password#token=...: choose a new password from the emailed link. */
export function ResetPasswordPage() {
  const token = useRef(tokenFromHash());
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const form = useForm<z.infer<typeof Form>>({ resolver: zodResolver(Form) });
  const [challenge, setChallenge] = useState<SecondStepChallenge | null>(null);
  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      onSuccess: (r) => {
        if (r.signed_in) return signedIn('/', { clearHash: true });
        // The password is changed; signing in still needs the second step.
        window.history.replaceState(null, '', window.location.pathname);
        setChallenge(r.second_step);
      },
    }),
  );
  if (challenge !== null) {
    return (
      <AuthLayout title={msg('auth.reset.title')}>
        <SecondStepForm
          token={challenge.token}
          methods={challenge.methods}
          onSignedIn={() => signedIn('/')}
          onStartOver={() => navigate('/login')}
        />
      </AuthLayout>
    );
  }
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
