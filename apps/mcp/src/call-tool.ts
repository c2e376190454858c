import {
  type Actor,
  type Config,
  type CoreDeps,
  type CoreError,
  callProcedure,
  createContext,
  toCoreError,
} from '@esign/core';
import { omitPurchaseLinks } from '@esign/core/endpoints';
import type { Db } from '@esign/db';
import { type CallToolResult, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ProtocolError } from './protocol-errors.ts';
import type { McpTool } from './tools.ts';

export interface ToolRunner {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now: () => Date;
}

/**
 * A failed call (spec, MCP endpoint): a normal result with `isError`, the API error's code and
 * message as JSON text. No `structuredContent`: that is the tool's result shape (its output schema).
 */
function errorResult(error: CoreError): CallToolResult {
  const payload = { error: { code: error.code, message: error.message } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(payload) }] };
}

/** Runs a tool's procedure as the caller, with the same rules, credits and errors as REST. */
export async function callTool(
  runner: ToolRunner,
  request: FastifyRequest,
  call: { actor: Actor; tool: McpTool | undefined; name: string; args: unknown; purchasesOffered: boolean },
): Promise<CallToolResult> {
  const { tool } = call;
  // A name that is no tool is a protocol error (MCP: "Unknown tool" is -32602, invalid params), not
  // a tool result: the client asked for something the server never listed.
  if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${call.name}`);
  const ctx = createContext({
    ...runner,
    actor: call.actor,
    source: 'mcp',
    requestId: String(request.id),
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  });
  try {
    const output = await callProcedure(ctx, tool.procedurePath, call.args ?? {});
    const result = call.purchasesOffered ? output : omitPurchaseLinks(output);
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result as Record<string, unknown>,
    };
  } catch (err) {
    const core = toCoreError(err);
    if (core.code === 'internal_error') ctx.logger.error({ err }, `MCP tool ${tool.name} failed`);
    return errorResult(core);
  }
}
