/**
 * The signing procedures' shapes as the page uses them (operations.md §4). They mirror
 * packages/core/src/routers/signing.schemas.ts; test/signing-contract.test.ts fails the typecheck
 * when the two drift apart.
 */
export type FieldType =
  | 'text'
  | 'signature'
  | 'initials'
  | 'date'
  | 'checkbox'
  | 'number'
  | 'phone'
  | 'select'
  | 'radio'
  | 'multiple'
  | 'image'
  | 'file'
  | 'stamp'
  | 'cells';

/** Fractions of the page size; `page` is 1-based, `document` the 0-based document index. */
export interface Area {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  document: number;
}

export interface SigningField {
  id: string;
  name: string;
  type: FieldType;
  required: boolean;
  options?: string[];
  areas: Area[];
  value: unknown;
  prefilled: boolean;
}

export interface PageInfo {
  number: number;
  width: number;
  height: number;
  image_url: string;
}

export interface DocumentInfo {
  index: number;
  name: string;
  pages: PageInfo[];
}

export type SignerStatus = 'waiting' | 'ready' | 'sent' | 'viewed' | 'signed' | 'declined';

export interface OpenResult {
  object: 'signing_session';
  status: SignerStatus;
  request: {
    id: number;
    status: string;
    title: string;
    message: { subject?: string; body?: string } | null;
    expires_at: string | null;
    test_mode: boolean;
  };
  signer: { id: number; name: string | null; email: string | null; role: string | null };
  code_required: boolean;
  documents: DocumentInfo[];
  fields: SigningField[];
  redirect_url: string | null;
}

export interface FileValue {
  name: string;
  type: string;
  /** a base64 data: URI */
  data: string;
}

/** A value as the procedures store it (request-model.ts FieldValue). */
export type FieldValue = string | number | boolean | string[] | FileValue | null;
