import { describe, expect, it } from 'vitest';
import { mcpTools } from '../src/tools.ts';

// Issue 46 item 4: the MCP tools that define fields take the form logic keys, described.

type Schema = { properties?: Record<string, Schema>; items?: Schema; description?: string; anyOf?: Schema[] };

const fieldItem = (tool: string): Schema => {
  const found = mcpTools().find((t) => t.name === tool);
  expect(found, tool).toBeDefined();
  const fields = (found!.inputSchema as Schema).properties!.fields!;
  const list = fields.items ? fields : fields.anyOf!.find((s) => s.items)!;
  return list.items!;
};

describe('issue 46.4: MCP tool schemas carry conditions, formulas and validation', () => {
  it.each(['create_template', 'update_template'])(
    '%s: show_when, required_when, formula, format, validation, each described',
    (tool) => {
      const props = fieldItem(tool).properties!;
      for (const key of ['show_when', 'required_when', 'formula', 'format', 'validation']) {
        expect(props[key], `${tool}.${key}`).toBeDefined();
        expect(props[key]!.description, `${tool}.${key}`).toMatch(/\w{4,}/);
      }
      expect(props.formula!.description).toMatch(
        /round\(x\[, digits\]\), min\(\.\.\.\), max\(\.\.\.\), sum\(\.\.\.\)/,
      );
      expect(JSON.stringify(props.validation)).toContain('iban');
    },
  );
});
