import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { tokenFromHash } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { ErrorNote, Loading } from '../../ui.tsx';
import { useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';

/** /login/link#token=...: the one-time link from the sign-in email. */
export function LinkSignInPage() {
  const signedIn = useSignedIn();
  const token = useRef(tokenFromHash());
  const started = useRef(false);
  const signIn = useMutation(
    trpc.auth.signInWithLink.mutationOptions({
      onSuccess: () => signedIn(),
    }),
  );
  useEffect(() => {
    if (started.current || !token.current) return;
    started.current = true;
    // The token is used once; keep it out of the address bar and history.
    window.history.replaceState(null, '', window.location.pathname);
    signIn.mutate({ token: token.current });
  }, [signIn]);
  return (
    <AuthLayout title="Signing you in">
      {!token.current ? (
        <div className="notice notice-error" role="alert">
          This sign-in link is incomplete. Open it again from the email, or ask for a new one.
        </div>
      ) : signIn.isError ? (
        <ErrorNote error={signIn.error} />
      ) : (
        <Loading label="Checking your link…" />
      )}
      {!token.current || signIn.isError ? (
        <p>
          <Link to="/login">Back to sign-in</Link>
        </p>
      ) : null}
    </AuthLayout>
  );
}
