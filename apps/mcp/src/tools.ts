import { type Actor, appRouter, type McpMeta, procedureMeta, type RequestMeta } from '@esign/core';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { portableSchema } from './portable-schema.ts';

type ObjectSchema = Record<string, unknown> & { type: 'object' };

export interface McpTool {
  name: string;
  title: string;
  description: string;
  scope: McpMeta['scope'];
  /** A credit purchase tool (hidden from clients whose purchases are hidden). */
  purchase: boolean;
  procedurePath: string;
  /** The procedure's request rules (its meta's `request`: body limit, where documents are). */
  request: RequestMeta;
  inputSchema: ObjectSchema;
  /** The JSON Schema of the tool's structured result (the REST response object). */
  outputSchema: ObjectSchema;
  annotations: ToolAnnotations;
}

function jsonSchema(parser: unknown, io: 'input' | 'output'): ObjectSchema {
  let json: Record<string, unknown> = { type: 'object', properties: {} };
  if (parser instanceof z.ZodType) {
    json = z.toJSONSchema(parser, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  }
  const { $schema: _ignored, default: _default, ...rest } = json;
  return { ...(portableSchema(rest) as Record<string, unknown>), type: 'object' };
}

/** The input schema with the arguments meta names as required (`documents`, `signers`) listed so. */
function inputSchemaOf(parser: unknown, mcp: McpMeta): ObjectSchema {
  const schema = jsonSchema(parser, 'input');
  if (!mcp.required?.length) return schema;
  const required = new Set([...((schema.required as string[] | undefined) ?? []), ...mcp.required]);
  return { ...schema, required: [...required] };
}

function annotationsOf(mcp: McpMeta): ToolAnnotations {
  const readOnly = mcp.hints?.readOnly ?? mcp.scope === 'read';
  return {
    title: mcp.title,
    readOnlyHint: readOnly,
    ...(readOnly ? {} : { destructiveHint: mcp.hints?.destructive ?? false }),
    idempotentHint: mcp.hints?.idempotent ?? readOnly,
    openWorldHint: mcp.hints?.openWorld ?? false,
  };
}

/** The tools, built by walking the router for procedures whose meta names one: no second list. */
export function mcpTools(): McpTool[] {
  const tools: McpTool[] = [];
  for (const { path: procedurePath, meta, input, output } of procedureMeta(appRouter)) {
    const mcp = meta.mcp;
    if (!mcp) continue;
    tools.push({
      name: mcp.tool,
      title: mcp.title,
      description: mcp.description,
      scope: mcp.scope,
      purchase: mcp.purchase === true,
      procedurePath,
      request: meta.request ?? {},
      inputSchema: inputSchemaOf(input, mcp),
      outputSchema: jsonSchema(output, 'output'),
      annotations: annotationsOf(mcp),
    });
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The tools a caller is offered (spec, MCP endpoint: "a read-only key or a view-only connection
 * lists only the tools it can use"): write tools need a full-access key or the `write` scope and a
 * role that may change things (a viewer gets read tools only); purchase tools only where purchases
 * are offered.
 */
export function toolsFor(tools: readonly McpTool[], actor: Actor, purchasesOffered: boolean): McpTool[] {
  const mayWrite = actor.canWrite && actor.userRole !== 'viewer';
  return tools.filter((t) => (t.scope === 'read' || mayWrite) && (purchasesOffered || !t.purchase));
}

const PURCHASE_LINKS = new Set(['purchase_url', 'checkout_url']);

/** An output schema without `purchase_url` / `checkout_url` (results for clients not offered purchases). */
export function withoutPurchaseLinks(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutPurchaseLinks);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([name]) => !PURCHASE_LINKS.has(name))
          .map(([name, v]) => [name, withoutPurchaseLinks(v)]),
      );
    } else if (key === 'required' && Array.isArray(value)) {
      out[key] = value.filter((name) => !PURCHASE_LINKS.has(name as string));
    } else {
      out[key] = withoutPurchaseLinks(value);
    }
  }
  return out;
}
