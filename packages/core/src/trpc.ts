import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Ctx } from './context.ts';
import { CoreError, type ErrorCode, INTERNAL_ERROR_MESSAGE } from './errors.ts';

export interface McpMeta {
  /** The MCP tool name, exactly as the specification spells it. */
  tool: string;
  /** `read` tools are listed for read-only keys and view-only connections. */
  scope: 'read' | 'write';
  description: string;
}

/** The single source every adapter reads: REST route, status, MCP tool, idempotency. */
export interface Meta extends OpenApiMeta {
  mcp?: McpMeta;
  idempotent?: boolean;
  successStatus?: number;
  /** Validation failures under these top-level input keys get this code instead of invalid_parameter. */
  inputErrors?: Record<string, ErrorCode>;
}

/** Turns anything a procedure threw into the CoreError the adapters render. */
export function toCoreError(error: unknown): CoreError {
  if (error instanceof CoreError) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof CoreError) return error.cause;
    if (error.code === 'PARSE_ERROR')
      return new CoreError('invalid_json', 'The request body is not valid JSON');
    if (error.code === 'NOT_FOUND') return new CoreError('not_found', error.message || 'Not found');
    if (error.code === 'BAD_REQUEST') return new CoreError('invalid_parameter', error.message);
  }
  return new CoreError('internal_error', INTERNAL_ERROR_MESSAGE);
}

const t = initTRPC
  .context<Ctx>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const core = toCoreError(error);
      return {
        code: shape.code,
        message: core.message,
        data: {
          code: core.code,
          httpStatus: core.status,
          retryAfterSeconds: core.details.retryAfterSeconds ?? null,
          path: shape.data.path,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

interface IssueLike {
  path: PropertyKey[];
  message: string;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

export function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    return acc ? `${acc}.${String(key)}` : String(key);
  }, '');
}

/** One place that turns schema issues into missing_parameter / invalid_parameter naming the field. */
export function issuesToCoreError(
  issues: IssueLike[],
  rawInput: unknown,
  overrides: Meta['inputErrors'],
): CoreError {
  const issue = issues[0];
  if (!issue) return new CoreError('invalid_parameter', 'Invalid input');
  const name = formatPath(issue.path);
  const top = issue.path[0];
  const override = typeof top === 'string' ? overrides?.[top] : undefined;
  if (issue.path.length === 0) {
    if (
      rawInput === undefined ||
      rawInput === null ||
      typeof rawInput !== 'object' ||
      Array.isArray(rawInput)
    ) {
      return new CoreError('invalid_parameter', 'The request body must be a JSON object');
    }
    return new CoreError(override ?? 'invalid_parameter', issue.message);
  }
  const missing = valueAt(rawInput, issue.path) === undefined;
  if (override) return new CoreError(override, `${name}: ${missing ? 'is required' : issue.message}`);
  if (missing) return new CoreError('missing_parameter', `Missing required parameter: ${name}`);
  return new CoreError('invalid_parameter', `Invalid value for ${name}: ${issue.message}`);
}

const validationErrors = t.middleware(async (opts) => {
  const result = await opts.next();
  if (!result.ok) {
    const cause = result.error.cause as { issues?: IssueLike[] } | undefined;
    if (result.error.code === 'BAD_REQUEST' && cause && Array.isArray(cause.issues)) {
      throw issuesToCoreError(cause.issues, await opts.getRawInput(), opts.meta?.inputErrors);
    }
  }
  return result;
});

/** No actor needed (signing page procedures bring their own token). */
export const publicProcedure = t.procedure.use(validationErrors);

/** Any authenticated actor: API key, OAuth connection or dashboard session. */
export const actorProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw ctx.authFailure ?? new CoreError('unauthenticated', 'Authentication required');
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/** Changes something: full-access keys, `write` OAuth scope, and users whose role allows it. */
export const writeProcedure = actorProcedure.use(({ ctx, next }) => {
  const { actor } = ctx;
  if (!actor.canWrite) {
    if (actor.kind === 'oauth') {
      throw new CoreError(
        'insufficient_scope',
        'This connection has View only access; reconnect with Full access',
      );
    }
    if (actor.kind === 'api_key') {
      throw new CoreError(
        'read_only_api_key',
        'This API key is read-only; use a full-access key for changes',
      );
    }
  }
  if (actor.userRole === 'viewer') throw new CoreError('forbidden', 'Your role (viewer) cannot make changes');
  return next();
});

/** Admin-only changes (operations.md §5): API keys, webhooks, members, billing, account settings. */
export const adminProcedure = writeProcedure.use(({ ctx, next }) => {
  if (ctx.actor.userRole !== 'admin') {
    throw new CoreError(
      'forbidden',
      `Your role (${ctx.actor.userRole}) cannot do this; ask an admin of the account`,
    );
  }
  return next();
});

/** Admin-only reads (key and webhook lists, delivery logs): still refused to members and viewers. */
export const adminReadProcedure = actorProcedure.use(({ ctx, next }) => {
  if (ctx.actor.userRole !== 'admin') {
    throw new CoreError(
      'forbidden',
      `Your role (${ctx.actor.userRole}) cannot see this; ask an admin of the account`,
    );
  }
  return next();
});

/** Signed-in dashboard users only (their own sessions and password), whatever their role. */
export const sessionProcedure = actorProcedure.use(({ ctx, next }) => {
  if (ctx.actor.kind !== 'session' || !ctx.actor.sessionId) {
    throw new CoreError('forbidden', 'Only a signed-in dashboard user can do this');
  }
  return next({ ctx: { ...ctx, actor: { ...ctx.actor, sessionId: ctx.actor.sessionId } } });
});
