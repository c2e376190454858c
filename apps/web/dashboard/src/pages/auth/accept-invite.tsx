import { AcceptInvitationInput } from '@esign/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { msg, t, tx } from '../../messages/index.ts';
import { tokenFromHash } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { ErrorNote, Loading, SubmitRow } from '../../ui.tsx';
import { NameField, NewPasswordField, useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';

const Form = AcceptInvitationInput.omit({ token: true });

/** /invite#token=...: join an account from an invitation email. */
export function AcceptInvitePage() {
  const token = useRef(tokenFromHash() ?? '');
  const signedIn = useSignedIn();
  const invitation = useQuery({
    ...trpc.auth.invitation.queryOptions({ token: token.current }),
    enabled: token.current !== '',
    retry: false,
  });
  const form = useForm<z.infer<typeof Form>>({ resolver: zodResolver(Form) });
  const accept = useMutation(
    trpc.auth.acceptInvitation.mutationOptions({
      onSuccess: () => signedIn('/', { clearHash: true }),
    }),
  );
  if (!token.current || invitation.isError) {
    return (
      <AuthLayout title={msg('auth.invite.title')}>
        {invitation.isError ? (
          <ErrorNote error={invitation.error} />
        ) : (
          <div className="notice notice-error" role="alert">
            {msg('auth.invite.incomplete')}
          </div>
        )}
        <p>{tx('auth.invite.already_member', { link: (c) => <Link to="/login">{c}</Link> })}</p>
      </AuthLayout>
    );
  }
  if (invitation.isPending) return <Loading />;
  const inv = invitation.data;
  const { errors } = form.formState;
  return (
    <AuthLayout
      title={
        inv.account_name
          ? t('auth.invite.join', { account: inv.account_name })
          : msg('auth.invite.join_unnamed')
      }
    >
      <p className="lead">
        {tx('auth.invite.lead', {
          inviter: inv.invited_by ?? '',
          b: (c) => <strong>{c}</strong>,
          email: inv.email,
          role: inv.role,
        })}
      </p>
      <form onSubmit={form.handleSubmit((v) => accept.mutate({ ...v, token: token.current }))} noValidate>
        <ErrorNote error={accept.error} />
        <NameField error={errors.name?.message} {...form.register('name')} />
        <NewPasswordField error={errors.password?.message} {...form.register('password')} />
        <SubmitRow busy={accept.isPending}>{msg('auth.invite.submit')}</SubmitRow>
      </form>
    </AuthLayout>
  );
}
