/** Messages between the document pool (isolate.ts) and its worker threads (worker.ts). */
import type { DocumentInputErrorCode } from './errors.ts';
import type { IngestedDocument } from './types.ts';

/** What a worker is asked to do: ingest an upload, or render one page of a stored PDF. */
export type WorkerTask =
  | { op: 'ingest'; bytes: Uint8Array; password?: string; tagErrors?: 'warn' | 'error' }
  | { op: 'render'; bytes: Uint8Array; page: number; width?: number };

export type WorkerRequest = WorkerTask & { id: number };

export type WorkerReply =
  | {
      id: number;
      ok: true;
      op: 'ingest';
      /** `pdf` is null when the stored PDF is the input unchanged (the caller keeps its own copy). */
      result: Omit<IngestedDocument, 'pdf'> & { pdf: Uint8Array | null };
      unchanged: boolean;
    }
  | { id: number; ok: true; op: 'render'; png: Uint8Array }
  | {
      id: number;
      ok: false;
      code?: DocumentInputErrorCode;
      /** The caller's arguments were out of range (a page the document does not have). */
      range?: boolean;
      message: string;
    };
