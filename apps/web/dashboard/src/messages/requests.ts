/** Words of sending and requests: the send form, bulk sends, copies, a request and the list of requests, the overview and its activity lines (pages/request/, request, request-extras, requests/, requests, send, send-fieldsets, send-form.ts, bulk-*, copies-*, copy-defaults, overview/, overview, format.ts). */
export const requests = {
  // Overview (the first page): greeting, the four numbers, recent activity.
  'overview.title': 'Overview',
  'overview.send': 'Send for signature',
  'overview.welcome_name': 'Welcome back, {name}.',
  'overview.welcome': 'Welcome back.',
  'overview.stats.unlimited': 'Unlimited plan',
  'overview.stats.credits_left': 'Credits left',
  'overview.stats.blocked': 'Sending is blocked: buy credits',
  'overview.stats.waiting': 'Waiting on others',
  'overview.stats.completed_30_days': 'Completed in 30 days',
  'overview.stats.templates': 'Templates',
  'overview.activity.title': 'Recent activity',
  'overview.first_request.title': 'No activity yet',
  'overview.first_request.action': 'Send a template',
  'overview.first_request.text':
    'Send one of your templates; views, signatures and completions show up here.',
  'overview.first_template.title': 'Nothing has happened yet',
  'overview.first_template.action': 'Upload your first template',
  'overview.first_template.text':
    'Start by uploading a PDF as a template, then send it to the people who should sign it.',

  // Activity lines (overview and a request's timeline): one sentence per event of the audit trail.
  // {who} is a signer's name or email, or activity.a_signer / activity.someone; {what} is
  // activity.titled or activity.a_document.
  'activity.a_signer': 'A signer',
  'activity.someone': 'Someone',
  'activity.titled': '“{title}”',
  'activity.a_document': 'a document',
  'activity.nobody': 'nobody',
  /** formatAgo's time that never came (an API key never used), in place of "3 days ago". */
  'activity.never': 'never',
  'activity.request_sent': '{what} was sent for signature',
  'activity.request_canceled': '{what} was canceled',
  'activity.request_recipients': '{what} is copied to {cc}; notices go to {notify}',
  'activity.request_reminded': 'Signers of {what} were reminded',
  'activity.signer_viewed': '{who} opened {what}',
  'activity.signer_started': '{who} started filling in {what}',
  'activity.signer_signed': '{who} signed {what}',
  'activity.signer_declined': '{who} declined to sign {what}',
  'activity.signer_declined_reason': '{who} declined to sign {what}: “{reason}”',
  'activity.otp_sent':
    '{channel, select, sms {A one-time code was texted to {who}} other {A one-time code was emailed to {who}}}',
  'activity.sms_sent':
    '{status, select, kept {An SMS ({kind}) was kept in the SMS outbox for {who}} other {An SMS ({kind}) went out for {who}}}',
  'activity.sms_failed':
    '{retried, select, yes {An SMS ({kind}) to {who} failed, it will be retried: {error}} other {An SMS ({kind}) to {who} failed for good: {error}}}',
  'activity.sms_capped': 'An SMS ({kind}) to {who} was not sent: the daily SMS limit ({limit}) was reached',
  'activity.otp_verified': '{who} entered their one-time code',
  'activity.otp_failed': '{who} entered a wrong one-time code',
  'activity.sealed': '{what} was sealed: signed documents and audit trail are ready',
  /** An event without its own sentence: its type in words ("signer delegated") and the document. */
  'activity.other': '{type} ({what})',
  // What an SMS was ({kind} above).
  'activity.sms_kind.invitation': 'invitation',
  'activity.sms_kind.reminder': 'reminder',
  'activity.sms_kind.resend': 'link sent again',
  'activity.sms_kind.otp': 'one-time code',
  'activity.sms_kind.completed': 'completed documents',
} as const;
