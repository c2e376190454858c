import { parseConfig } from '@esign/core';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.ts';

// Issue 44: the OpenAPI document describes the brands and the `brand_id` choice.

const doc = buildOpenApiDocument(parseConfig({ PUBLIC_URL: 'https://sign.example.com' }));
const resolve = (schema: any) =>
  schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;

describe('OpenAPI document: issue 44 brands', () => {
  it('issue 44.1: /api/v1/brands lists and creates, /brands/{id} reads, changes and deletes', () => {
    expect(Object.keys(doc.paths['/brands'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/brands/{id}'])).toEqual(
      expect.arrayContaining(['get', 'patch', 'delete']),
    );
    const created = doc.paths['/brands'].post.responses;
    expect(Object.keys(created)).toEqual(expect.arrayContaining(['201', '403', '422']));
    const body = resolve(doc.paths['/brands'].post.requestBody.content['application/json'].schema);
    expect(body.required).toEqual(['name']);
    expect(body.properties.logo.description).toMatch(/rasterised to PNG/);
    expect(body.properties.primary_color.description).toMatch(/4\.5:1/);
  });

  it('issue 44.1: templates and signature requests take brand_id and show it', () => {
    for (const [path, method] of [
      ['/signature_requests', 'post'],
      ['/templates', 'post'],
      ['/templates/{id}', 'patch'],
    ] as const) {
      const body = resolve(doc.paths[path][method].requestBody.content['application/json'].schema);
      expect(body.properties.brand_id.description, path).toMatch(/brand/);
    }
    const out = resolve(
      doc.paths['/signature_requests/{id}'].get.responses['200'].content['application/json'].schema,
    );
    expect(out.properties.brand_id).toBeDefined();
  });
});
