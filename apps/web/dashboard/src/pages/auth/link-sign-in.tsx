import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { msg } from '../../messages/index.ts';
import { nextPath, tokenFromHash } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { ErrorNote, Loading } from '../../ui.tsx';
import { useSignedIn } from './form-parts.tsx';
import { AuthLayout } from './layout.tsx';
import { type SecondStepChallenge, SecondStepForm } from './second-step.tsx';

/**
 * /login/link?next=...#token=...: the one-time link from the sign-in email; `next` (a path on
 * this site) is where the sign-in page was asked to return, such as the OAuth consent page.
 */
export function LinkSignInPage() {
  const signedIn = useSignedIn();
  const token = useRef(tokenFromHash());
  const next = useRef(nextPath(window.location.search));
  const started = useRef(false);
  const navigate = useNavigate();
  const [challenge, setChallenge] = useState<SecondStepChallenge | null>(null);
  const signIn = useMutation(
    trpc.auth.signInWithLink.mutationOptions({
      onSuccess: (r) => (r.signed_in ? signedIn(next.current) : setChallenge(r.second_step)),
    }),
  );
  useEffect(() => {
    if (started.current || !token.current) return;
    started.current = true;
    // The token is used once; keep it out of the address bar and history.
    window.history.replaceState(null, '', window.location.pathname);
    signIn.mutate({ token: token.current });
  }, [signIn]);
  if (challenge !== null) {
    return (
      <AuthLayout title={msg('auth.link.title')}>
        <SecondStepForm
          token={challenge.token}
          methods={challenge.methods}
          onSignedIn={() => signedIn(next.current)}
          onStartOver={() => navigate('/login')}
        />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={msg('auth.link.title')}>
      {!token.current ? (
        <div className="notice notice-error" role="alert">
          {msg('auth.link.incomplete')}
        </div>
      ) : signIn.isError ? (
        <ErrorNote error={signIn.error} />
      ) : (
        <Loading label={msg('auth.link.checking')} />
      )}
      {!token.current || signIn.isError ? (
        <p>
          <Link to="/login">{msg('auth.back_to_sign_in')}</Link>
        </p>
      ) : null}
    </AuthLayout>
  );
}
