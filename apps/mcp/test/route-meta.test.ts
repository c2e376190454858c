import type { Meta } from '@esign/core';
import { BODY_LIMITS } from '@esign/http';
import { describe, expect, it } from 'vitest';
import { mcpRouteRules } from '../src/plugin.ts';
import { type McpTool, mcpTools } from '../src/tools.ts';

// Issue 43 item 2: the MCP adapter reads where tool calls carry documents, and its body limit,
// from the tools' procedure meta (`request`); it keeps no list of paths.

const tool = (request: NonNullable<Meta['request']>) => ({ request }) as McpTool;

describe('MCP document paths and body limit come from procedure meta (issue 43: one home per rule)', () => {
  it('a new tool gets its document paths and its limit from its meta only', () => {
    const rules = mcpRouteRules([tool({}), tool({ body: 'bulk_file', documents: [['scan', '*', 'page']] })]);
    expect(rules.documentPaths).toEqual([
      ['params', 'arguments', 'scan', '*', 'page'],
      ['*', 'params', 'arguments', 'scan', '*', 'page'],
    ]);
    expect(rules.bodyLimit).toBe(BODY_LIMITS.bulk_file.bytes);
    expect(mcpRouteRules([tool({})]).documentPaths).toEqual([]);
  });

  it("the tools keep the paths the adapter listed before: create_template's documents[].file and verify_document's file", () => {
    const rules = mcpRouteRules(mcpTools());
    expect(rules.documentPaths).toEqual(
      expect.arrayContaining([
        ['params', 'arguments', 'documents', '*', 'file'],
        ['*', 'params', 'arguments', 'documents', '*', 'file'],
        ['params', 'arguments', 'file'],
        ['*', 'params', 'arguments', 'file'],
      ]),
    );
    expect(rules.documentPaths).toHaveLength(4);
    expect(rules.bodyLimit).toBe(BODY_LIMITS.template_upload.bytes);
  });
});
