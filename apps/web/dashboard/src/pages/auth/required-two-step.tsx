import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { msg } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { Button, ErrorNote, Loading } from '../../ui.tsx';
import { AddPasskey } from '../account/passkeys.tsx';
import { Enrol, RecoveryCodes } from '../account/two-step.tsx';
import { AuthLayout } from './layout.tsx';

/**
 * Issue 45 item 2: the account requires two-step sign-in and this session was opened without it.
 * Every page shows this instead (the server refuses everything else to the session) until the app
 * is set up; then the recovery codes, and the dashboard.
 */
export function RequiredTwoStepPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const status = useQuery(trpc.twoStep.status.queryOptions());
  const [codes, setCodes] = useState<string[] | null>(null);
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSettled: async () => {
        queryClient.clear();
        await navigate('/login');
      },
    }),
  );
  const done = () => queryClient.invalidateQueries();
  return (
    <AuthLayout title={msg('auth.required.title')}>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={done} />
      ) : (
        <>
          <p className="lead">{msg('auth.required.lead')}</p>
          {status.isPending ? <Loading /> : null}
          <ErrorNote error={status.error} />
          {status.data?.totp_enabled ? <p role="status">{msg('auth.required.has_app')}</p> : null}
          {status.data && !status.data.totp_enabled ? (
            <>
              <Enrol onCodes={setCodes} />
              <h2>{msg('auth.required.or_passkey')}</h2>
              <AddPasskey onAdded={done} />
            </>
          ) : null}
        </>
      )}
      <p>
        <button type="button" className="link-button" onClick={() => signOut.mutate()}>
          {msg('auth.required.sign_out')}
        </button>
      </p>
    </AuthLayout>
  );
}
