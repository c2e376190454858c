/** Messages between the document pool (isolate.ts) and its worker processes (worker.ts). */
import type { AuditTrailInput } from '../seal/audit-trail.ts';
import type { LoadSigningIdentityOptions } from '../seal/identity.ts';
import type { SealDocumentInput } from '../seal/seal-document.ts';
import type { TimestampAuthorityOptions, TrustFetch } from '../seal/trust.ts';
import type { RenderingCheck, SignatureCheck } from '../verify/index.ts';
import type { DocumentInputErrorCode } from './errors.ts';
import type { IngestedDocument } from './types.ts';

/** What sealing needs besides the document: the identity is loaded (once) by the worker itself. */
export type SealTaskInput = Omit<SealDocumentInput, 'pdf' | 'identity' | 'trust'> & {
  identity: LoadSigningIdentityOptions;
  /** The SHA-256 (hex) the bytes must have: the worker checks it before it parses them. */
  expectedSha256?: string;
};

/**
 * The time-stamping authority a sealing task uses (PAdES B-LTA), as plain data: the worker builds
 * its TSA client and revocation provider from it, with a fetch that asks the pool's process.
 * Unset: the seal is B-B. The password crosses the IPC channel and is never logged.
 */
export type TimestampAuthorityConfig = Omit<TimestampAuthorityOptions, 'fetch'>;

/**
 * The trust services of a sealing call: the TSA as data (sent to the worker) and the caller's
 * fetch, which stays in the calling process (the outbound guard) and answers the worker's
 * `WorkerFetch` messages. It must bound each exchange itself (the service's: 20 s, 5 MB).
 */
export interface PoolTrust {
  tsa: TimestampAuthorityConfig;
  fetch: TrustFetch;
}

/**
 * What a worker is asked to do: ingest an upload; render one page, or several pages in order from
 * one parse of the document (each page's PNG sent back as soon as it is drawn); seal a document;
 * combine sealed documents into one signed file; build the signed audit trail (`bytes` empty);
 * check the signatures of an uploaded PDF (POST /documents/verify) and hash it.
 * Seal, combine and audit-trail carry `tsa` when sealing uses trust services.
 */
export type WorkerTask =
  | {
      op: 'ingest';
      bytes: Uint8Array;
      password?: string;
      tagErrors?: 'warn' | 'error';
      inflation: { streamBytes: number; documentBytes: number };
    }
  | { op: 'render'; bytes: Uint8Array; page: number; width?: number }
  | { op: 'render-pages'; bytes: Uint8Array; pages: number[]; width?: number }
  | { op: 'seal'; bytes: Uint8Array; seal: SealTaskInput; tsa?: TimestampAuthorityConfig }
  | {
      op: 'combine';
      bytes: Uint8Array;
      more: Uint8Array[];
      identity: LoadSigningIdentityOptions;
      name: string;
      tsa?: TimestampAuthorityConfig;
    }
  | {
      op: 'audit-trail';
      bytes: Uint8Array;
      trail: AuditTrailInput;
      identity: LoadSigningIdentityOptions;
      tsa?: TimestampAuthorityConfig;
    }
  | { op: 'verify'; bytes: Uint8Array; identity: LoadSigningIdentityOptions };

/** What the `verify` task finds in a PDF (see `verifyInPool`). */
export interface VerifyResult {
  /** Every embedded signature, checked (see `inspectSignatures`). */
  checks: SignatureCheck[];
  /** See `isIntact`. */
  intact: boolean;
  /** SHA-256 of the whole file, lowercase hex. */
  sha256: string;
  /** How pdf.js's last check went (the rendering guard, issue 40 item 4). */
  rendering: RenderingCheck;
  /** SHA-256 of this service's sealing certificate (to tell its seals from others'). */
  serviceCertificateSha256: string;
}

export type WorkerRequest = WorkerTask & { id: number };

/** A page drawn by a `render-pages` task, sent before the task's reply. */
export interface WorkerProgress {
  id: number;
  progress: true;
  page: number;
  png: Uint8Array;
}

/**
 * An HTTP exchange a sealing task asks the pool's process to make (TSA, OCSP, CRL), sent before
 * the task's reply; `fetch` numbers it within the worker. Answered with a `FetchAnswer`.
 */
export interface WorkerFetch {
  id: number;
  fetch: number;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** The pool's answer to a `WorkerFetch`: the response, or why there is none. */
export type FetchAnswer =
  | { fetched: number; status: number; body: Uint8Array }
  | { fetched: number; error: string };

/** The time the TSA last certified in a sealing task (its `lastTime`), null without a TSA. */
type Stamped = { timestampTime: Date | null };

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
  | { id: number; ok: true; op: 'render-pages'; pageCount: number }
  /** `sha256`: of `pdf`, hashed in the worker (as every hash of a file the pool makes or is given). */
  | ({ id: number; ok: true; op: 'combine' | 'audit-trail'; pdf: Uint8Array; sha256: string } & Stamped)
  /**
   * `certificateSha256`: the SHA-256 of the certificate the document was signed with;
   * `inputSha256`: of the bytes the worker was given to seal.
   */
  | ({
      id: number;
      ok: true;
      op: 'seal';
      pdf: Uint8Array;
      sha256: string;
      inputSha256: string;
      certificateSha256: string;
    } & Stamped)
  | { id: number; ok: true; op: 'verify'; result: VerifyResult }
  | {
      id: number;
      ok: false;
      code?: DocumentInputErrorCode;
      /** The caller's arguments were out of range (a page the document does not have). */
      range?: boolean;
      /** A trust service failed the seal (a TrustServiceError): no fault of the document. */
      trust?: boolean;
      /** The bytes to seal were not the expected ones (SealInputMismatchError): their SHA-256. */
      mismatchSha256?: string;
      message: string;
    };
