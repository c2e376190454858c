import type { Readable } from 'node:stream';
import { CoreError } from '@esign/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type BodyLimit, bodyLimitOf, tooLarge } from './limits.ts';

/** Deeper JSON is refused as invalid_json: no input of the API nests anywhere near this. */
export const MAX_JSON_DEPTH = 100;

const invalidJson = () => new CoreError('invalid_json', 'The request body is not valid JSON');

/**
 * Reads a body without ever holding more than the limit: a declared Content-Length over it is
 * refused before a byte is read, and a body that grows past it while streaming (chunked, or a
 * lying Content-Length) is refused at that point; what is still coming is not buffered. With a
 * Content-Length, chunks are copied into one buffer of that size as they arrive, so a 33 MB
 * upload is held once, not as its chunks plus their concatenation (issue 18).
 */
export function readBody(
  payload: Readable,
  contentLength: string | undefined,
  limit: BodyLimit,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
    if (declared > limit.bytes) return reject(tooLarge(limit));
    const sized = Number.isSafeInteger(declared) && declared >= 0;
    const whole = sized ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (received + bytes.length > limit.bytes || (whole && received + bytes.length > whole.length)) {
        stop();
        chunks.length = 0;
        // Whatever else arrives is dropped; the reply closes the connection.
        payload.resume();
        return reject(
          received + bytes.length > limit.bytes
            ? tooLarge(limit)
            : new CoreError('invalid_request', 'The request body does not match its Content-Length'),
        );
      }
      if (whole) bytes.copy(whole, received);
      else chunks.push(bytes);
      received += bytes.length;
    }
    function onEnd() {
      stop();
      if (sized && received !== declared)
        return reject(new CoreError('invalid_request', 'The request body does not match its Content-Length'));
      resolve(whole ?? Buffer.concat(chunks, received));
    }
    function onError() {
      stop();
      reject(new CoreError('invalid_request', 'The request body could not be read'));
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  });
}

/** True when arrays/objects nest deeper than `max` (iterative: any depth is safe to measure). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    const children = Array.isArray(node) ? node : Object.values(node as object);
    for (const child of children)
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Parses a JSON body: empty is no body, invalid or too deeply nested is 400 invalid_json. */
export function parseJsonBody(body: Buffer | string): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  if (parsed !== null && typeof parsed === 'object' && nestsDeeperThan(parsed, MAX_JSON_DEPTH)) {
    throw new CoreError(
      'invalid_json',
      `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  return parsed;
}

/** Reads and parses a JSON body whole, within the route's limit (see BodyLimit). */
export async function jsonBody(request: FastifyRequest, payload: Readable): Promise<unknown> {
  // Only the text stays referenced while it is parsed: the raw bytes can be collected before the
  // parsed copy is built.
  const text = (await readBody(payload, request.headers['content-length'], bodyLimitOf(request))).toString(
    'utf8',
  );
  return parseJsonBody(text);
}

/**
 * `application/json` in any case and with any parameters (`; charset=utf-8`) is JSON; the limit is
 * the route's (see BodyLimit). The REST API reads its two upload routes' large bodies as they
 * arrive instead (apps/api/src/json-uploads.ts).
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', jsonBody);
}
