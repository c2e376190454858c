/**
 * The dashboard's words, ready to translate (issue 32: the dashboard stays English for now): one
 * catalogue of ICU messages in the form of the signers' catalogues (@esign/i18n), looked up by key.
 * So far the shell (navigation, test mode, the account menu) and the request and signer statuses
 * read from here; the pages still hold their words inline and move here page by page. A second
 * language is then a catalogue with these keys, checked like packages/i18n's
 * (apps/web/test/dashboard-messages.test.ts), and messages with arguments are formatted with
 * `formatMessage` of @esign/i18n/core.
 */
export const messages = {
  'nav.label': 'Main',
  'nav.overview': 'Overview',
  'nav.templates': 'Templates',
  'nav.send': 'Send',
  'nav.bulk': 'Bulk send',
  'nav.requests': 'Requests',
  'nav.api_keys': 'API keys',
  'nav.connected_apps': 'Connected apps',
  'nav.webhooks': 'Webhooks',
  'nav.embed': 'Embedding',
  'nav.team': 'Team',
  'nav.billing': 'Billing',
  'nav.account': 'Account',
  'shell.skip': 'Skip to content',
  'shell.open_menu': 'Open menu',
  'shell.close_menu': 'Close menu',
  'shell.pages': 'Pages of the dashboard',
  'shell.brand': 'E-Signature',
  'env.label': 'Test mode',
  'env.to_test': 'Switched to test data',
  'env.to_live': 'Switched to live data',
  'env.failed': 'Could not switch; try again',
  'env.banner_title': 'Test mode.',
  'env.banner':
    'You are looking at test data: requests sent here are not legally binding and use no credits.',
  'env.back_to_live': 'Back to live data',
  'menu.your_account': 'Your account',
  'menu.account': 'Account and sessions',
  'menu.sign_out': 'Sign out',
  'request.sent': 'Sent',
  'request.in_progress': 'In progress',
  'request.completed': 'Completed',
  'request.declined': 'Declined',
  'request.expired': 'Expired',
  'request.canceled': 'Canceled',
  'signer.waiting': 'Waiting for their turn',
  'signer.ready': 'Ready (link not emailed)',
  'signer.sent': 'Invited',
  'signer.viewed': 'Opened',
  'signer.signed': 'Signed',
  'signer.declined': 'Declined',
} as const;

export type DashboardMessageKey = keyof typeof messages;

/** The dashboard's message `key` (English). */
export function msg(key: DashboardMessageKey): string {
  return messages[key];
}
