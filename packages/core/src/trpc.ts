import { type Executor, isDatabaseUnavailable } from '@esign/db';
import { type AnyProcedure, type AnyRouter, initTRPC, type ProcedureType, TRPCError } from '@trpc/server';
import {
  type TRPC_ERROR_CODE_KEY,
  type TRPC_ERROR_CODE_NUMBER,
  TRPC_ERROR_CODES_BY_KEY,
} from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import type { Ctx } from './context.ts';
import { DECIMAL_ID, ID_FORM } from './contracts/ids.ts';
import {
  CoreError,
  databaseUnavailable,
  type ErrorCode,
  formatPath,
  INTERNAL_ERROR_MESSAGE,
  isStorageFull,
  storageFull,
} from './errors.ts';
import { isSameOrigin } from './services/sessions/sessions.ts';

export interface McpMeta {
  /** The MCP tool name, exactly as the specification spells it. */
  tool: string;
  /** A short human-readable name for the tool (MCP `title`), shown by clients in place of `tool`. */
  title: string;
  /** `read` tools are listed for read-only keys and view-only connections. */
  scope: 'read' | 'write';
  description: string;
  /** A credit purchase tool: not offered to a client whose purchases are hidden (billing/offer.ts). */
  purchase?: boolean;
  /**
   * Arguments the tool needs although its input schema lets them through absent, so that the
   * procedure answers with the spec's own code (`missing_documents`, `missing_signers`); the tool's
   * published input schema lists them as required.
   */
  required?: string[];
  /**
   * MCP tool annotations beyond what `scope` says. Defaults: read-only when `scope` is `read`;
   * otherwise additive (not destructive) and not idempotent; closed world (no one outside the
   * account is contacted).
   */
  hints?: { readOnly?: boolean; destructive?: boolean; idempotent?: boolean; openWorld?: boolean };
}

/**
 * The request body a procedure takes, whose limit every adapter applies (the bytes are the HTTP
 * layer's: @esign/http BODY_LIMITS): `json` (any JSON body, 1 MB, the default), `template_upload`
 * (up to ten base64 documents and fields), `template_fields` (a template's fields at their
 * maximum), `document` (one base64 document; over the limit the error is document_too_large) and
 * `bulk_file` (one base64 recipient file).
 */
export type BodyKind = 'json' | 'template_upload' | 'template_fields' | 'document' | 'bulk_file' | 'logo';

/** Per-route rules of a procedure's request, read by the REST, tRPC and MCP adapters alike (issue 43). */
export interface RequestMeta {
  /** The body's limit (default `json`). */
  body?: BodyKind;
  /**
   * Where the input carries base64 documents (paths into the input, `*` for every array item): a
   * large body's documents are decoded to files of the request as it arrives.
   */
  documents?: readonly (readonly string[])[];
  /**
   * A public procedure limited per client address: the refusal for an address already past its
   * limit (counting nothing), asked before the body is read so that such an address cannot make
   * the server read a large body only to refuse it.
   */
  addressLimit?: (
    ctx: { db: Executor; now: () => Date },
    caller: { ip: string | null },
  ) => Promise<CoreError | null>;
}

/** The single source every adapter reads: REST route, status, MCP tool, idempotency, request limits. */
export interface Meta extends OpenApiMeta {
  /** Body limit, documents and address limit of the request (every adapter). */
  request?: RequestMeta;
  mcp?: McpMeta;
  idempotent?: boolean;
  successStatus?: number;
  /** Validation failures under these top-level input keys get this code instead of invalid_parameter. */
  inputErrors?: Record<string, ErrorCode>;
  /**
   * Error codes this operation's rules can return beyond what every adapter derives from the
   * procedure itself (authentication, rate limit, write access, path ids, idempotency, input
   * validation). The OpenAPI document lists each operation's statuses from both.
   */
  errors?: ErrorCode[];
  /**
   * Set by `writeProcedure` (so by every builder on it), never by hand: the caller needs write
   * access (a full-access key, the `write` OAuth scope, a role that may change things), which the
   * builder's guard enforces. Adapters read it, e.g. for the 403 responses of the OpenAPI document.
   */
  writeAccess?: true;
  /**
   * Issue 45: a session that must still set up its second step (`actor.secondStepRequired`) may
   * call this procedure; every other procedure refuses it.
   */
  duringEnrolment?: true;
}

/** Turns anything a procedure threw into the CoreError the adapters render. */
export function toCoreError(error: unknown): CoreError {
  if (error instanceof CoreError) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof CoreError) return error.cause;
    if (error.code === 'PARSE_ERROR')
      return new CoreError('invalid_json', 'The request body is not valid JSON');
    if (error.code === 'NOT_FOUND') return new CoreError('not_found', error.message || 'Not found');
    // A mutation asked for by GET (or the reverse): no endpoint matches that method and path.
    if ((error.code as string) === 'METHOD_NOT_SUPPORTED')
      return new CoreError('not_found', `No procedure answers this method: ${error.message}`);
    if (error.code === 'BAD_REQUEST') return new CoreError('invalid_parameter', error.message);
    // tRPC's HTTP refusals (the dashboard's endpoint): a request the client must fix, never a 500.
    if (error.code === 'UNSUPPORTED_MEDIA_TYPE')
      return new CoreError('invalid_request', 'Unsupported Content-Type: send application/json');
    if (error.code === 'PAYLOAD_TOO_LARGE')
      return new CoreError('invalid_request', 'The request body is too large');
    if ((error.code as string) === 'METHOD_NOT_SUPPORTED') return new CoreError('not_found', error.message);
    if (isDatabaseUnavailable(error.cause)) return databaseUnavailable();
  }
  // A write refused for lack of space (ENOSPC): a clear 507 for this call, not a crash or a 500.
  if (isStorageFull(error)) return storageFull();
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  return new CoreError('internal_error', INTERNAL_ERROR_MESSAGE);
}

/**
 * The tRPC error kind of each HTTP status the spec gives an error code, so that a tRPC client tells
 * a refusal (FORBIDDEN, NOT_FOUND, ...) from a crash (INTERNAL_SERVER_ERROR) by the JSON-RPC code;
 * the service's own code stays in `data.code`.
 */
const TRPC_KIND_OF_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** The JSON-RPC code (tRPC's numbering) of a service error. */
function jsonRpcCodeOf(error: CoreError): TRPC_ERROR_CODE_NUMBER {
  return TRPC_ERROR_CODES_BY_KEY[TRPC_KIND_OF_STATUS[error.status] ?? 'INTERNAL_SERVER_ERROR'];
}

const t = initTRPC
  .context<Ctx>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const core = toCoreError(error);
      return {
        code: jsonRpcCodeOf(core),
        message: core.message,
        data: {
          code: core.code,
          httpStatus: core.status,
          retryAfterSeconds: core.details.retryAfterSeconds ?? null,
          path: shape.data.path,
          // Issue 32: the signing page says it in the signer's language (errors.ts CoreErrorDetails).
          ...(core.details.messageKey
            ? { messageKey: core.details.messageKey, messageValues: core.details.messageValues ?? {} }
            : {}),
          // Issue 44: a closed signing link's page still shows the request's brand.
          ...(core.details.brand ? { brand: core.details.brand } : {}),
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
  if (issue.message === ID_FORM) return badIdError(name, valueAt(rawInput, issue.path));
  return new CoreError('invalid_parameter', `Invalid value for ${name}: ${issue.message}`);
}

/** An id that is not one, named with the value sent (issue 48: `get_template` with `id: "abc"`). */
function badIdError(name: string, value: unknown): CoreError {
  const shown =
    typeof value === 'string'
      ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
      : typeof value === 'number' || typeof value === 'boolean' || value === null
        ? String(value)
        : Array.isArray(value)
          ? 'an array'
          : 'an object';
  return new CoreError('invalid_parameter', `Invalid value for ${name}: ${shown} is not an id (${ID_FORM})`);
}

/** A positive integer, as text in plain decimal or as a number, however large. */
function isWellFormedId(value: unknown): boolean {
  if (typeof value === 'string') return DECIMAL_ID.test(value);
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** The top-level input keys that are REST path parameters (`/templates/{id}` → `id`). */
function pathParams(meta: Meta | undefined): Set<string> {
  return new Set([...(meta?.openapi?.path ?? '').matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
}

// In a `u` regex a well-formed surrogate pair is one code point, so \p{Cs} matches only lone halves.
const UNSTORABLE = /[\0\p{Cs}]/u;
const bad = (s: string) => UNSTORABLE.test(s);

/**
 * The first string (value or object key) PostgreSQL cannot store: a NUL character, or a lone
 * UTF-16 surrogate (which cannot be encoded as UTF-8). Iterative, so any depth is safe.
 */
export function findUnstorableText(input: unknown): { path: PropertyKey[]; key: boolean } | null {
  // Each entry links to its parent: the path is rebuilt only for the offender (linear at any depth).
  interface Entry {
    value: unknown;
    key: PropertyKey;
    parent: Entry | null;
  }
  const pathOf = (entry: Entry | null): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let e = entry; e?.parent; e = e.parent) path.push(e.key);
    return path.reverse();
  };
  const stack: Entry[] = [{ value: input, key: '', parent: null }];
  while (stack.length) {
    const entry = stack.pop()!;
    const { value } = entry;
    if (typeof value === 'string') {
      if (bad(value)) return { path: pathOf(entry), key: false };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: entry });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (bad(k)) return { path: pathOf(entry), key: true };
        stack.push({ value: v, key: k, parent: entry });
      }
    }
  }
  return null;
}

const validationErrors = t.middleware(async (opts) => {
  const raw = await opts.getRawInput();
  const unstorable = findUnstorableText(raw);
  if (unstorable) {
    const where = formatPath(unstorable.path);
    const what = unstorable.key ? `a key${where ? ` in ${where}` : ''}` : where || 'the input';
    throw new CoreError(
      'invalid_parameter',
      `Invalid value for ${what}: text must not contain NUL characters or unpaired UTF-16 surrogates`,
    );
  }
  const result = await opts.next();
  if (!result.ok) {
    const cause = result.error.cause as { issues?: IssueLike[] } | undefined;
    if (result.error.code === 'BAD_REQUEST' && cause && Array.isArray(cause.issues)) {
      // A path id that is a well-formed positive integer beyond PostgreSQL `integer` names nothing:
      // 404, as an unknown id would be. Anything else (`abc`, `1e3`, `-1`) is 422 invalid_parameter.
      const issue = cause.issues[0];
      const top = issue?.path[0];
      if (
        issue &&
        typeof top === 'string' &&
        pathParams(opts.meta).has(top) &&
        isWellFormedId(valueAt(raw, [top]))
      ) {
        throw new CoreError('not_found', `No resource has ${top} ${String(valueAt(raw, [top]))}`);
      }
      throw issuesToCoreError(cause.issues, raw, opts.meta?.inputErrors);
    }
  }
  return result;
});

/** No actor needed (signing page procedures bring their own token). */
export const publicProcedure = t.procedure.use(validationErrors);

/**
 * Only the dashboard's own pages (sign-in forms, sign-out): the web adapter's `ctx.web`, through
 * which these procedures write the session cookie, is there (typed so), and the request came from
 * our origin (login CSRF). Checked before the input is read, as the actor builders below are.
 */
export const webProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.web) throw new CoreError('not_available', 'Signing in works only in the dashboard');
  if (!isSameOrigin(ctx.config, ctx.web.origin)) {
    throw new CoreError('forbidden', 'This request came from another site and was refused');
  }
  return next({ ctx: { ...ctx, web: ctx.web } });
});

/** Any authenticated actor: API key, OAuth connection or dashboard session. */
export const actorProcedure = publicProcedure.use(({ ctx, meta, next }) => {
  if (!ctx.actor) throw ctx.authFailure ?? new CoreError('unauthenticated', 'Authentication required');
  if (ctx.actor.secondStepRequired && !meta?.duringEnrolment) {
    throw new CoreError(
      'forbidden',
      'Your account requires two-step sign-in: set up an authenticator app on the page you see first',
    );
  }
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/** Changes something: full-access keys, `write` OAuth scope, and users whose role allows it. */
export const writeProcedure = actorProcedure.meta({ writeAccess: true }).use(({ ctx, next }) => {
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

/** Admin-only changes (README, "Dashboard"): API keys, webhooks, members, billing, account settings. */
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

/** One procedure of a router as the adapters see it. */
export interface ProcedureInfo {
  /** The router path, dot-separated: `templates.list`. */
  path: string;
  type: ProcedureType;
  /** Its meta, the builders' (`writeAccess`) merged with its own; `{}` when it has none. */
  meta: Meta;
  /** Its `.input(...)` schema, if it takes input. */
  input: z.ZodType | undefined;
  /** Its `.output(...)` schema, if it declares one. */
  output: z.ZodType | undefined;
}

/**
 * Every procedure of a router, with its meta and schemas: what REST routes, MCP tools and the
 * documents are built from. tRPC has no public accessor for these, so this is the one place that
 * reads its router and procedure definitions (`_def`).
 */
export function procedureMeta(router: AnyRouter): ProcedureInfo[] {
  return Object.entries(router._def.procedures as Record<string, AnyProcedure>).map(([path, procedure]) => {
    const def = procedure._def as AnyProcedure['_def'] & { meta?: Meta; output?: z.ZodType };
    if (def.inputs.length > 1)
      throw new Error(`Procedure ${path} has ${def.inputs.length} input schemas; use one`);
    return {
      path,
      type: def.type,
      meta: def.meta ?? {},
      input: def.inputs[0] as z.ZodType | undefined,
      output: def.output,
    };
  });
}
