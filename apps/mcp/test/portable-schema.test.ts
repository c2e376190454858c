import { describe, expect, it } from 'vitest';
import { portableSchema } from '../src/portable-schema.ts';

describe('portableSchema (MCP Inspector --strict portability)', () => {
  it('a nullable type list becomes anyOf branches of one type each; the constraints go with their type', () => {
    expect(
      portableSchema({ description: 'd', type: ['string', 'null'], maxLength: 5, format: 'email' }),
    ).toEqual({
      description: 'd',
      anyOf: [{ type: 'string', maxLength: 5, format: 'email' }, { type: 'null' }],
    });
  });

  it('at any depth, and property names are never mistaken for keywords', () => {
    const out = portableSchema({
      type: 'object',
      properties: {
        type: { type: ['integer', 'null'] },
        list: { type: 'array', items: { type: ['string', 'null'] } },
      },
      required: ['type'],
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        type: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        list: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      },
      required: ['type'],
    });
  });

  it('additionalProperties {} (any value) is spelled true; a typed one is kept', () => {
    expect(portableSchema({ type: 'object', additionalProperties: {} })).toEqual({
      type: 'object',
      additionalProperties: true,
    });
    expect(portableSchema({ type: 'object', additionalProperties: { type: 'string' } })).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
  });
});

/** Every subschema of a tool schema, with its path. */
function* walk(schema: unknown, path: string): Generator<[string, Record<string, unknown>]> {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) yield* walk(s, `${path}[${i}]`);
    return;
  }
  const node = schema as Record<string, unknown>;
  yield [path, node];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, s] of Object.entries(value)) yield* walk(s, `${path}.properties.${name}`);
    } else if (typeof value === 'object') yield* walk(value, `${path}.${key}`);
  }
}

describe('the tool list passes what `inspector --cli --method tools/list --strict` checked (docs/mcp.md)', () => {
  it('no schema of any tool spells a type list or accepts anything by an empty schema; every tool has an output schema and annotations', async () => {
    const { mcpTools } = await import('../src/tools.ts');
    const problems: string[] = [];
    for (const tool of mcpTools()) {
      expect(tool.outputSchema.type, tool.name).toBe('object');
      expect(typeof tool.annotations.readOnlyHint, tool.name).toBe('boolean');
      for (const [path, node] of [...walk(tool.inputSchema, 'input'), ...walk(tool.outputSchema, 'output')]) {
        if (Array.isArray(node.type)) problems.push(`${tool.name} ${path}: type list`);
        if (path.endsWith('.additionalProperties') && Object.keys(node).length === 0)
          problems.push(`${tool.name} ${path}: empty schema`);
      }
    }
    expect(problems).toEqual([]);
  });
});
