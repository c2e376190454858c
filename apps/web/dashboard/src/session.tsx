import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { setCsrfToken, trpc } from './trpc.ts';

export { nextPath, tokenFromHash } from './links.ts';

import { RequiredTwoStepPage } from './pages/auth/required-two-step.tsx';
import { Loading } from './ui.tsx';

export const sessionQuery = () => trpc.auth.session.queryOptions(undefined, { staleTime: 60_000 });

/** Who is signed in on this browser; keeps the CSRF token for changes up to date. */
function useSession() {
  const q = useQuery(sessionQuery());
  setCsrfToken(q.data?.session?.csrf_token ?? null);
  return q;
}

export type Session = NonNullable<NonNullable<ReturnType<typeof useSession>['data']>['session']>;

/** Pages behind sign-in: without a session, to /login and back here afterwards. */
export function RequireSession({ children }: { children: (session: Session) => ReactNode }) {
  const { data, isPending, error } = useSession();
  const location = useLocation();
  if (isPending) return <Loading />;
  if (error || !data?.session) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`} replace />;
  }
  // Issue 45: the account requires two-step sign-in and this session has none yet.
  if (data.session.second_step_required) return <RequiredTwoStepPage />;
  return <>{children(data.session)}</>;
}
