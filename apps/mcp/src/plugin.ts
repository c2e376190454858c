import { join } from 'node:path';
import type { Actor, CallerKind, Config, CoreDeps } from '@esign/core';
import { purchasesOffered } from '@esign/core/endpoints';
import { MCP_PATH, OAUTH_SCOPES, resourceMetadataUrl } from '@esign/core/oauth';
import { UploadedFiles } from '@esign/core/uploads';
import type { Db } from '@esign/db';
import {
  authenticateHttp,
  bodyLimitOfMeta,
  countMoreCalls,
  documentPathsOfMeta,
  fromFastifyError,
  sendError,
  streamJsonUploads,
} from '@esign/http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { callTool, type ToolRunner } from './call-tool.ts';
import { getPrompt, guidesFor, promptList, readResource, resourceList } from './guides.ts';
import { refuseMalformedCalls } from './protocol-errors.ts';
import { protectedResourceMetadata } from './resource-metadata.ts';
import { type McpTool, mcpTools, toolsFor, withoutPurchaseLinks } from './tools.ts';

export { MCP_PATH };

export interface McpOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now?: () => Date;
}

/**
 * Most messages one JSON-RPC batch may carry (docs/mcp.md, issue 29 item 2): a larger batch is
 * refused with -32600 and runs nothing; each request of a smaller one counts against the rate limit.
 */
export const MCP_MAX_BATCH = 10;

/** Why a JSON-RPC batch is refused as a whole (empty, or over MCP_MAX_BATCH), or null. */
function batchRefusal(body: unknown): string | null {
  if (!Array.isArray(body)) return null;
  if (body.length === 0) return 'Invalid Request: empty batch';
  if (body.length > MCP_MAX_BATCH)
    return `Invalid Request: a batch of ${body.length} messages is too large (at most ${MCP_MAX_BATCH})`;
  return null;
}

/** Authentication rule 8: OAuth access tokens (the recommended way) and API keys. */
const MCP_CALLERS: readonly CallerKind[] = ['oauth', 'api_key'];

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply
    .code(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/**
 * The per-route rules of the MCP endpoint, read from its tools' procedure meta (`request`; issue 43:
 * no list here): where a tool call carries documents in base64 (create_template's
 * `documents[].file`, verify_document's `file`), in one message or in a batch, each decoded to a
 * file of the request as it arrives, as on POST /templates (streamJsonUploads); and the body limit,
 * the largest of the tools' (a call carries what its procedure's REST route carries).
 */
export function mcpRouteRules(tools: readonly McpTool[]) {
  const metas = tools.map((t) => ({ request: t.request }));
  const message = documentPathsOfMeta(metas, ['params', 'arguments']);
  return {
    documentPaths: message.flatMap((path) => [path, ['*', ...path]]),
    bodyLimit: Math.max(...metas.map((m) => bodyLimitOfMeta(m).bytes)),
  };
}

const isRequest = (m: unknown) =>
  !!m &&
  typeof m === 'object' &&
  'id' in (m as object) &&
  (m as { id: unknown }).id !== undefined &&
  (m as { id: unknown }).id !== null;

/** The tool list entry: name, description, schemas and annotations. */
function listed(tool: McpTool, offered: boolean) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: (offered
      ? tool.outputSchema
      : withoutPurchaseLinks(tool.outputSchema)) as McpTool['outputSchema'],
    annotations: tool.annotations,
  };
}

/** The usage guides (docs/mcp.md, Guides) as prompts and as resources. */
function serveGuides(server: Server, offered: boolean) {
  const guides = guidesFor(offered);
  server.setRequestHandler(ListPromptsRequestSchema, async () => promptList(guides));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => getPrompt(guides, req.params.name));
  server.setRequestHandler(ListResourcesRequestSchema, async () => resourceList(guides));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => readResource(guides, req.params.uri));
}

/** One MCP server for one request (stateless): the caller's tools, each call run as the caller. */
function serverFor(
  runner: ToolRunner,
  tools: McpTool[],
  request: FastifyRequest,
  actor: Actor,
  offered: boolean,
) {
  const server = new Server(
    { name: 'esign', version: '1.0.0' },
    { capabilities: { tools: {}, prompts: {}, resources: {} } },
  );
  serveGuides(server, offered);
  const visible = toolsFor(tools, actor, offered);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: visible.map((t) => listed(t, offered)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) =>
    callTool(runner, request, {
      actor,
      tool: tools.find((t) => t.name === req.params.name),
      name: req.params.name,
      args: req.params.arguments,
      purchasesOffered: offered,
    }),
  );
  return server;
}

/** Hands the request to the SDK's Streamable HTTP transport (JSON responses, no session). */
async function answer(server: Server, request: FastifyRequest, reply: FastifyReply, body: unknown) {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  reply.hijack();
  for (const [k, v] of Object.entries(reply.getHeaders()))
    if (v !== undefined) reply.raw.setHeader(k, v as string);
  reply.raw.on('close', () => {
    // Closing a per-request server and transport only drops in-memory state; a failure is logged.
    transport.close().catch((err) => request.log.warn({ err }, 'MCP transport close failed'));
    server.close().catch((err) => request.log.warn({ err }, 'MCP server close failed'));
  });
  await server.connect(transport);
  refuseMalformedCalls(transport, (err) => request.log.warn({ err }, 'MCP answer not sent'));
  await transport.handleRequest(request.raw, reply.raw, body);
}

/**
 * The 401's challenge: where the resource's metadata is and, as MCP 2025-11-25 asks, the scopes to
 * ask for (every tool needs `read`, changes need `write`; the consent screen still lets the user
 * grant view-only access); a token that was sent and refused is `invalid_token`.
 */
function bearerChallenge(resourceMetadata: string, tokenSent: boolean): string {
  const invalid = tokenSent ? ', error="invalid_token"' : '';
  return `Bearer resource_metadata="${resourceMetadata}", scope="${OAUTH_SCOPES.join(' ')}"${invalid}`;
}

/** A large body's documents, decoded to DATA_DIR/uploads as it arrives; removed once answered. */
function documentUploads(app: FastifyInstance, opts: McpOptions, documentPaths: string[][]) {
  const uploadDir = join(opts.config.DATA_DIR, 'uploads');
  const uploadsOf = new WeakMap<FastifyRequest, UploadedFiles>();
  streamJsonUploads(app, {
    documentPaths,
    uploadsFor: (request) => {
      const uploads = new UploadedFiles(uploadDir);
      uploadsOf.set(request, uploads);
      return uploads;
    },
  });
  const removeUploads = async (request: FastifyRequest) => {
    await uploadsOf.get(request)?.remove();
  };
  app.addHook('onResponse', removeUploads);
  app.addHook('onRequestAbort', removeUploads);
  return { uploadsOf, removeUploads };
}

/** The MCP adapter: stateless Streamable HTTP, a fresh server per request, tools mapped onto procedures. */
export async function mcpEndpoint(app: FastifyInstance, opts: McpOptions): Promise<void> {
  const tools = mcpTools();
  const rules = mcpRouteRules(tools);
  const runner: ToolRunner = { ...opts, now: opts.now ?? (() => new Date()) };
  const resourceMetadata = resourceMetadataUrl(opts.config.PUBLIC_URL);

  const notAllowed = async (_req: unknown, reply: FastifyReply) => {
    reply.header('Allow', 'POST');
    return jsonRpcError(reply, 405, -32000, 'Method not allowed: the MCP endpoint answers POST only');
  };
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
  protectedResourceMetadata(app, opts.config);
  // A body that is not JSON is JSON-RPC's parse error (-32700), not the REST API's invalid_json.
  app.setErrorHandler((err, request, reply) => {
    const core = fromFastifyError(err as { code?: string; statusCode?: number; message: string });
    if (core.code === 'invalid_json') return jsonRpcError(reply, 400, -32700, `Parse error: ${core.message}`);
    if (core.code === 'internal_error') request.log.error({ err }, 'unhandled error');
    return sendError(reply, core);
  });

  const limits = { db: opts.db, now: runner.now, perMinute: opts.config.RATE_LIMIT_PER_MINUTE };
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await authenticateHttp(request, reply, {
      ...limits,
      publicUrl: opts.config.PUBLIC_URL,
      allow: MCP_CALLERS,
    });
    if (!auth.error) return;
    if (auth.error.status === 401)
      reply.header(
        'WWW-Authenticate',
        bearerChallenge(resourceMetadata, Boolean(request.headers.authorization)),
      );
    return sendError(reply, auth.error);
  };

  const { uploadsOf, removeUploads } = documentUploads(app, opts, rules.documentPaths);

  // Authenticated before the body is read: an anonymous client cannot make us buffer documents.
  // Tool calls carry the same documents as POST /templates (create_template, verify_document).
  app.post(MCP_PATH, { onRequest: authenticate, bodyLimit: rules.bodyLimit }, async (request, reply) => {
    const actor = request.actor!;
    const body = request.body;
    const refused = batchRefusal(body);
    if (refused) return jsonRpcError(reply, 400, -32600, refused);
    const messages = Array.isArray(body) ? body : [body];
    // Notifications are not executed; a request made only of them gets 202 and no body.
    const requests = messages.filter(isRequest);
    if (requests.length === 0) return reply.code(202).send();
    // The request was counted once when authenticated; each further request of a batch counts too.
    const limited = await countMoreCalls(request, reply, limits, requests.length - 1);
    if (limited) return sendError(reply, limited);
    // The spec's assistant product without purchases: no purchase tools, no purchase links.
    const offered = await purchasesOffered(opts.db, actor, 'mcp');
    // The tools read this request's uploaded documents by their references.
    const uploads = uploadsOf.get(request);
    const deps = uploads ? { ...runner.deps, uploads: uploads.files } : runner.deps;
    const server = serverFor({ ...runner, deps }, tools, request, actor, offered);
    try {
      await answer(server, request, reply, Array.isArray(body) ? requests : requests[0]);
    } finally {
      // A hijacked reply: removed here once the answer is written.
      await removeUploads(request);
    }
  });
}
