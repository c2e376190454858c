import { sendError, setRateLimitHeaders } from '@esign/api';
import {
  type Actor,
  authenticateApiKey,
  type Config,
  type CoreDeps,
  CoreError,
  createCaller,
  createContext,
  limitActor,
  toCoreError,
} from '@esign/core';
import type { Db } from '@esign/db';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { type McpTool, mcpTools } from './tools.ts';

export interface McpOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now?: () => Date;
}

export const MCP_PATH = '/mcp';

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply
    .code(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

function errorResult(error: CoreError): CallToolResult {
  const payload = { error: { code: error.code, message: error.message } };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(payload) }],
    structuredContent: payload,
  };
}

const isRequest = (m: unknown) =>
  !!m &&
  typeof m === 'object' &&
  'id' in (m as object) &&
  (m as { id: unknown }).id !== undefined &&
  (m as { id: unknown }).id !== null;

/** The MCP adapter: stateless Streamable HTTP, a fresh server per request, tools mapped onto procedures. */
export async function mcpEndpoint(app: FastifyInstance, opts: McpOptions): Promise<void> {
  const tools = mcpTools();
  const now = opts.now ?? (() => new Date());
  const resourceMetadata = `${opts.config.PUBLIC_URL}/.well-known/oauth-protected-resource${MCP_PATH}`;

  const notAllowed = async (_req: unknown, reply: FastifyReply) => {
    reply.header('Allow', 'POST');
    return jsonRpcError(reply, 405, -32000, 'Method not allowed: the MCP endpoint answers POST only');
  };
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);

  app.post(MCP_PATH, async (request, reply) => {
    let actor: Actor;
    try {
      actor = await authenticateApiKey(opts.db, request.headers.authorization, now());
    } catch (err) {
      const core = toCoreError(err);
      // A failure of ours (the database went away) is a 500, not a reason to sign in again.
      if (core.code === 'internal_error') request.log.error({ err }, 'MCP authentication failed');
      if (core.status === 401)
        reply.header('WWW-Authenticate', `Bearer resource_metadata="${resourceMetadata}"`);
      return reply.code(core.status).send({ error: { code: core.code, message: core.message } });
    }
    const limit = await limitActor(opts.db, actor, opts.config.RATE_LIMIT_PER_MINUTE, now());
    setRateLimitHeaders(reply, limit);
    if (limit.error) return sendError(reply, limit.error);

    const body = request.body;
    if (Array.isArray(body) && body.length === 0)
      return jsonRpcError(reply, 400, -32600, 'Invalid Request: empty batch');
    const messages = Array.isArray(body) ? body : [body];
    // Notifications are not executed; a request made only of them gets 202 and no body.
    const requests = messages.filter(isRequest);
    if (requests.length === 0) return reply.code(202).send();
    const parsedBody = Array.isArray(body) ? requests : requests[0];

    const visible = tools.filter((t) => t.scope === 'read' || actor.canWrite);
    const server = new Server({ name: 'esign', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: visible.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      const tool: McpTool | undefined = tools.find((t) => t.name === req.params.name);
      if (!tool) return errorResult(new CoreError('not_found', `Unknown tool ${req.params.name}`));
      const ctx = createContext({
        db: opts.db,
        logger: opts.logger,
        config: opts.config,
        deps: opts.deps,
        actor,
        source: 'mcp',
        requestId: String(request.id),
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        now,
      });
      try {
        const caller = createCaller(ctx) as unknown as Record<
          string,
          Record<string, (input: unknown) => Promise<unknown>>
        >;
        const [ns, fn] = tool.procedurePath.split('.') as [string, string];
        const result = await caller[ns]![fn]!(req.params.arguments ?? {});
        return {
          content: [{ type: 'text', text: JSON.stringify(result) }],
          structuredContent: result as Record<string, unknown>,
        } satisfies CallToolResult;
      } catch (err) {
        const core = toCoreError(err);
        if (core.code === 'internal_error') ctx.logger.error({ err }, `MCP tool ${tool.name} failed`);
        return errorResult(core);
      }
    });

    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    for (const [k, v] of Object.entries(reply.getHeaders()))
      if (v !== undefined) reply.raw.setHeader(k, v as string);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, parsedBody);
  });
}
