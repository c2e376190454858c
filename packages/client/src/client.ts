import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { errorFromResponse } from './errors.ts';
import type { paths } from './openapi.ts';
import { type RetryOptions, retryingFetch } from './retrying-fetch.ts';

export interface EsignClientOptions extends RetryOptions {
  /** The server's address (`PUBLIC_URL`), e.g. `https://esign.example.com`; `/api/v1` is added. */
  baseUrl: string;
  /** An API key: `svc_live_...` or `svc_test_...`. */
  apiKey: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export type EsignClient = Client<paths>;

/** Refused answers become thrown EsignApiError, so `data` is always the success body. */
const throwOnError: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await errorFromResponse(response);
    return undefined;
  },
};

/**
 * A typed client of the REST API: every path, parameter, body and response typed from the OpenAPI
 * document (openapi-fetch over openapi-typescript's types). Errors throw EsignApiError carrying the
 * API's `code`; POSTs get an `Idempotency-Key`; 429/5xx are retried honouring `Retry-After`.
 *
 * ```ts
 * const esign = createEsignClient({ baseUrl: 'https://esign.example.com', apiKey });
 * const { data: template } = await esign.GET('/templates/{id}', { params: { path: { id: 12 } } });
 * ```
 */
export function createEsignClient(options: EsignClientOptions): EsignClient {
  const base = options.fetch ?? globalThis.fetch.bind(globalThis);
  const client = createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/v1`,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(base, options),
  });
  client.use(throwOnError);
  return client;
}
