import { appRouter, type McpMeta, type Meta } from '@esign/core';
import { z } from 'zod';

export interface McpTool {
  name: string;
  description: string;
  scope: McpMeta['scope'];
  /** A credit purchase tool (hidden from clients whose purchases are hidden). */
  purchase: boolean;
  procedurePath: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
}

function objectSchema(parser: unknown): McpTool['inputSchema'] {
  let json: Record<string, unknown> = { type: 'object', properties: {} };
  if (parser instanceof z.ZodType) {
    json = z.toJSONSchema(parser, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  }
  const { $schema: _ignored, default: _default, ...rest } = json;
  return { ...rest, type: 'object' };
}

/** The tools, built by walking the router for procedures whose meta names one: no second list. */
export function mcpTools(): McpTool[] {
  const tools: McpTool[] = [];
  for (const [procedurePath, procedure] of Object.entries(
    appRouter._def.procedures as unknown as Record<string, unknown>,
  )) {
    const def = (procedure as { _def: { meta?: Meta; inputs?: unknown[] } })._def;
    if (!def.meta?.mcp) continue;
    tools.push({
      name: def.meta.mcp.tool,
      description: def.meta.mcp.description,
      scope: def.meta.mcp.scope,
      purchase: def.meta.mcp.purchase === true,
      procedurePath,
      inputSchema: objectSchema(def.inputs?.[0]),
    });
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}
