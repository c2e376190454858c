import { appRouter, type Ctx, createContext, type Meta, toCoreError } from '@esign/core';
import { TEMPLATE_UPLOAD_LIMIT } from '@esign/http';
import { TRPCError } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptsRequestBody,
  coerceSchema,
  createProcedureCache,
  getBody,
  getContentType,
  getErrorFromUnknown,
  getInputOutputParsers,
  getQuery,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
  zodSupportsCoerce,
} from 'trpc-to-openapi';
import { ZodArray, type ZodObject } from 'zod';
import type { RestApiOptions } from './plugin.ts';
import { API_BASE } from './request-state.ts';

/** A procedure of the router as tRPC's own caller invokes it. */
type Procedure = (opts: {
  path: string;
  getRawInput: () => Promise<unknown>;
  ctx: Ctx;
  type: string;
  signal: undefined;
  batchIndex: number;
}) => Promise<unknown>;

const procedures = appRouter._def.procedures as unknown as Record<string, Procedure>;

/** Sends a JSON body the way trpc-to-openapi's node handler does (the onSend hooks then run). */
function send(reply: FastifyReply, status: number, headers: Record<string, string>, body: unknown) {
  reply.code(status).header('Content-Type', 'application/json');
  for (const [key, value] of Object.entries(headers)) reply.header(key, value);
  return reply.send(JSON.stringify(body));
}

/** trpc-to-openapi's handler refuses a request whose Host header makes no URL (tRPC's createURL). */
function checkHost(request: FastifyRequest, rawUrl: string) {
  const headers = request.headers;
  const encrypted = (request.raw.socket as { encrypted?: boolean } | undefined)?.encrypted;
  const protocol = headers[':scheme'] === 'https' || encrypted ? 'https:' : 'http:';
  const host = headers.host ?? headers[':authority'] ?? 'localhost';
  try {
    new URL(rawUrl, `${protocol}//${host}`);
  } catch (cause) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid URL', cause });
  }
}

/**
 * The procedure's input from the request, as trpc-to-openapi builds it: the JSON body or the query
 * string (a single value per key, arrays where the schema wants one), then the path parameters,
 * and string query values coerced where the schema wants numbers or booleans.
 */
async function inputOf(
  request: FastifyRequest,
  url: URL,
  procedure: Procedure,
  pathInput: Record<string, string>,
) {
  const useBody = acceptsRequestBody(request.method as never);
  const contentType = getContentType(request as never);
  if (useBody && !contentType?.startsWith('application/json')) {
    throw new TRPCError({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: contentType ? `Unsupported content-type "${contentType}` : 'Missing content-type header',
    });
  }
  const schema = unwrapZodType(getInputOutputParsers(procedure as never).inputParser as never, true);
  if (instanceofZodTypeLikeVoid(schema)) return undefined;
  const input: Record<string, unknown> = {
    ...(useBody ? await getBody(request as never, TEMPLATE_UPLOAD_LIMIT) : getQuery(request as never, url)),
    ...pathInput,
  };
  if (zodSupportsCoerce && instanceofZodTypeObject(schema)) {
    const shape = (schema as unknown as ZodObject).shape;
    if (!useBody) {
      for (const [key, field] of Object.entries(shape)) {
        const isArray =
          field instanceof ZodArray ||
          (instanceofZodTypeOptional(field) && (field as { unwrap(): unknown }).unwrap() instanceof ZodArray);
        if (isArray && input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
      }
    }
    coerceSchema(schema as never);
  }
  return input;
}

/**
 * The REST route handler: the procedure trpc-to-openapi's route table finds for the method and
 * path (from the procedures' OpenAPI meta), called with the request's input; its result or error
 * goes out exactly as trpc-to-openapi's node handler sends it (the `onSend` hook turns errors into
 * the spec's envelope). It is that handler without the per-request work none of our procedures
 * uses: no Fetch `Request` (with a copy of the headers and, for a POST, a re-serialised copy of the
 * whole JSON body) built only for an abort signal, and no Node methods grafted onto Fastify's
 * request and reply (bench/README.md, "GET /api/v1/templates").
 */
export function procedureHandler(opts: RestApiOptions, now: () => Date) {
  const getProcedure = createProcedureCache(appRouter as never);
  const run = async (request: FastifyRequest, reply: FastifyReply) => {
    const method = request.method;
    const rawUrl = request.url.replace(API_BASE, '');
    const url = new URL(rawUrl.startsWith('/') ? `http://127.0.0.1${rawUrl}` : rawUrl);
    const found = getProcedure(method as never, normalizePath(url.pathname));
    const procedure = found?.procedure;
    let input: unknown;
    let ctx: Ctx | undefined;
    try {
      if (!procedure) {
        if (method === 'HEAD') return send(reply, 204, {}, undefined);
        throw new TRPCError({ message: 'Not found', code: 'NOT_FOUND' });
      }
      const call = procedures[procedure.path]!;
      input = await inputOf(request, url, call, found.pathInput);
      checkHost(request, rawUrl);
      ctx = createContext({
        db: opts.db,
        logger: opts.logger,
        config: opts.config,
        // A multipart request's files on disk, for this request only (services/uploads.ts).
        deps: request.esign?.uploads ? { ...opts.deps, uploads: request.esign.uploads.files } : opts.deps,
        actor: request.esign?.actor ?? null,
        source: 'api',
        requestId: String(request.id),
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        now,
      });
      const data = await call({
        path: procedure.path,
        getRawInput: async () => input,
        ctx,
        type: procedure.type,
        signal: undefined,
        batchIndex: 0,
      });
      const meta = (call as unknown as { _def: { meta?: Meta } })._def.meta;
      return send(reply, meta?.successStatus ?? 200, {}, data);
    } catch (cause) {
      const at = { path: procedure?.path, type: procedure?.type ?? 'unknown', input, ctx };
      return sendProcedureError(request, reply, getErrorFromUnknown(cause), at);
    }
  };
  // Not an async handler: Fastify would send again what it resolves to while our async onSend hook
  // (storing idempotent responses) still runs; `run` sends every outcome itself.
  return (request: FastifyRequest, reply: FastifyReply): void => {
    run(request, reply).catch((err: unknown) => reply.send(err));
  };
}

/** The error body trpc-to-openapi sends (our errorFormatter's shape); `finishResponse` makes it the envelope. */
function sendProcedureError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: TRPCError,
  at: { path: string | undefined; type: string; input: unknown; ctx: Ctx | undefined },
) {
  const core = toCoreError(error);
  if (core.code === 'internal_error')
    request.log.error({ err: (error as { cause?: unknown }).cause ?? error }, 'procedure failed');
  const retry = core.details.retryAfterSeconds;
  const shape = getErrorShape({ config: appRouter._def._config, error, ...at } as never) as {
    message?: string;
  };
  const isInputValidationError =
    error.code === 'BAD_REQUEST' && error.cause instanceof Error && error.cause.name === 'ZodError';
  return send(reply, core.status, retry !== undefined ? { 'Retry-After': String(retry) } : {}, {
    ...shape,
    message: isInputValidationError ? 'Input validation failed' : (shape?.message ?? error.message),
    code: error.code,
    issues: isInputValidationError ? (error.cause as unknown as { issues: unknown }).issues : undefined,
  });
}
