import type { OpenResult } from './types.ts';

/** A full-page message instead of the document: finished, declined, closed or broken links. */
export interface StatusView {
  kind: 'done' | 'info' | 'error';
  title: string;
  body: string;
  /** the server's own words, shown under the explanation */
  detail?: string;
  /** offer a Try again button (temporary failures) */
  retry?: boolean;
}

const INVALID_LINK: StatusView = {
  kind: 'error',
  title: 'This signing link is not valid',
  body: 'Check that you opened the whole link from your email. If it still does not work, ask the sender for a new link.',
};

export const SIGNED: StatusView = {
  kind: 'done',
  title: 'Document signed',
  body: 'Thank you. Your signature has been recorded and the sender has been notified. You can close this page.',
};

export const DECLINED: StatusView = {
  kind: 'info',
  title: 'You declined to sign',
  body: 'The sender has been told that you declined. You can close this page.',
};

const CANCELED: StatusView = {
  kind: 'info',
  title: 'This request was canceled',
  body: 'The sender canceled this signature request, so it can no longer be signed. Contact the sender if you think this is a mistake.',
};

const EXPIRED: StatusView = {
  kind: 'info',
  title: 'This signing link has expired',
  body: 'The time to sign this document has passed. Ask the sender to send it again.',
};

const ARCHIVED: StatusView = {
  kind: 'info',
  title: 'This document is no longer available',
  body: 'The sender has withdrawn the template this request was made from, so it can no longer be signed.',
};

const OTHER_DECLINED: StatusView = {
  kind: 'info',
  title: 'This request was declined',
  body: 'Another signer declined this signature request, so it can no longer be signed.',
};

const COMPLETED: StatusView = {
  kind: 'done',
  title: 'This document is fully signed',
  body: 'Everyone has signed this document. There is nothing left for you to do.',
};

const WAITING: StatusView = {
  kind: 'info',
  title: 'It is not your turn yet',
  body: 'Someone else has to sign this document before you. You will get an email when it is your turn.',
};

/** The page for a tRPC error code (the stable codes of the REST API) from any signing procedure. */
export function viewForError(code: string, message?: string): StatusView {
  switch (code) {
    case 'not_found':
    case 'invalid_parameter':
    case 'missing_parameter':
      return INVALID_LINK;
    case 'signer_finished':
      return {
        kind: 'done',
        title: 'You have already finished',
        body: 'This document has already been signed or declined, so this link no longer opens it. You can close this page.',
        detail: message,
      };
    case 'not_open':
      return {
        kind: 'info',
        title: 'This request is closed',
        body: 'It can no longer be signed: the sender canceled it, someone declined it, or the time to sign ran out. Contact the sender if you still need to sign.',
        detail: message,
      };
    case 'expired':
      return EXPIRED;
    case 'canceled':
      return CANCELED;
    case 'template_archived':
      return ARCHIVED;
    case 'rate_limited':
      return {
        kind: 'error',
        title: 'Too many attempts',
        body: 'Please wait a minute, then try again.',
        retry: true,
      };
    case 'network':
      return {
        kind: 'error',
        title: 'Cannot reach the server',
        body: 'Check your internet connection, then try again.',
        retry: true,
      };
    default:
      return {
        kind: 'error',
        title: 'Something went wrong',
        body: 'The document could not be loaded. Try again in a moment; if it keeps happening, contact the sender.',
        retry: true,
      };
  }
}

/** The page for an opened link that cannot be signed (any more), or null when the signer can sign. */
export function viewForOpen(open: Pick<OpenResult, 'status' | 'request'>): StatusView | null {
  if (open.status === 'signed') return SIGNED;
  if (open.status === 'declined') return DECLINED;
  switch (open.request.status) {
    case 'canceled':
      return CANCELED;
    case 'expired':
      return EXPIRED;
    case 'declined':
      return OTHER_DECLINED;
    case 'completed':
      return COMPLETED;
  }
  if (open.status === 'waiting') return WAITING;
  return null;
}

const waitFor = (seconds: number | null) =>
  !seconds ? 'a minute' : seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;

/**
 * The message under the email-code form when asking for (`request`) or entering (`verify`) a code
 * fails but the link still works. A wrong code (with the tries left), an expired code and a code
 * locked after too many wrong tries come as invalid_request with the server's own words, which say
 * what to do; too many requests as rate_limited with Retry-After.
 */
export function codeErrorMessage(
  step: 'request' | 'verify',
  code: string,
  message: string,
  retryAfterSeconds: number | null,
): string {
  if (code === 'rate_limited') {
    return step === 'request'
      ? `We cannot send another code yet. You can ask again in ${waitFor(retryAfterSeconds)}.`
      : `Too many attempts. Wait ${waitFor(retryAfterSeconds)}, then try again.`;
  }
  if (code === 'network') return 'Cannot reach the server. Check your internet connection, then try again.';
  return message;
}
