import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { setCsrfToken, trpc } from './trpc.ts';
import { Loading } from './ui.tsx';

export const sessionQuery = () => trpc.auth.session.queryOptions(undefined, { staleTime: 60_000 });

/** Who is signed in on this browser; keeps the CSRF token for changes up to date. */
export function useSession() {
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
  return <>{children(data.session)}</>;
}

/** Where to go after signing in: only paths on this site. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** The token of a one-time link: it travels in the fragment (#token=...), never to a server log. */
export function tokenFromHash(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  return token && /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : null;
}
