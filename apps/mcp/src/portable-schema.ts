/**
 * Tool schemas in the most portable JSON Schema spelling (what the MCP Inspector's `--strict` check
 * asks for), with the same meaning: a nullable `type: ['string', 'null']` becomes
 * `anyOf: [{ type: 'string', ... }, { type: 'null' }]`, and an `additionalProperties: {}` (any
 * value, from a record of unknowns) says so with `true`.
 */
export function portableSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(portableSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === 'additionalProperties' && isEmptySchema(value)) out[key] = true;
    else if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, portableSchema(v)]));
    } else out[key] = portableSchema(value);
  }
  return splitTypeList(out);
}

const isEmptySchema = (value: unknown) =>
  !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;

/** Keywords that describe the value as a whole and stay beside the `anyOf`. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated']);

function splitTypeList(schema: Record<string, unknown>): Record<string, unknown> {
  const types = schema.type;
  if (!Array.isArray(types) || types.length < 2) return schema;
  const outer: Record<string, unknown> = {};
  const inner: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) ? outer : inner)[key] = value;
  }
  // Keywords of one type (maxLength, format, items, enum ...) go with the branch they constrain;
  // `null` takes none.
  const branches = types.map((type) => (type === 'null' ? { type } : { type, ...inner }));
  return { ...outer, anyOf: branches };
}
