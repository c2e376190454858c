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

  // Requests: the list, its filters and rows.
  'requests.title': 'Requests',
  'requests.send': 'Send for signature',
  'requests.intro': 'Everything sent for signature, newest first.',
  'requests.list_label': 'Signature requests',
  'requests.search.label': 'Search by signer name, email or phone',
  'requests.search.placeholder': 'Search signers by name, email or phone',
  'requests.filter.status': 'Status',
  'requests.filter.all': 'All',
  'requests.filter.open': 'Waiting for signatures',
  'requests.filter.completed': 'Completed',
  'requests.filter.declined': 'Declined',
  'requests.filter.expired': 'Expired',
  'requests.filter.canceled': 'Canceled',
  /** A request whose template is gone, by its number. */
  'requests.untitled': 'Request {id}',
  /** A signer in a row of the list, with their status in small letters. */
  'requests.row.signer':
    '{name} ({status, select, waiting {waiting for their turn} ready {ready (link not emailed)} sent {invited} viewed {opened} signed {signed} declined {declined} other {{status}}})',
  'requests.row.sent': 'Sent {date}',
  'requests.none_match.title': 'Nothing matches',
  'requests.none_match.text': 'Try another status or search.',
  'requests.empty.title': 'No requests yet',
  'requests.empty.action': 'Send your first document',
  'requests.empty.text': 'Send a template to one or more signers; you can follow their progress here.',

  // A request's page: header, signers, documents, downloads, copies, reminders, timeline.
  'requests.not_found.title': 'Request not found',
  'requests.not_found.back': 'Back to requests',
  'requests.not_found.text': 'It does not exist, or belongs to the other side (live/test) of your account.',
  'requests.detail.crumb': 'Requests',
  // The line under the title, its parts joined with " · ".
  'requests.detail.sent': 'Sent {date}',
  'requests.detail.expires': 'expires {date}',
  'requests.detail.by': 'by {name}',
  'requests.detail.signers': 'Signers',
  'requests.actions.remind': 'Remind signers',
  'requests.actions.reminded':
    '{count, plural, =0 {Nobody needed a reminder} one {Reminded # signer} other {Reminded # signers}}',
  'requests.actions.cancel': 'Cancel request',
  'requests.actions.cancel_title': 'Cancel this request?',
  'requests.actions.cancel_text': 'Signers can no longer open or sign it. This cannot be undone.',
  'requests.actions.cancel_confirm': 'Cancel request',
  'requests.actions.canceled': 'Request canceled: the signing links no longer work',
  'requests.signer.as_role': 'as {role}',
  // A signer's line, its parts joined with " · ".
  'requests.signer.opened': 'opened {date}',
  'requests.signer.signed': 'signed {date}',
  'requests.signer.declined': 'declined {date}',
  'requests.signer.declined_reason': 'declined {date}: “{reason}”',
  'requests.signer.this_signer': 'this signer',
  'requests.signer.copy_link': 'Copy signing link',
  'requests.signer.edit': 'Edit or resend',
  'requests.edit_signer.title': 'Edit {name}',
  'requests.edit_signer.title_unnamed': 'Edit signer',
  'requests.edit_signer.name': 'Name',
  'requests.edit_signer.email': 'Email',
  'requests.edit_signer.save': 'Save',
  'requests.edit_signer.save_resend': 'Save and resend the link',
  'requests.edit_signer.saved': 'Signer saved',
  'requests.edit_signer.saved_resent': 'Saved and the link was emailed again',
  'requests.documents.title': 'Documents',
  'requests.documents.sealed': 'The sealed documents, with every value drawn in.',
  'requests.documents.as_sent':
    'The documents as sent, with the values filled in so far; outlined fields are still empty.',
  'requests.documents.page_count': '{count, plural, one {# page} other {# pages}}',
  'requests.documents.pages_label': 'Pages of {name}',
  'requests.documents.page_alt': 'Page {number} of {name}',
  'requests.documents.show_all': '{count, plural, one {Show all # page} other {Show all # pages}}',
  /** The tooltip of a field on a page: its name, its role, and whether it is still to be filled. */
  'requests.documents.field_title':
    '{state, select, filled {{name} ({role})} required {{name} ({role}): not filled yet} other {{name} ({role}): optional, empty}}',
  'requests.documents.values_label': 'Values of {signer}',
  'requests.documents.picture_alt': '{field} of {signer}',
  // A checkbox's value.
  'requests.documents.yes': 'Yes',
  'requests.documents.no': 'No',
  'requests.downloads.title': 'Signed documents',
  'requests.downloads.file': '{name}.pdf',
  'requests.downloads.audit_trail': 'Audit trail',
  'requests.downloads.combined': 'Everything in one PDF',
  'requests.downloads.sealing': 'Sealing the signed documents…',
  'requests.copies.title': 'Copies and notices',
  'requests.copies.cc': 'CC',
  'requests.copies.cc_hint': 'Read-only link when sent; the signed documents when completed.',
  'requests.copies.notified': 'Notified',
  'requests.copies.notified_hint': 'Told when the request is completed, declined, expires or is canceled.',
  'requests.reminders.title': 'Automatic reminders',
  'requests.reminders.schedule': 'Schedule',
  'requests.reminders.schedule_value':
    '{hours, plural, one {Every # hour} other {Every # hours}}, at most {max} per signer',
  'requests.reminders.next': 'Next reminder',
  'requests.reminders.none_now': 'None scheduled: no signer can get one now',
  'requests.reminders.none_closed': 'None: the request is no longer open',
  'requests.reminders.rule':
    '{hours, plural, one {A signer whose turn it is gets one once # hour has passed since their last email.} other {A signer whose turn it is gets one once # hours have passed since their last email.}}',
  'requests.reminders.signer_fallback': 'Signer {id}',
  'requests.reminders.sent_count': '{sent} of {max} sent',
  'requests.timeline.title': 'Timeline',
} as const;
