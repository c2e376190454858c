/** Where to go after signing in: a path on this site only (never `//evil.example` or a URL). */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/**
 * Pages the server renders (the OAuth consent page): after signing in, the browser loads them
 * rather than the dashboard's client-side router.
 */
export function isServerPage(path: string): boolean {
  return path.startsWith('/oauth/');
}

/** The token of a one-time link: it travels in the fragment (#token=...), never to a server log. */
export function tokenFromHash(hash: string = window.location.hash): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : null;
}
