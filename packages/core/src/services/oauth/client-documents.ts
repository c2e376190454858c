import { guardedFetch } from '@esign/webhooks';
import type { CoreDeps } from '../../context.ts';

/** Largest client ID metadata document accepted (oidc-provider's own limit is 5 KB too). */
const MAX_DOCUMENT_BYTES = 5 * 1024;
const TIMEOUT_MS = 5000;

/**
 * oidc-provider's `fetch` for client ID metadata documents, through the project's outbound guard:
 * public https addresses only (no loopback or private targets, each redirect re-checked), bounded
 * time and size. Tests loosen it only through CoreDeps.outbound, like document downloads.
 */
export function guardedClientFetch(deps: CoreDeps) {
  return async (url: URL | string | Request, options: RequestInit = {}): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(options.headers).forEach((value, name) => {
      if (name !== 'user-agent') headers[name] = value;
    });
    const target = url instanceof Request ? url.url : String(url);
    const result = await guardedFetch(target, {
      method: options.method ?? 'GET',
      headers,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_DOCUMENT_BYTES,
      maxRedirects: 0,
      allowedProtocols: ['https:'],
      allowPrivate: deps.outbound?.allowPrivate ?? false,
      ...(deps.outbound?.ca ? { ca: deps.outbound.ca } : {}),
      ...(deps.outbound?.lookup ? { lookup: deps.outbound.lookup } : {}),
    });
    return new Response(result.status === 204 ? null : Buffer.from(result.body), {
      status: result.status,
      headers: result.headers,
    });
  };
}
