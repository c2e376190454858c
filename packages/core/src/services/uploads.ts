import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CoreDeps } from '../context.ts';
import { CoreError } from '../errors.ts';

// Multipart uploads (POST /templates, POST /documents/verify) are written to disk as they arrive,
// not collected in memory and re-encoded as base64 (issue 18: a 25 MB document was held as its
// chunks, their concatenation, a 33 MB base64 string and the decoded copy). The procedure's input
// names each file by a reference the adapter registers for that request only (`CoreDeps.uploads`);
// the document is read from disk when its turn comes, one document at a time. A JSON body cannot
// use a reference: without the request's registry, `upload:…` is not base64 and is refused.

/** The reference of an uploaded file: its SHA-256, so equal uploads give equal JSON (idempotency). */
const refOf = (sha256: string) => `upload:${sha256}`;

/** One request's uploaded files on disk, removed together once the response is sent. */
export class UploadedFiles {
  readonly files = new Map<string, string>();
  private readonly paths: string[] = [];
  private readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
  }

  /**
   * Writes `body` to a temporary file as it arrives and returns its reference. `truncated` is read
   * once the stream ended: true when the stream was cut at a size limit.
   */
  async save(body: NodeJS.ReadableStream, truncated: () => boolean): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, `${randomUUID()}.upload`);
    this.paths.push(path);
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(body, hashing, createWriteStream(path, { mode: 0o600 }));
    // Reported like @fastify/multipart's own limit error: each form words its 422.
    if (truncated())
      throw Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
    const ref = refOf(hash.digest('hex'));
    if (!this.files.has(ref)) this.files.set(ref, path);
    return ref;
  }

  /** Removes every file written (best effort; called once the response is sent or the client left). */
  async remove(): Promise<void> {
    const paths = this.paths.splice(0);
    this.files.clear();
    await Promise.all(paths.map((p) => unlink(p).catch(() => {})));
  }
}

/** The uploaded file `file` names for this request, read from disk; null when it names none. */
export async function readUploaded(
  file: string,
  label: string,
  deps: CoreDeps,
  maxBytes: number,
): Promise<Uint8Array | null> {
  const path = deps.uploads?.get(file);
  if (path === undefined) return null;
  const { size } = await stat(path);
  if (size === 0) throw new CoreError('invalid_document', `${label} is empty`);
  if (size > maxBytes) throw new CoreError('document_too_large', `${label} is larger than 25 MB`);
  return new Uint8Array(await readFile(path));
}
