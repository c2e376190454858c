import http from 'node:http';
import { JSON_LIMIT, TEMPLATE_UPLOAD_LIMIT, VERIFY_UPLOAD_LIMIT } from '@esign/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { TRPC_BODY_LIMIT } from '../../web/src/trpc/routes.ts';

// Oversized bodies are refused from Content-Length before anything is buffered, and while
// streaming when no length is declared: six concurrent 335 MB bodies must not cost 335 MB each.
let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '10000' });
  owner = await createTestAccount(t.db);
});
afterAll(() => t.close());

interface Answer {
  status: number;
  body: any;
  /** Body bytes the client had written when the answer came. */
  sent: number;
}

function answerOf(res: http.IncomingMessage, sent: () => number): Promise<Answer> {
  return new Promise((resolve) => {
    let text = '';
    res.on('data', (d) => (text += d));
    res.on('end', () =>
      resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, sent: sent() }),
    );
  });
}

/** Announces `length` bytes, sends none of them, and waits (5 s at most) for the server's answer. */
function declareOnly(path: string, length: number, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(length), ...headers },
    });
    const timer = setTimeout(() => req.destroy(new Error('no answer before the body was sent')), 5000);
    req.on('response', (res) =>
      answerOf(res, () => 0).then((a) => {
        clearTimeout(timer);
        req.destroy();
        resolve(a);
      }),
    );
    req.on('error', reject);
    req.flushHeaders();
  });
}

/** Streams a chunked JSON body (no Content-Length) until the server answers, `max` bytes at most. */
function streamUntilAnswered(path: string, max: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(256 * 1024, 'a');
    const req = http.request(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.key}` },
    });
    req.on('response', (res) => {
      answered = true;
      answerOf(res, () => sent).then(resolve, reject);
    });
    // The server closes the connection after refusing: a write error then is expected.
    req.on('error', (err) => setTimeout(() => !answered && reject(err), 1000));
    const pump = () => {
      while (!answered && sent < max) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end('"}');
    };
    req.write('{"name":"');
    pump();
  });
}

describe('Limits: a declared Content-Length over the limit is refused before the body is read', () => {
  const auth = () => ({ authorization: `Bearer ${owner.key}` });

  it('a JSON endpoint (1 MB): 422 invalid_request, even for a declared 335 MB', async () => {
    for (const length of [JSON_LIMIT + 1, 335 * 1024 * 1024]) {
      const res = await declareOnly('/api/v1/signature_requests', length, auth());
      expect([res.status, res.body.error.code]).toEqual([422, 'invalid_request']);
    }
  });

  it('POST /templates over ten 25 MB documents: 422 invalid_request', async () => {
    const res = await declareOnly('/api/v1/templates', TEMPLATE_UPLOAD_LIMIT + 1, auth());
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_request']);
  });

  it('POST /documents/verify over one 25 MB document: 422 document_too_large', async () => {
    const res = await declareOnly('/api/v1/documents/verify', VERIFY_UPLOAD_LIMIT + 1, auth());
    expect([res.status, res.body.error.code]).toEqual([422, 'document_too_large']);
  });

  it('MCP over the document limit: 422 invalid_request; without a key: 401 before the body', async () => {
    const mcp = await declareOnly('/mcp', TEMPLATE_UPLOAD_LIMIT + 1, auth());
    expect([mcp.status, mcp.body.error.code]).toEqual([422, 'invalid_request']);
    const anonymous = await declareOnly('/mcp', 10 * 1024 * 1024);
    expect(anonymous.status).toBe(401);
  });

  it('/trpc over its limit (one 25 MB document as base64): 422 invalid_request', async () => {
    const res = await declareOnly('/trpc/signing.complete', TRPC_BODY_LIMIT + 1);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_request']);
  });
});

describe('Limits: a body without Content-Length is refused once it passes the limit', () => {
  it('six concurrent 335 MB chunked bodies are each refused after about 1 MB; memory does not balloon', async () => {
    const max = 335 * 1024 * 1024;
    const before = process.memoryUsage().rss;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => streamUntilAnswered('/api/v1/signature_requests', max)),
    );
    const grown = process.memoryUsage().rss - before;
    for (const a of answers) {
      expect([a.status, a.body.error.code]).toEqual([422, 'invalid_request']);
      // Socket buffers let a few MB more leave the client before the answer arrives.
      expect(a.sent).toBeLessThan(32 * 1024 * 1024);
    }
    expect(grown).toBeLessThan(256 * 1024 * 1024);
    // The server is fine afterwards.
    expect((await t.api('GET', 'me', { key: owner.key })).status).toBe(200);
  });
});
