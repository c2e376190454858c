/**
 * What the embedded signing page (`/e/{token}`) tells the page that frames it, with
 * `postMessage`, and how `<esign-form>` reads it (docs/embed.md). One definition for both ends:
 * the signing page's client (apps/web/src/signing/client/embed.ts) posts exactly these shapes, and
 * the element accepts nothing else.
 *
 * The page posts only to the origins the account allows (its `frame-ancestors`), never to `*`;
 * the element accepts a message only from its own frame's window and the service's origin.
 */

/** Every message carries this marker, so other frames' messages are never mistaken for ours. */
export const MESSAGE_SOURCE = 'esign-form';

/** `loaded`: the page opened the link. `code_required`: the signer must first enter an emailed code. */
export interface LoadedDetail {
  status: 'ready' | 'code_required' | 'closed';
}

/** `field-completed`: the signer gave one of their fields a value. */
export interface FieldCompletedDetail {
  field: { id: string; name: string; type: string; required: boolean };
  /** how many of the signer's fields have a value now */
  completed: number;
  /** how many fields the signer has */
  total: number;
}

/** `signed`: the signer finished; their part of the request is done. */
export interface SignedDetail {
  signature_request_id: number;
}

/** `declined`: the signer declined to sign. */
export interface DeclinedDetail {
  signature_request_id: number;
}

/**
 * `error`: the signing page cannot be used. From the page: the API's error `code` (for example
 * `not_found` for an unknown link); from the element itself: `invalid_signing_url` (the
 * `signing-url` is not a signing link of the service) or `frame_refused` (the page did not load
 * in the frame, usually because this origin is not on the account's list).
 */
export interface ErrorDetail {
  code: string;
  message: string;
}

/** `resize`: the height in CSS pixels the page's content needs (the element sizes its frame to it). */
export interface ResizeDetail {
  height: number;
}

/** The details of each message type the page posts. */
export interface HostMessageDetails {
  loaded: LoadedDetail;
  'field-completed': FieldCompletedDetail;
  signed: SignedDetail;
  declined: DeclinedDetail;
  error: ErrorDetail;
  resize: ResizeDetail;
}

export type HostMessageType = keyof HostMessageDetails;

/** One message as posted: the marker, the type, and that type's detail fields. */
export type HostMessage<T extends HostMessageType = HostMessageType> = {
  [K in T]: { source: typeof MESSAGE_SOURCE; type: K } & HostMessageDetails[K];
}[T];

type Check = (data: Record<string, unknown>) => boolean;

const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isId = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;

const CHECKS: Record<HostMessageType, Check> = {
  loaded: (d) => d.status === 'ready' || d.status === 'code_required' || d.status === 'closed',
  'field-completed': (d) => {
    const f = d.field as Record<string, unknown> | null;
    return (
      typeof f === 'object' &&
      f !== null &&
      isString(f.id) &&
      isString(f.name) &&
      isString(f.type) &&
      typeof f.required === 'boolean' &&
      isCount(d.completed) &&
      isCount(d.total)
    );
  },
  signed: (d) => isId(d.signature_request_id),
  declined: (d) => isId(d.signature_request_id),
  error: (d) => isString(d.code) && isString(d.message),
  resize: (d) => typeof d.height === 'number' && Number.isFinite(d.height) && d.height >= 0,
};

/** A message as the page posts it, or null for anything else (another script's message, a bad shape). */
export function parseHostMessage(data: unknown): HostMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.source !== MESSAGE_SOURCE || !isString(d.type) || !Object.hasOwn(CHECKS, d.type)) return null;
  return CHECKS[d.type as HostMessageType](d) ? (data as HostMessage) : null;
}

/** Builds a message of one type (the signing page's side). */
export function hostMessage<T extends HostMessageType>(
  type: T,
  detail: HostMessageDetails[T],
): HostMessage<T> {
  return { ...detail, source: MESSAGE_SOURCE, type } as HostMessage<T>;
}
