/**
 * A large byte array of a task (the document) goes to a pool worker as a temporary file, not
 * inside the IPC message: Node's 'advanced' IPC serializes the whole message into a buffer of its
 * own before writing it, so sending a 25 MB document cost the process answering HTTP another
 * 25 MB for as long as it was being written (measured: peak +25 MB per send). Written to a file
 * from the caller's own buffer, it costs nothing more there; the worker reads it once and removes
 * it. Replies come back over the channel: there a file would cost the same one copy.
 */
import { randomUUID } from 'node:crypto';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Byte arrays from this size on go through a file. */
export const FILE_THRESHOLD = 1024 * 1024;
const MAX_DEPTH = 3;

interface FileRef {
  ipcFile: string;
}

/**
 * A file the caller hands to the pool in place of a document's bytes (see `poolInputPath`): the
 * worker reads it and removes it. A seal's original copied there by the storage (a kernel copy or a
 * download streamed to disk) never passes through the caller's memory: reading a 25 MB original
 * into the process that answers HTTP cost a full garbage collection there (~40 ms, issue 18).
 */
export interface PoolFile {
  file: string;
}

/** A fresh path for a `PoolFile` (in the system's temporary folder, named like the files this process sends). */
export const poolInputPath = (): string => `${sendPrefixOf(process.pid)}${randomUUID()}.bin`;

/** The bytes, or the reference a worker reads a handed-over file by. */
export const asTaskBytes = (input: Uint8Array | PoolFile): Uint8Array =>
  (input instanceof Uint8Array ? input : ({ ipcFile: input.file } satisfies FileRef)) as Uint8Array;

/** Plain objects and arrays are walked; anything else (a Date in a seal task) passes as it is. */
const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (!v || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const isFileRef = (v: unknown): v is FileRef =>
  !!v && typeof v === 'object' && typeof (v as FileRef).ipcFile === 'string' && Object.keys(v).length === 1;

/** The prefix of the files process `pid` sends (in the system's temporary folder). */
export const sendPrefixOf = (pid: number) => join(tmpdir(), `esign-pool-${pid}-`);

/**
 * The message with every byte array of `FILE_THRESHOLD` or more (in its fields, nested up to
 * three levels) written to a file and replaced by a reference; the paths written are in `files`.
 */
export async function spill(message: unknown): Promise<{ message: unknown; files: string[] }> {
  const files: string[] = [];
  const walk = async (v: unknown, depth: number): Promise<unknown> => {
    // A file handed over by the caller: sent as it is, and removed like the others if never read.
    if (isFileRef(v)) {
      files.push(v.ipcFile);
      return v;
    }
    if (v instanceof Uint8Array) {
      if (v.byteLength < FILE_THRESHOLD) return v;
      const path = `${sendPrefixOf(process.pid)}${randomUUID()}.bin`;
      files.push(path);
      await writeFile(path, v, { mode: 0o600 });
      return { ipcFile: path } satisfies FileRef;
    }
    if (depth >= MAX_DEPTH) return v;
    if (Array.isArray(v)) return Promise.all(v.map((x) => walk(x, depth + 1)));
    if (!isPlain(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = await walk(x, depth + 1);
    return out;
  };
  return { message: await walk(message, 0), files };
}

/** The message with each file reference read back (and the file removed). */
export async function unspill(message: unknown): Promise<unknown> {
  const walk = async (v: unknown, depth: number): Promise<unknown> => {
    if (isFileRef(v)) {
      const bytes = await readFile(v.ipcFile);
      await unlink(v.ipcFile).catch(() => {});
      // A view that owns its whole buffer (see worker.ts's ownBuffer).
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    if (depth >= MAX_DEPTH) return v;
    if (Array.isArray(v)) return Promise.all(v.map((x) => walk(x, depth + 1)));
    if (!isPlain(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = await walk(x, depth + 1);
    return out;
  };
  return walk(message, 0);
}

/** Removes files a message named that its receiver never read (it ended first). */
export function removeFiles(files: string[]): void {
  for (const f of files) void unlink(f).catch(() => {});
}

/**
 * Runs `fn` for each value in arrival order, each after the previous one finished: messages
 * whose files are read back asynchronously still arrive in the order they were sent.
 */
export function inOrder<T>(fn: (value: T) => Promise<void>): (value: T) => void {
  let chain = Promise.resolve();
  return (value) => {
    chain = chain.then(() => fn(value)).catch(() => {});
  };
}
