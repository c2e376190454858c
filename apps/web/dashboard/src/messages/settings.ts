/** Words of webhooks, billing, verification and the shared parts: buttons, dialogs, tables, errors from the server (pages/webhooks/, webhooks, pages/billing/, billing, billing-errors.ts, verify, ui, trpc.ts, table, shell). */
export const settings = {
  // Shared parts (ui.tsx, table.tsx, shell.tsx): loading, copy buttons, dialogs, toasts, lists.
  'ui.loading': 'Loading…',
  'ui.copy': 'Copy',
  'ui.copied': 'Copied',
  'ui.percent': '{percent}%',
  'ui.close': 'Close',
  'ui.keep_it': 'Keep it',
  'ui.dismiss': 'Dismiss',
  'ui.show_more': 'Show more',
  'ui.account_menu_for': 'Account menu for {name}',
  'table.actions': 'Actions',

  // Failures in words (trpc.ts), when the server's own message is not shown.
  'errors.internal': 'Something went wrong on our side. Please try again in a moment.',
  'errors.signed_out': 'You are signed out. Sign in again to continue.',
  'errors.unreachable': 'The server could not be reached. Check your connection and try again.',
  'errors.generic': 'Something went wrong. Please try again.',
  'errors.upload_interrupted': 'The upload was interrupted. Check your connection and try again.',
  'errors.upload_too_large': 'These files are too large to upload at once.',
  'errors.upload_failed': 'The upload failed.',
} as const;
