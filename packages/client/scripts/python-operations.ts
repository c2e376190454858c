import { buildOpenApiDocument } from '@esign/api';

/** The Python client's operation table (clients/python/esign_client/_operations.py). */
export const PYTHON_OPERATIONS_FILE = new URL(
  '../../../clients/python/esign_client/_operations.py',
  import.meta.url,
);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Every operation of the OpenAPI document as `operationId: (METHOD, path)`, with its summary, for
 * `EsignClient.call` (the Python client needs no code generator: the table is the generated part).
 */
export function generatePythonOperations(): string {
  const doc = buildOpenApiDocument('https://esign.example.com') as {
    paths: Record<
      string,
      Partial<Record<(typeof METHODS)[number], { operationId?: string; summary?: string }>>
    >;
  };
  const lines: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const summary = op.summary ? `  # ${op.summary.replace(/\s+/g, ' ')}` : '';
      lines.push(
        `    ${JSON.stringify(op.operationId)}: (${JSON.stringify(method.toUpperCase())}, ${JSON.stringify(path)}),${summary}`,
      );
    }
  }
  lines.sort();
  return `# Generated from the OpenAPI document of apps/api (buildOpenApiDocument) by
# packages/client/scripts/python-operations.ts. Do not edit: run \`pnpm --filter @esign/client generate\`.
# packages/client/test/generated.test.ts fails when this file differs from what the document generates.

OPERATIONS = {
${lines.join('\n')}
}
`;
}
