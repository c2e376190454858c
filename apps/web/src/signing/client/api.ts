/**
 * The signing procedures over tRPC's HTTP wire format (v11, no batching, no transformer):
 * queries are GET /trpc/<path>?input=<JSON>, mutations POST /trpc/<path> with the input as the JSON
 * body. Answers are {result:{data}} or {error:{message, data:{code}}}.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** keepalive requests (sent while the page goes away) are limited to 64 KB by browsers. */
const post = (url: string, body: string, keepalive: boolean) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body,
    credentials: 'same-origin',
    keepalive: keepalive && body.length < 60_000,
  });

interface Envelope {
  result?: { data?: unknown };
  error?: {
    message?: string;
    code?: unknown;
    data?: { code?: string; retryAfterSeconds?: number | null };
  };
}

export async function trpc<T>(
  kind: 'query' | 'mutation',
  path: string,
  input: unknown,
  opts: { keepalive?: boolean } = {},
): Promise<T> {
  const url = `/trpc/${path}`;
  let res: Response;
  try {
    res =
      kind === 'query'
        ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`, {
            headers: { accept: 'application/json' },
            credentials: 'same-origin',
          })
        : await post(url, JSON.stringify(input), opts.keepalive ?? false);
  } catch {
    throw new ApiError('network', 'Could not reach the server.');
  }
  let body: Envelope;
  try {
    body = (await res.json()) as Envelope;
  } catch {
    throw new ApiError(
      res.status === 413 ? 'invalid_request' : 'internal_error',
      `Unexpected answer (${res.status}).`,
    );
  }
  if (body.error) {
    const e = body.error;
    // tRPC errors carry the code in data.code; errors from the HTTP layer (body too large) use the
    // REST envelope with a string code.
    const code = e.data?.code ?? (typeof e.code === 'string' ? e.code : 'internal_error');
    throw new ApiError(code, e.message ?? 'Request failed', e.data?.retryAfterSeconds ?? null);
  }
  if (!res.ok || !body.result) throw new ApiError('internal_error', `Unexpected answer (${res.status}).`);
  return body.result.data as T;
}
