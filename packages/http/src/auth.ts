import {
  type Actor,
  type AuthenticatedRequest,
  type AuthenticateOptions,
  authenticateAndLimit,
  type CoreError,
  type Credentials,
  limitMoreCalls,
  presentedKind,
} from '@esign/core';
import type { Db } from '@esign/db';
import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling, once authenticateHttp() accepted the request's credentials. */
    actor: Actor | null;
  }
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

export function credentialsOf(request: FastifyRequest): Credentials {
  return {
    authorization: request.headers.authorization,
    cookie: request.headers.cookie,
    method: request.method,
    csrfToken: header(request, 'x-csrf-token'),
    origin: header(request, 'origin'),
  };
}

/** Whether the request carries any credential at all (a public endpoint may then ignore it). */
export function carriesCredentials(request: FastifyRequest): boolean {
  return presentedKind(credentialsOf(request)) !== null;
}

export interface HttpAuthOptions extends AuthenticateOptions {
  db: Db;
  perMinute: number;
  now: () => Date;
  /** How many calls the request makes (a tRPC batch: each of its procedures); default 1. */
  calls?: number;
}

/**
 * The Fastify side of the one authentication path: core's authenticateAndLimit on the request's
 * headers, its RateLimit-* headers set on the reply, the actor kept on `request.actor`. The caller
 * renders `error` (REST envelope, MCP 401 with WWW-Authenticate, tRPC error).
 */
export async function authenticateHttp(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: HttpAuthOptions,
): Promise<AuthenticatedRequest> {
  const result = await authenticateAndLimit(opts.db, credentialsOf(request), {
    now: opts.now(),
    allow: opts.allow,
    publicUrl: opts.publicUrl,
    perMinute: opts.perMinute,
    calls: opts.calls ?? 1,
  });
  reply.headers(result.headers);
  request.actor = result.actor;
  return result;
}

/**
 * A request authenticateHttp counted once turns out to carry `more` calls (an MCP batch, known
 * once its body is read): they are counted too, the reply's RateLimit-* headers say so, and over
 * the limit the 429 to send is returned.
 */
export async function countMoreCalls(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: Pick<HttpAuthOptions, 'db' | 'perMinute' | 'now'>,
  more: number,
): Promise<CoreError | null> {
  if (more <= 0 || !request.actor) return null;
  const result = await limitMoreCalls(opts.db, request.actor, {
    more,
    now: opts.now(),
    perMinute: opts.perMinute,
  });
  reply.headers(result.headers);
  return result.error;
}
