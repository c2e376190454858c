import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generatePythonOperations, PYTHON_OPERATIONS_FILE } from '../scripts/python-operations.ts';
import { GENERATED_FILE, generateTypes } from '../scripts/types.ts';

// Issue 48 item 1: "a change of the API that is not regenerated fails the tests".
it('src/openapi.ts is exactly what openapi-typescript generates from the current OpenAPI document (run `pnpm --filter @esign/client generate`)', async () => {
  const committed = readFileSync(GENERATED_FILE, 'utf8');
  const current = await generateTypes();
  expect(
    committed === current,
    'packages/client/src/openapi.ts is stale: run `pnpm --filter @esign/client generate`',
  ).toBe(true);
});

it('the generated types cover every path and webhook of the document', async () => {
  const { buildOpenApiDocument } = await import('@esign/api');
  const doc = buildOpenApiDocument('https://esign.example.com') as { paths: object; webhooks: object };
  const generated = readFileSync(GENERATED_FILE, 'utf8');
  for (const path of Object.keys(doc.paths)) expect(generated).toContain(`    "${path}": {`);
  for (const event of Object.keys(doc.webhooks)) expect(generated).toContain(`    "${event}": {`);
});

it("the Python client's operation table is what the current OpenAPI document generates (issue 48 item 2)", () => {
  const committed = readFileSync(PYTHON_OPERATIONS_FILE, 'utf8');
  expect(
    committed === generatePythonOperations(),
    'clients/python/esign_client/_operations.py is stale: run `pnpm --filter @esign/client generate`',
  ).toBe(true);
  expect(committed).toContain('"templates-get": ("GET", "/templates/{id}"),');
});
