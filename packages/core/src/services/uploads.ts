import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CoreError } from '../errors.ts';
import { type UploadedFile, uploadRef } from './base64-upload.ts';
import { bytesOf } from './storage.ts';
import { uploadFileName } from './upload-files.ts';

export type { UploadedFile } from './base64-upload.ts';

// Uploads are written to disk as they arrive, not held in memory (issue 18: a 25 MB document was
// held as its chunks, their concatenation, a 33 MB base64 string and the decoded copy). Multipart
// files (POST /templates, POST /documents/verify) are saved as they are; in a JSON body, a long
// `file` string is decoded from base64 while it is read (`Base64Upload`, in the parser's thread).
// The procedure's input names each file by a reference the adapter registers for that request
// only (`CoreDeps.uploads`); the document is read from disk when its turn comes, one document at
// a time. Without the request's registry, `upload:…` is not base64 and is refused.

/** One request's uploaded files on disk, removed together once the response is sent. */
export class UploadedFiles {
  readonly files = new Map<string, UploadedFile>();
  /** Where this request's files are written (by this thread, or by the JSON parser's). */
  readonly dir: string;
  private readonly paths: string[] = [];
  private readonly removal = new AbortController();
  constructor(dir: string) {
    this.dir = dir;
  }

  /** Aborted once the files are removed: whoever still writes one for this request stops. */
  get removed(): AbortSignal {
    return this.removal.signal;
  }

  private async newPath(): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, uploadFileName());
    this.track(path);
    return path;
  }

  /** A file written for this request: removed with the others, at once if they already were. */
  track(path: string): void {
    if (this.removal.signal.aborted) unlink(path).catch(() => {});
    else this.paths.push(path);
  }

  /** Names a file (or why a value is none) by its reference; the first file of equal ones is kept. */
  adopt(ref: string, file: UploadedFile): void {
    if (!this.files.has(ref)) this.files.set(ref, file);
  }

  /**
   * Writes `body` to a temporary file as it arrives and returns its reference. `truncated` is read
   * once the stream ended: true when the stream was cut at a size limit.
   */
  async save(body: NodeJS.ReadableStream, truncated: () => boolean): Promise<string> {
    const path = await this.newPath();
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
    const ref = uploadRef(hash.digest('hex'));
    this.adopt(ref, { path });
    return ref;
  }

  /** Removes every file written (best effort; called once the response is sent or the client left). */
  async remove(): Promise<void> {
    this.removal.abort();
    const paths = this.paths.splice(0);
    this.files.clear();
    await Promise.all(paths.map((p) => unlink(p).catch(() => {})));
  }
}

const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/**
 * A document over the 25 MB limit (26,214,400 bytes), in words that show by how much even when it
 * rounds to 25 MB ("file is 25 MB; the limit is 25 MB" said nothing).
 */
export const tooLargeMessage = (label: string, bytes: number) =>
  `${label} is ${MB(bytes)} (${bytes.toLocaleString('en')} bytes); the limit is 25 MB (26,214,400 bytes)`;

/**
 * The uploaded file `file` names among this request's uploads (`CoreDeps.uploads`), read from disk;
 * null when it names none.
 */
export async function readUploaded(
  uploads: ReadonlyMap<string, UploadedFile> | undefined,
  opts: { file: string; label: string; maxBytes: number },
): Promise<Uint8Array | null> {
  const { file, label, maxBytes } = opts;
  const upload = uploads?.get(file);
  if (upload === undefined) return null;
  if ('problem' in upload) {
    // The words readDocumentFile uses for the same value held whole.
    if (upload.problem === 'empty') throw new CoreError('invalid_document', `${label} is empty`);
    if (upload.problem === 'too_large')
      throw new CoreError('document_too_large', tooLargeMessage(label, upload.bytes));
    throw new CoreError('invalid_document', `${label} is neither valid base64 nor an https:// URL`);
  }
  const { size } = await stat(upload.path);
  if (size === 0) throw new CoreError('invalid_document', `${label} is empty`);
  if (size > maxBytes) throw new CoreError('document_too_large', `${label} is larger than 25 MB`);
  return bytesOf(await readFile(upload.path));
}
