import {
  type CallerKind,
  type Config,
  type CoreDeps,
  CoreError,
  createCaller,
  createContext,
  omitPurchaseLinks,
  purchasesOffered,
  toCoreError,
} from '@esign/core';
import type { Db } from '@esign/db';
import { authenticateHttp, sendError, TEMPLATE_UPLOAD_LIMIT } from '@esign/http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** Authentication rule 8: API keys today; OAuth access tokens join here. */
const MCP_CALLERS: readonly CallerKind[] = ['api_key'];

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

  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await authenticateHttp(request, reply, {
      db: opts.db,
      now,
      perMinute: opts.config.RATE_LIMIT_PER_MINUTE,
      publicUrl: opts.config.PUBLIC_URL,
      allow: MCP_CALLERS,
    });
    if (!auth.error) return;
    if (auth.error.status === 401)
      reply.header('WWW-Authenticate', `Bearer resource_metadata="${resourceMetadata}"`);
    return sendError(reply, auth.error);
  };

  // Authenticated before the body is read: an anonymous client cannot make us buffer documents.
  // Tool calls carry the same documents as POST /templates (create_template, verify_document).
  app.post(
    MCP_PATH,
    { onRequest: authenticate, bodyLimit: TEMPLATE_UPLOAD_LIMIT },
    async (request, reply) => {
      const actor = request.actor!;
      const body = request.body;
      if (Array.isArray(body) && body.length === 0)
        return jsonRpcError(reply, 400, -32600, 'Invalid Request: empty batch');
      const messages = Array.isArray(body) ? body : [body];
      // Notifications are not executed; a request made only of them gets 202 and no body.
      const requests = messages.filter(isRequest);
      if (requests.length === 0) return reply.code(202).send();
      const parsedBody = Array.isArray(body) ? requests : requests[0];

      // The spec's assistant product without purchases: no purchase tools, no purchase links.
      const offered = await purchasesOffered(opts.db, actor, 'mcp');
      const visible = tools.filter((t) => (t.scope === 'read' || actor.canWrite) && (offered || !t.purchase));
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
          const output = await caller[ns]![fn]!(req.params.arguments ?? {});
          const result = offered ? output : omitPurchaseLinks(output);
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
    },
  );
}
