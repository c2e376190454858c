import { b64, signatureField } from '@esign/testing/pdfs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGibBombPdf } from '../../../packages/pdf/test/bombs.ts';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';
import { resultData } from './results.ts';

// Issue 29, item 4, through MCP: create_template ingests like POST /templates, with the same bounds.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('issue 29 item 4: decompression bombs through MCP', () => {
  it('create_template with a ~1 MB PDF whose page stream inflates to 1 GiB fails with isError invalid_document (as REST: 422)', {
    timeout: 60_000,
  }, async () => {
    const owner = await createTestAccount(t.db);
    const client = new Client({ name: 'bomb-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${owner.key}` } },
      }),
    );
    try {
      const answer = await client.callTool({
        name: 'create_template',
        arguments: { name: 'bomb', documents: [{ file: b64(makeGibBombPdf()) }], fields: [signatureField()] },
      });
      expect(answer.isError).toBe(true);
      expect(resultData(answer).error).toMatchObject({
        code: 'invalid_document',
        message: expect.stringMatching(/decompresses to more than 128 MB/),
      });
    } finally {
      await client.close();
    }
  });
});
