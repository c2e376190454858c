import { tr } from './i18n.ts';
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

type StatusName =
  | 'invalid_link'
  | 'signed'
  | 'declined'
  | 'canceled'
  | 'expired'
  | 'archived'
  | 'other_declined'
  | 'completed'
  | 'waiting'
  | 'finished'
  | 'closed'
  | 'rate_limited'
  | 'network'
  | 'error';

const KIND: Record<StatusName, StatusView['kind']> = {
  invalid_link: 'error',
  signed: 'done',
  declined: 'info',
  canceled: 'info',
  expired: 'info',
  archived: 'info',
  other_declined: 'info',
  completed: 'done',
  waiting: 'info',
  finished: 'done',
  closed: 'info',
  rate_limited: 'error',
  network: 'error',
  error: 'error',
};

/** A whole-page status in the page's language (its words are looked up when it is shown). */
function view(name: StatusName, extra: Partial<StatusView> = {}): StatusView {
  return {
    kind: KIND[name],
    title: tr(`status.${name}.title`),
    body: tr(`status.${name}.body`),
    ...extra,
  };
}

export const signedView = (redirecting = false): StatusView =>
  view('signed', redirecting ? { body: tr('status.signed.redirect') } : {});
export const declinedView = (): StatusView => view('declined');

/**
 * The page for a tRPC error code (the stable codes of the REST API) from any signing procedure;
 * `messageKey` (the server's catalogue key) tells a signer who declined from one who signed.
 */
export function viewForError(code: string, message?: string, messageKey?: string | null): StatusView {
  if (code === 'signer_finished' && messageKey === 'error.signer_declined') return declinedView();
  // Issue 47: a hosted (in-person) page opened on a device other than the host's.
  if (messageKey === 'error.hosted_elsewhere')
    return { kind: 'info', title: tr('hosted.elsewhere_title'), body: tr('error.hosted_elsewhere') };
  switch (code) {
    case 'not_found':
    case 'invalid_parameter':
    case 'missing_parameter':
      return view('invalid_link');
    case 'signer_finished':
      return view('finished', { detail: message });
    case 'not_open':
      return view('closed', { detail: message });
    case 'expired':
      return view('expired');
    case 'canceled':
      return view('canceled');
    case 'template_archived':
      return view('archived');
    case 'rate_limited':
      return view('rate_limited', { retry: true });
    case 'network':
      return view('network', { retry: true });
    default:
      return view('error', { retry: true });
  }
}

/** The page for an opened link that cannot be signed (any more), or null when the signer can sign. */
export function viewForOpen(open: Pick<OpenResult, 'status' | 'request'>): StatusView | null {
  if (open.status === 'signed') return signedView();
  if (open.status === 'declined') return declinedView();
  switch (open.request.status) {
    case 'canceled':
      return view('canceled');
    case 'expired':
      return view('expired');
    case 'declined':
      return view('other_declined');
    case 'completed':
      return view('completed');
  }
  if (open.status === 'waiting') return view('waiting');
  return null;
}

const waitFor = (seconds: number | null) =>
  !seconds
    ? tr('code.wait_minute')
    : seconds < 90
      ? tr('code.wait_seconds', { count: seconds })
      : tr('code.wait_minutes', { count: Math.ceil(seconds / 60) });

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
    return tr(step === 'request' ? 'code.request_limited' : 'code.verify_limited', {
      wait: waitFor(retryAfterSeconds),
    });
  }
  if (code === 'network') return tr('code.network');
  return message;
}
