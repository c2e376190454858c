import type { AppRouter } from '@esign/core';
import { TRPC_MAX_BATCH } from '@esign/domain';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { msg } from './messages/index.ts';

// The dashboard is a client of the one router (packages/core): every action is a tRPC procedure,
// authenticated by the HttpOnly session cookie. Changes carry the session's CSRF token.

let csrfToken: string | null = null;
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}
const csrfHeaders = (): Record<string, string> => (csrfToken ? { 'x-csrf-token': csrfToken } : {});

/** The stable error code of a failed call (`forbidden`, `not_found`, ...), as the REST API spells it. */
export function errorCode(err: unknown): string | null {
  if (err instanceof TRPCClientError)
    return (err.data as { code?: string } | undefined)?.code ?? envelopeOf(err)?.code ?? null;
  if (err instanceof UploadError) return err.code;
  return null;
}

/**
 * A refusal of the HTTP layer before tRPC ran (a body over its limit, the public verify page's
 * address past its minute): the REST error envelope `{ error: { code, message } }`, which the tRPC
 * client cannot read as its own.
 */
function envelopeOf(err: TRPCClientError<AppRouter>): { code: string; message: string } | null {
  const meta = err.meta as { responseJSON?: unknown } | undefined;
  const error = (meta?.responseJSON as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string') return null;
  return { code: error.code, message: error.message };
}

/** A sentence a person understands, for any failure. */
export function errorMessage(err: unknown): string {
  const envelope = err instanceof TRPCClientError && !err.data ? envelopeOf(err) : null;
  if (envelope) return envelope.message;
  const code = errorCode(err);
  if (code === 'internal_error') return msg('errors.internal');
  if (code === 'unauthenticated' && !(err instanceof Error && /password|link/i.test(err.message))) {
    return msg('errors.signed_out');
  }
  if (err instanceof TRPCClientError && !code) {
    return msg('errors.unreachable');
  }
  if (err instanceof Error && err.message) return err.message;
  // A message the page wrote itself ({ message }), not an Error: shown as it is.
  const own = (err as { message?: unknown } | null)?.message;
  if (typeof own === 'string' && own) return own;
  return msg('errors.generic');
}

let onSignedOut: () => void = () => {};
export const whenSignedOut = (fn: () => void) => {
  onSignedOut = fn;
};

const signedOut = (err: unknown) => {
  if (errorCode(err) === 'unauthenticated') onSignedOut();
};

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: signedOut }),
  mutationCache: new MutationCache({ onError: signedOut }),
  defaultOptions: {
    queries: {
      retry: (count, err) => count < 2 && (errorCode(err) === null || errorCode(err) === 'internal_error'),
      refetchOnWindowFocus: true,
      staleTime: 5_000,
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  // At most TRPC_MAX_BATCH calls a request: the server refuses larger batches.
  links: [
    httpBatchLink({ url: '/trpc', headers: csrfHeaders, maxURLLength: 4000, maxItems: TRPC_MAX_BATCH }),
  ],
});

/** Query and mutation options for every procedure: `useQuery(trpc.templates.list.queryOptions({}))`. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

class UploadError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Calls a mutation with an XMLHttpRequest instead of fetch, for the one thing fetch cannot do:
 * report upload progress (template uploads carry whole documents).
 */
export function mutateWithProgress<T>(
  path: string,
  input: unknown,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/trpc/${path}`);
    xhr.setRequestHeader('content-type', 'application/json');
    for (const [k, v] of Object.entries(csrfHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new UploadError('network', msg('errors.upload_interrupted')));
    xhr.onload = () => {
      let body: { result?: { data: T }; error?: { message: string; data?: { code?: string } } } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        if (xhr.status === 413) {
          reject(new UploadError('document_too_large', msg('errors.upload_too_large')));
          return;
        }
      }
      if (body.result) {
        onProgress(1);
        resolve(body.result.data);
      } else {
        const code = body.error?.data?.code ?? 'internal_error';
        const error = new UploadError(code, body.error?.message ?? msg('errors.upload_failed'));
        signedOut(error);
        reject(error);
      }
    };
    xhr.send(JSON.stringify(input));
  });
}
