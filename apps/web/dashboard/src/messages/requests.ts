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
  'activity.sms_stop_reply': '{who} replied STOP: their number gets no more SMS (a reply of START undoes it)',
  'activity.sms_opted_out': 'An SMS ({kind}) to {who} was not sent: the number replied STOP',
  'activity.sms_capped': 'An SMS ({kind}) to {who} was not sent: the daily SMS limit ({limit}) was reached',
  'activity.otp_verified': '{who} entered their one-time code',
  'activity.otp_failed': '{who} entered a wrong one-time code',
  'activity.sealed': '{what} was sealed: signed documents and audit trail are ready',
  'activity.request_created': '{what} was created',
  'activity.request_completed': '{what} was completed: everyone has signed',
  'activity.signer_reminded': '{who} was reminded to sign {what}',
  'activity.signer_delegated': '{from} handed {what} on to {to}',
  'activity.signer_delegated_reason': '{from} handed {what} on to {to}: “{reason}”',
  'activity.signer_copy_sealed': 'The copy {who} signed of {what} was sealed',
  'activity.signer_locale': '{who} chose {language} for {what}',
  'activity.otp_locked': "{who}'s one-time code was locked after too many wrong tries",
  'activity.otp_expired': '{who} entered a one-time code that had expired',
  'activity.email_confirmed': '{who} confirmed their email address',
  /** An event this dashboard does not know yet (every audit type has a sentence above). */
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
    '{name} ({status, select, waiting {waiting for their turn} ready {ready (link not sent yet)} sent {invited} viewed {opened} signed {signed} declined {declined} other {{status}}})',
  'requests.row.sent': 'Sent {date}',
  'requests.row.sms_problem': 'SMS not delivered',
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
  'requests.edit_signer.phone': 'Mobile phone',
  'requests.edit_signer.phone_hint':
    'International format, e.g. +49 30 1234567. A signer needs an email or a phone.',
  'requests.edit_signer.language': 'Language',
  'requests.edit_signer.language_default': 'The request’s language',
  'requests.edit_signer.save': 'Save',
  'requests.edit_signer.save_resend': 'Save and resend the link',
  'requests.edit_signer.saved': 'Signer saved',
  'requests.edit_signer.saved_resent': 'Saved and the link was sent again',
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
  'requests.reminders.sent_total': '{sent, plural, =0 {None sent} one {# sent} other {# sent}}',
  'requests.timeline.title': 'Timeline',

  // Reminders and handing on: options of the Send and Bulk send pages, and the account's default.
  'requests.extras.legend': 'Reminders and handing on',
  'requests.extras.remind': 'Remind signers automatically',
  'requests.extras.remind_hint':
    'Signers whose turn it is and who have not signed get their link again by email, counted from the last email each got.',
  'requests.extras.every': 'Every',
  'requests.extras.every_days': '{days, plural, one {# day} other {# days}}',
  'requests.extras.every_hours': '{hours, plural, one {# hour} other {# hours}}',
  'requests.extras.at_most': 'At most',
  'requests.extras.per_signer': '{count, plural, one {# reminder per signer} other {# reminders per signer}}',
  'requests.extras.delegation': 'Let signers hand their turn to someone else',
  'requests.extras.delegation_hint':
    'A signer can name another person with a reason; that person gets a new link and you get an email.',
  'requests.extras.default_title': 'Automatic reminders',
  'requests.extras.default_intro':
    'The default for every request sent without its own choice, from the dashboard, the API or MCP. A request can still set its own schedule or none.',
  'requests.extras.default_save': 'Save reminder default',
  'requests.extras.default_saved': 'Reminder default saved',

  // Send for signature: the page, the form, a signer's fieldset and the options.
  'send.title': 'Send for signature',
  'send.viewer.title': 'Viewers cannot send documents',
  'send.viewer.text': 'Ask an admin of your account to give you the member role.',
  'send.intro':
    'Each signer gets an email with a private link. To send one template to many people from a spreadsheet, use <link>Bulk send</link>.',
  'send.intro_test':
    'Each signer gets an email with a private link (test mode: no credits used). To send one template to many people from a spreadsheet, use <link>Bulk send</link>.',
  'send.no_credits':
    'Your account has no credits left, so sending will be refused. <link>See billing</link>.',
  'send.no_template.title': 'No template to send yet',
  'send.no_template.action': 'Upload a template',
  'send.no_template.text': 'Upload a PDF first; its fields tell each signer what to fill in.',
  'send.form_label': 'Send for signature',
  'send.template': 'Template',
  'send.choose_template': 'Choose a template…',
  'send.no_fields':
    'This template has no fields yet, so it cannot be sent. <link>Place fields in the editor</link>.',
  'send.check_form': 'Check the form',
  'send.order': 'Signing order',
  'send.order.sequential': 'One after another, in the order above',
  'send.order.parallel': 'Everyone at the same time',
  'send.not_sent': 'Not sent.',
  'send.submit': 'Send for signature',
  /** A signer's fieldset, numbered when they sign one after another. */
  'send.signer.numbered': '{number}. {role}',
  'send.signer.name': 'Name',
  'send.signer.email': 'Email',
  'send.signer.phone': 'Mobile phone',
  'send.signer.phone_hint': 'International format, e.g. +49 30 1234567',
  'send.signer.email_or_phone': 'Enter an email address or a mobile phone number.',
  'send.signer.language': 'Language',
  'send.signer.language_default': 'The account’s default',
  'send.signer.delivery': 'Send the link by',
  'send.signer.delivery.email': 'Email',
  'send.signer.delivery.sms': 'SMS',
  'send.signer.delivery.email_and_sms': 'Email and SMS',
  'send.signer.delivery_hint':
    'Without an address for the channel chosen, the other is used. With a phone, the one-time code goes by SMS.',
  'send.signer.prefill': 'Fill in values for {role} (optional)',
  'send.options': 'Message, expiry and security (optional)',
  'send.options.subject': 'Email subject',
  'send.options.subject_placeholder': 'Please sign “{name}”',
  'send.options.body': 'Message to signers',
  'send.options.expires': 'Link expires on',
  'send.options.expires_hint': 'After this day the signing links stop working.',
  'send.options.otp': 'Ask signers for a one-time code sent to their email before they can open the document',
  'send.options.send_email': 'Email the signing links',
  'send.options.send_email_hint': 'Untick to share the links yourself.',

  // Bulk send: the page, the file, the column mapping, the preview, sending and its progress.
  'bulk.viewer': 'Your role (viewer) cannot send',
  'bulk.title': 'Bulk send',
  'bulk.intro':
    'Send one template to many people: one row of a CSV or Excel (.xlsx) file per request. The first row names the columns. Check the preview, then send; every row becomes its own request.',
  'bulk.file.title': 'Template and file',
  'bulk.file.template': 'Template',
  'bulk.file.choose_template': 'Choose a template',
  'bulk.file.spreadsheet': 'Spreadsheet (CSV or XLSX, at most 5,000 rows)',
  'bulk.mapping.title': 'Columns',
  'bulk.mapping.intro':
    "Which column holds each signer's details. Prefilled fields follow the column named like the field.",
  'bulk.mapping.check': 'Check again',
  'bulk.mapping.none': '(none)',
  /** The label of a column choice: the role and what the column holds. */
  'bulk.mapping.column': '{role} {key, select, name {name} email {email} phone {phone} other {{key}}}',
  /** Fields filled from columns: "Company ← company_name, …". */
  'bulk.mapping.prefilled': 'Prefilled: {fields}',
  'bulk.preview.title': 'Preview',
  'bulk.preview.summary':
    '{total, plural, one {# row} other {# rows}}; {invalid, plural, =0 {no errors} other {# with errors}}.',
  'bulk.preview.first_rows': '{count, plural, one {First row} other {First # rows}}',
  'bulk.preview.other_invalid': 'Other rows with errors',
  'bulk.preview.row': 'Row',
  'bulk.preview.check': 'Check',
  /** A row that will not be sent, with its errors (from the server). */
  'bulk.preview.not_sent': '<b>Not sent:</b> {errors}',
  'bulk.preview.ok': 'OK',
  'bulk.send.title': 'Send',
  'bulk.send.summary': '{sending} of {total, plural, one {# row} other {# rows}} will be sent.',
  'bulk.send.summary_skipped':
    '{sending} of {total, plural, one {# row} other {# rows}} will be sent; {invalid, plural, one {# with errors is skipped and reported} other {# with errors are skipped and reported}}.',
  'bulk.send.no_credits': 'Not enough credits to send this template: buy credits first.',
  'bulk.send.submit': '{count, plural, one {Send # request} other {Send # requests}}',
  'bulk.progress.title': 'Sending “{name}”',
  'bulk.progress.bar': 'Rows processed',
  'bulk.progress.status':
    '{state, select, completed {Done} stopped {Stopped} other {Sending}}: {sent} sent, {failed} not sent (errors), {pending} waiting, of {total}.',
  'bulk.progress.resume': 'Resume',
  'bulk.progress.download': 'Download results (CSV)',

  // Copies and notices: the CC and notify fields of the send forms, and the account's defaults.
  'copies.legend': 'Copies and notices (optional)',
  'copies.cc': 'CC',
  'copies.cc.placeholder': 'lawyer@example.com',
  'copies.cc.hint':
    'Copied on the request: a read-only link when it is sent, the signed documents when it is completed. Never asked to sign.',
  'copies.cc.hint_defaults':
    'Copied on the request: a read-only link when it is sent, the signed documents when it is completed. Never asked to sign. Your account also copies {list}.',
  'copies.notify': 'Notify when it ends',
  'copies.notify.placeholder': 'office@example.com',
  'copies.notify.hint': 'Told when the request is completed, declined, expires or is canceled.',
  'copies.notify.hint_defaults':
    'Told when the request is completed, declined, expires or is canceled. Your account also notifies {list}.',
  'copies.too_many': '{max, plural, one {At most # address} other {At most # addresses}}',
  'copies.invalid': 'Enter email addresses separated by commas, like lawyer@example.com',
  'copies.defaults.title': 'Copies on every request',
  'copies.defaults.intro':
    'Added to every request this account sends, through the dashboard, the API or MCP (each address once).',
  'copies.defaults.admin_only': 'Only an admin can change them.',
  'copies.defaults.legend': 'Default addresses',
  'copies.defaults.save': 'Save copies',
  'copies.defaults.saved': 'Saved',
} as const;
