import type { Actor } from '@esign/core';
import type { CommittedOutcome, IdempotencyClaim } from '@esign/core/idempotency';
import type { UploadedFiles } from '@esign/core/uploads';
import type { FastifyRequest } from 'fastify';
import type { RestRoute } from './routes.ts';

export const API_BASE = '/api/v1';

/** What the REST hooks learn about a request: its route, its caller and its idempotency record. */
export interface RequestState {
  route: RestRoute;
  /** The route's path parameters (`{id}`), as the path spells them. */
  params: Record<string, string>;
  actor: Actor;
  idempotency: IdempotencyClaim | null;
  /**
   * The key's work committed but its answer was never stored (its process died in between): the
   * handler answers from this instead of running the procedure again.
   */
  committed: CommittedOutcome | null;
  replayed: boolean;
  /** A multipart request's files on disk (removed once the response is sent), else null. */
  uploads: UploadedFiles | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    esign: RequestState | null;
  }
}

export function pathOf(request: FastifyRequest): string {
  return new URL(request.url, 'http://x').pathname;
}
