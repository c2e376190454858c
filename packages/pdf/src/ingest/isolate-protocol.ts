/** Messages between `ingestDocument` and its worker thread. */
import type { DocumentInputErrorCode } from './errors.ts';
import type { IngestedDocument } from './types.ts';

export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
  password?: string;
  tagErrors?: 'warn' | 'error';
}

export type WorkerReply =
  | {
      id: number;
      ok: true;
      /** `pdf` is null when the stored PDF is the input unchanged (the caller keeps its own copy). */
      result: Omit<IngestedDocument, 'pdf'> & { pdf: Uint8Array | null };
      unchanged: boolean;
    }
  | { id: number; ok: false; code?: DocumentInputErrorCode; message: string };
