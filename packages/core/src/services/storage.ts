import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.ts';

/** A stored file being read: its bytes arrive as `body` is consumed (never all held at once). */
export interface StoredFileStream {
  body: Readable;
  /** Bytes in the file (the Content-Length of a download). */
  size: number;
}

/** Where documents, page images and sealed files live: local disk by default, S3-compatible when configured. */
export interface FileStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  /**
   * Opens a stored file for reading as a stream (`FileNotFoundError` when absent): downloads of
   * 25 MB documents go from storage to the response in small chunks, at the pace the client reads.
   */
  open(key: string): Promise<StoredFileStream>;
  /**
   * Copies a stored file to a new local file (`FileNotFoundError` when absent), streamed in small
   * chunks, never held whole in this process; the copy is created for this process's user only
   * (0600, and never through an existing file or link at `path`).
   */
  copyToFile(key: string, path: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

export class FileNotFoundError extends Error {}

/** A new file only this process's user may read; fails if anything is at `path` already. */
const privateFile = (path: string) => createWriteStream(path, { mode: 0o600, flags: 'wx' });

/** Deletes files a failed operation had stored (best effort: a missing file is not an error). */
export async function removeFiles(storage: FileStore, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((k) => storage.delete(k).catch(() => {})));
}

/** Files under DATA_DIR/files, written atomically (temp file + rename). */
export class LocalFileStore implements FileStore {
  private readonly root: string;
  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private path(key: string): string {
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error(`invalid storage key ${key}`);
    return p;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.${randomUUID()}.tmp`;
    try {
      await writeFile(tmp, bytes);
      await rename(tmp, p);
    } catch (err) {
      // A write the disk refused part-way (ENOSPC) leaves its temp file behind: removed, so a
      // full disk leaves nothing once space is back.
      await unlink(tmp).catch(() => {});
      throw err;
    }
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      return bytesOf(await readFile(this.path(key)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(key);
      throw err;
    }
  }

  async open(key: string): Promise<StoredFileStream> {
    try {
      // Opened before answering, so a missing file is a 404, not a response cut short.
      const handle = await open(this.path(key), 'r');
      const { size } = await handle.stat().catch(async (err) => {
        await handle.close();
        throw err;
      });
      return { body: handle.createReadStream(), size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(key);
      throw err;
    }
  }

  async copyToFile(key: string, path: string): Promise<void> {
    // A stream, not fs.copyFile: that gives the copy the stored file's mode (readable by others).
    await pipeline((await this.open(key)).body, privateFile(path));
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.path(key)).then(
      () => true,
      () => false,
    );
  }

  async delete(key: string): Promise<void> {
    await unlink(this.path(key)).catch(() => {});
  }
}

/** S3-compatible storage (STORAGE_URL=s3://bucket?endpoint=...&region=...&force_path_style=true). */
export class S3FileStore implements FileStore {
  private readonly client: Promise<import('@aws-sdk/client-s3').S3Client>;
  private readonly bucket: string;
  private readonly prefix: string;
  constructor(url: string) {
    const u = new URL(url);
    this.bucket = u.hostname;
    this.prefix = u.pathname.replace(/^\/+/, '');
    const endpoint = u.searchParams.get('endpoint') ?? undefined;
    const region = u.searchParams.get('region') ?? 'us-east-1';
    const forcePathStyle =
      (u.searchParams.get('force_path_style') ?? (endpoint ? 'true' : 'false')) === 'true';
    this.client = import('@aws-sdk/client-s3').then(
      (s3) => new s3.S3Client({ region, endpoint, forcePathStyle }),
    );
  }

  private key(key: string) {
    return this.prefix ? `${this.prefix.replace(/\/$/, '')}/${key}` : key;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const s3 = await import('@aws-sdk/client-s3');
    await (await this.client).send(
      new s3.PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(key),
        Body: bytes,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string): Promise<Uint8Array> {
    const s3 = await import('@aws-sdk/client-s3');
    try {
      const res = await (await this.client).send(
        new s3.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }),
      );
      if (!res.Body) return new Uint8Array(0);
      return await res.Body.transformToByteArray();
    } catch (err) {
      if (isMissingObject(err)) throw new FileNotFoundError(key);
      throw err;
    }
  }

  async open(key: string): Promise<StoredFileStream> {
    const s3 = await import('@aws-sdk/client-s3');
    try {
      const res = await (await this.client).send(
        new s3.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }),
      );
      // In Node the SDK's body is the HTTP response itself: read as it is consumed.
      if (!(res.Body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}`);
      return { body: res.Body, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isMissingObject(err)) throw new FileNotFoundError(key);
      throw err;
    }
  }

  async copyToFile(key: string, path: string): Promise<void> {
    await pipeline((await this.open(key)).body, privateFile(path));
  }

  async exists(key: string): Promise<boolean> {
    const s3 = await import('@aws-sdk/client-s3');
    try {
      await (await this.client).send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return true;
    } catch (err) {
      // Only "no such object" means absent: a denied or failed request must not look like a
      // missing file (the page-image cache would re-render and then fail on put).
      if (isMissingObject(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const s3 = await import('@aws-sdk/client-s3');
    await (await this.client).send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }
}

/** GetObject answers a missing key with NoSuchKey; HeadObject (no body) with NotFound. */
function isMissingObject(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

export function createFileStore(config: Pick<Config, 'STORAGE_URL' | 'DATA_DIR'>): FileStore {
  return config.STORAGE_URL
    ? new S3FileStore(config.STORAGE_URL)
    : new LocalFileStore(join(config.DATA_DIR, 'files'));
}

/**
 * A plain Uint8Array over a Buffer's memory: `new Uint8Array(buffer)` would copy it (25 MB on the
 * event loop for a large document), and the Buffer itself would make `.slice()` a view, not a copy.
 */
export const bytesOf = (buffer: Buffer): Uint8Array =>
  new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
