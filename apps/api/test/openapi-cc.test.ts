import { parseConfig } from '@esign/core';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.ts';

// Issue 34: the OpenAPI document describes the `cc` and `notify` extensions from the zod schemas.

const doc = buildOpenApiDocument(parseConfig({ PUBLIC_URL: 'https://sign.example.com' }));
const resolve = (schema: any) =>
  schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;

describe('OpenAPI document: issue 34 extensions', () => {
  it('issue 34.1/34.4: POST /signature_requests and POST /bulk_sends take cc and notify (email lists, at most 10, described)', () => {
    for (const path of ['/signature_requests', '/bulk_sends']) {
      const body = resolve(doc.paths[path].post.requestBody.content['application/json'].schema);
      expect(body.properties.cc.maxItems, path).toBe(10);
      expect(body.properties.cc.items.format, path).toBe('email');
      expect(body.properties.cc.description, path).toMatch(/read-only link/);
      expect(body.properties.notify.description, path).toMatch(
        /completes, is declined, expires or is canceled/,
      );
      expect(body.required ?? [], path).not.toContain('cc');
    }
  });

  it('issue 34.1: the Signature request object shows cc and notify', () => {
    const out = resolve(
      doc.paths['/signature_requests/{id}'].get.responses['200'].content['application/json'].schema,
    );
    expect(out.properties.cc.type).toBe('array');
    expect(out.properties.notify.type).toBe('array');
  });
});
