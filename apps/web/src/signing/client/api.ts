import type { AppRouter } from '@esign/core';
import { createTRPCClient, httpLink } from '@trpc/client';
import { ApiError } from './errors.ts';
import { tr } from './i18n.ts';

/** Browsers refuse keepalive requests (sent while the page goes away) over 64 KB. */
export const KEEPALIVE_MAX_BODY = 60_000;

/**
 * fetch for the tRPC link: same-origin credentials, keepalive when asked for and small enough, and
 * the two failures tRPC cannot describe (no answer at all, an answer that is not JSON) as ApiErrors.
 */
function transport(keepalive: boolean) {
  return async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    let res: Response;
    try {
      res = await fetch(url, {
        ...init,
        credentials: 'same-origin',
        keepalive: keepalive && typeof body === 'string' && body.length < KEEPALIVE_MAX_BODY,
      });
    } catch {
      throw new ApiError('network', tr('problem.no_server'));
    }
    if (!res.headers.get('content-type')?.includes('json')) {
      const code = res.status === 413 ? 'invalid_request' : 'internal_error';
      throw new ApiError(code, `Unexpected answer (${res.status}).`);
    }
    return res;
  };
}

/**
 * The signing procedures through a tRPC client typed by the server's router.
 * Every call is a POST, queries included (`methodOverride`; the server allows it), so the signing
 * token travels in the body and never in a URL, a proxy log or the browser history.
 */
export function signingClient(keepalive: boolean, url = '/trpc') {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url, methodOverride: 'POST', fetch: transport(keepalive) })],
  }).signing;
}

export const signing = signingClient(false);

/** The same procedures sent with keepalive: the last save while the page is hidden or closed. */
export const signingOnExit = signingClient(true);
