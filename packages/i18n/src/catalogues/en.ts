import { auditEn } from './audit/en.ts';
import { formEn } from './form/en.ts';
import { mailEn } from './mail/en.ts';
import { PARTS_EN } from './parts.ts';

/**
 * English: the source catalogue. Every other language has exactly these keys (test/catalogues.test.ts)
 * with the same ICU arguments. Messages are ICU MessageFormat (FormatJS intl-messageformat):
 * `{name}` an argument, `{count, plural, one {…} other {…}}` a plural, `'` quotes (write ’ for an
 * apostrophe in text).
 */
export const en = {
  // Language switcher
  'lang.label': 'Language',

  // The page shell and whole-page statuses
  'page.title': 'Sign document',
  'page.loading': 'Loading the document…',
  'page.noscript':
    'This signing page needs JavaScript to show the document and record your signature. Turn on JavaScript in your browser, or open this link in another browser. If you cannot, contact the person who sent you the document.',
  'page.try_again': 'Try again',
  'status.invalid_link.title': 'This signing link is not valid',
  'status.invalid_link.body':
    'Check that you opened the whole link from your email or text message. If it still does not work, ask the sender for a new link.',
  'status.signed.title': 'Document signed',
  'status.signed.body':
    'Thank you. Your signature has been recorded and the sender has been notified. You can close this page.',
  'status.signed.redirect': 'Thank you. Taking you back now…',
  'status.declined.title': 'You declined to sign',
  'status.declined.body': 'The sender has been told that you declined. You can close this page.',
  'status.canceled.title': 'This request was canceled',
  'status.canceled.body':
    'The sender canceled this signature request, so it can no longer be signed. Contact the sender if you think this is a mistake.',
  'status.expired.title': 'This signing link has expired',
  'status.expired.body': 'The time to sign this document has passed. Ask the sender to send it again.',
  'status.archived.title': 'This document is no longer available',
  'status.archived.body':
    'The sender has withdrawn the template this request was made from, so it can no longer be signed.',
  'status.other_declined.title': 'This request was declined',
  'status.other_declined.body':
    'Another signer declined this signature request, so it can no longer be signed.',
  'status.completed.title': 'This document is fully signed',
  'status.completed.body': 'Everyone has signed this document. There is nothing left for you to do.',
  'status.waiting.title': 'It is not your turn yet',
  'status.waiting.body':
    'Someone else has to sign this document before you. You will get a message with your link when it is your turn.',
  'status.finished.title': 'You have already finished',
  'status.finished.body':
    'This document has already been signed or declined, so this link no longer opens it. You can close this page.',
  'status.closed.title': 'This request is closed',
  'status.closed.body':
    'It can no longer be signed: the sender canceled it, someone declined it, or the time to sign ran out. Contact the sender if you still need to sign.',
  'status.rate_limited.title': 'Too many attempts',
  'status.rate_limited.body': 'Please wait a minute, then try again.',
  'status.network.title': 'Cannot reach the server',
  'status.network.body': 'Check your internet connection, then try again.',
  'status.error.title': 'Something went wrong',
  'status.error.body':
    'The document could not be loaded. Try again in a moment; if it keeps happening, contact the sender.',

  // The email code gate
  'code.title': 'Confirm your email address',
  'code.intro_titled': 'To open “{title}”, enter a one-time code that we email to {email}.',
  'code.intro': 'To open this document, enter a one-time code that we email to {email}.',
  'code.you': 'you',
  'code.send': 'Email me a code',
  'code.send_again': 'Send a new code',
  'code.sent': 'We sent a code to {email}.',
  'code.sent_until': 'We sent a code to {email}. It expires at {time}.',
  'code.label': 'Code from the email',
  'code.hint': 'Check your inbox, and the spam folder if it is not there.',
  'code.verify': 'Verify',
  'code.too_short': 'Enter the code from the email.',
  'code.title_sms': 'Confirm your phone number',
  'code.intro_titled_sms': 'To open “{title}”, enter a one-time code that we text to your phone.',
  'code.intro_sms': 'To open this document, enter a one-time code that we text to your phone.',
  'code.send_sms': 'Text me a code',
  'code.label_sms': 'Code from the text message',
  'code.hint_sms': 'It can take a minute to arrive.',
  'code.too_short_sms': 'Enter the code from the text message.',
  'code.wait_minute': 'a minute',
  'code.wait_seconds': '{count, plural, one {# second} other {# seconds}}',
  'code.wait_minutes': '{count, plural, one {# minute} other {# minutes}}',
  'code.request_limited': 'We cannot send another code yet. You can ask again in {wait}.',
  'code.verify_limited': 'Too many attempts. Try again in {wait}.',
  'code.network': 'Cannot reach the server. Check your internet connection, then try again.',

  // The signing screen
  'sign.document': 'Document',
  'sign.doc_title': 'Sign: {title}',
  'sign.signing_as': 'Signing as {who}',
  'sign.signing_as_role': 'Signing as {who} ({role})',
  'sign.preview_as': 'Preview as {role}: nothing you enter is saved',
  'sign.badge_preview': 'Preview',
  'sign.badge_test': 'Test',
  'sign.sender_message': 'Message from the sender',
  'sign.intro_none': 'Review the document, then select Finish to review and sign it.',
  'sign.intro':
    'Fill in the highlighted fields on the document{required, plural, =0 {} one {; the one marked with * is required} other {; the # marked with * are required}}. Next field takes you to each one in turn. Select Finish when you are done: you review what you entered before you sign.',
  'sign.others_note':
    'What {names} already signed is shown on the document as it will appear in the signed copy.',
  'sign.announce':
    '{title}. {fields, plural, one {# field} other {# fields}} to fill in, {required, plural, other {# required}}.',
  'sign.next': 'Next field',
  'sign.finish': 'Finish',
  'sign.decline': 'Decline',
  'sign.fit': 'Fit page',
  'sign.progress': '{done} of {total} required done',
  'sign.page_label': '{name}, page {page} of {pages}',
  'sign.page_error': 'This page could not be loaded. Reload the page to try again.',
  'sign.required_tip': 'Required',
  'sign.other_signer': 'Another signer',
  'sign.other_signed_by': 'Signed by {who}: {field}, {value}',
  'sign.other_filled_by': 'Filled in by {who}',
  'sign.a_picture': 'a picture',
  'sign.prefilled_said': '{field}, filled in by the sender: {value}',
  'sign.field_required': '{field}, required',

  // Values in words
  'value.empty': 'empty',
  'value.checked': 'checked',
  'value.not_checked': 'not checked',
  'value.signed': 'signed',
  'value.initialled': 'initialled',
  'value.image_added': 'image added',
  'value.file': 'file {name}',
  'type.text': 'text',
  'type.signature': 'signature',
  'type.initials': 'initials',
  'type.date': 'date',
  'type.checkbox': 'checkbox',
  'type.number': 'number',
  'type.phone': 'phone number',
  'type.select': 'list',
  'type.radio': 'choice',
  'type.multiple': 'multiple choice',
  'type.image': 'image',
  'type.file': 'file',
  'type.stamp': 'stamp',
  'type.cells': 'text in boxes',
  'field.label': '{name} ({type})',
  'field.label_required': '{name} ({type}, required)',
  'field.description': '{type} field, optional',
  'field.description_required': '{type} field, required',

  // Announcements while filling in
  'fill.checkbox_checked': '{field} checked.',
  'fill.field_cleared': '{field} cleared.',
  'fill.field_saved': '{field} saved.',
  'fill.checkbox_unchecked': '{field} not checked.',
  'fill.left': '{count, plural, one {# required field left.} other {# required fields left.}}',
  'fill.all_done': 'All required fields are filled in.',
  'fill.all_done_finish': 'All required fields are filled in. Select Finish to sign.',
  'fill.checkbox_hint': '{field}: checkbox. Press Space to check it.',
  'fill.save': 'Save',
  'fill.save_next': 'Save and next',

  // Field editors
  'edit.clear': 'Clear',
  'edit.cancel': 'Cancel',
  'edit.close': 'Close',
  'edit.choose': 'Choose…',
  'edit.hint_phone': 'For example +1 555 010 0000.',
  'edit.hint_date': 'Type the date like this: {example}.',
  'edit.hint_cells': 'Each character goes into its own box on the document.',
  'edit.hint_multiline': 'Press Enter for a new line, Ctrl+Enter to save.',
  'edit.image_choose': '{field}: choose an image',
  'edit.image_preview': 'Preview of the chosen image',
  'edit.image_added': 'An image is added.',
  'edit.image_hint': 'PNG or JPEG. Large pictures are made smaller before upload.',
  'edit.image_preparing': 'Preparing the image…',
  'edit.file_choose': '{field}: choose a file',
  'edit.file_added': 'Added: {name}',
  'edit.file_hint': 'Up to 10 MB.',
  'edit.file_reading': 'Reading the file…',
  'edit.file_ready': '{name} is ready.',
  'edit.error_image_type': 'Choose an image file (PNG or JPEG).',
  'edit.error_image_read': 'This image could not be read. Choose a PNG or JPEG file.',
  'edit.error_image_large': 'This image is too large. Choose a smaller one.',
  'edit.error_file_large': 'This file is larger than {mb} MB.',
  'edit.error_file_read': 'This file could not be read.',
  'edit.error_text_long': 'Use at most {max} characters.',
  'edit.error_number': 'Enter a number, for example {example}.',
  'edit.error_phone': 'Enter a phone number: digits, spaces and + ( ) - . / only.',
  'edit.error_date': 'Enter a date like this: {example}.',
  'edit.error_no_text': 'This field does not take typed text.',
  'edit.error_required': 'This field is required.',
  'edit.error_choose': 'Choose one of the options.',

  // The signature and initials editor
  'sig.current': 'Current',
  'sig.use_mine': '{initials, select, true {Use my initials} other {Use my signature}}',
  'sig.draw': 'Draw',
  'sig.type': 'Type',
  'sig.upload': 'Upload',
  'sig.how': '{initials, select, true {How to add your initials} other {How to add your signature}}',
  'sig.yours': '{initials, select, true {Your initials} other {Your signature}}',
  'sig.pad':
    '{initials, select, true {Drawing area for your initials.} other {Drawing area for your signature.}} Draw with a mouse, finger or pen, or choose Type to type it instead.',
  'sig.draw_hint':
    '{initials, select, true {Draw your initials in the box.} other {Draw your signature in the box.}}',
  'sig.clear_drawing': 'Clear drawing',
  'sig.draw_missing':
    '{initials, select, true {Draw your initials in the box, or choose Type to type them instead.} other {Draw your signature in the box, or choose Type to type it instead.}}',
  'sig.type_label': '{initials, select, true {Type your initials} other {Type your full name}}',
  'sig.for_field': ' for {field}',
  'sig.type_missing': '{initials, select, true {Type your initials.} other {Type your name.}}',
  'sig.upload_label':
    '{initials, select, true {Upload a picture of your initials} other {Upload a picture of your signature}}',
  'sig.uploaded': '{initials, select, true {Uploaded initials} other {Uploaded signature}}',
  'sig.upload_hint': 'PNG or JPEG, ideally on a white or clear background.',
  'sig.upload_missing':
    '{initials, select, true {Choose a picture of your initials.} other {Choose a picture of your signature.}}',

  // Errors on the page
  'problem.title': 'There is a problem',
  'problem.missing': '{count, plural, one {One required field is empty} other {# required fields are empty}}',
  'problem.request_failed': 'Request failed',
  'problem.something_wrong': 'Something went wrong.',
  'problem.no_server': 'Could not reach the server.',
  'save.preview': 'Preview: nothing is saved',
  'save.unsaved': 'Unsaved changes',
  'save.saving': 'Saving…',
  'save.saved': 'All changes saved',
  'save.retrying': 'Not saved yet, retrying…',
  'save.failed': 'Not saved',
  'save.failed_detail': 'Your last change could not be saved: {reason}',

  // The review step
  'review.preview_ok':
    'Preview: everything required is filled in. A preview signs nothing and saves nothing.',
  'review.title': 'Review and sign',
  'review.description': 'Check what you entered. To change something, select Cancel and edit the field.',
  'review.sign': 'Sign',
  'review.by_sender': ' (filled in by the sender)',
  'review.nothing': 'There is nothing for you to fill in: you are signing the document as it is.',
  'review.list': 'What you entered',
  'review.signing': 'Signing the document…',
  'review.session_ended': 'Your session has ended: enter a new code from the email.',
  'review.session_ended_sms': 'Your session has ended: enter a new code from the text message.',
  'review.network':
    'The document could not be signed because the server could not be reached. Check your connection and select Sign again.',
  'review.failed': 'The document could not be signed: {reason}',
  'consent.text':
    'By selecting Sign you agree that your electronic signature and the values you entered are the legal equivalent of your handwritten signature on this document.',

  // Declining
  'decline.title': 'Decline to sign',
  'decline.description':
    'The sender will be told that you declined, with your reason. You cannot sign this document afterwards.',
  'decline.label': 'Reason for declining (required)',
  'decline.hint': 'For example: the details in the document are wrong.',
  'decline.submit': 'Decline',
  'decline.missing': 'Enter a reason for declining.',
  'decline.failed': 'Could not decline: {reason}',

  // Emails to signers and to the addresses the sender copied (cc): mail/en.ts
  ...mailEn,

  // The public signing link (/l/{token})
  'link.page_title': 'Sign {title}',
  'link.intro':
    'Enter your name and email address. We email you a code to confirm the address, then you can read and sign the document.',
  'link.name': 'Full name',
  'link.email': 'Email address',
  'link.send': 'Email me a code',
  'link.code_page_title': 'Confirm your email – {title}',
  'link.code_sent': 'We sent a six-digit code to {email}. It works for 10 minutes.',
  'link.code_label': 'Code from the email',
  'link.confirm': 'Confirm and open the document',
  'link.off.title': 'This signing link is turned off',
  'link.off.body': '{title}: its owner has turned this link off. Contact them if you still need to sign.',
  'link.full.title': 'This signing link is no longer available',
  'link.full.body':
    '{title}: it has reached the number of signatures its owner allowed. Contact them if you still need to sign.',
  'link.not_found': 'Signing link not found',
  'link.not_open': 'This signing link is not available',
  'link.refused': 'Refused',
  'link.refused_body': 'This form can only be sent from this site.',
  'link.bad_email': 'Enter a valid email address, like name@example.com.',
  'link.bad_name': 'Enter your full name.',
  'link.bad_code': 'Enter the six-digit code from the email.',
  'link.code_unknown': 'This code request is unknown; ask for a new code.',
  'link.code_used': 'This code was already used; open the link again to sign another copy.',
  'link.code_expired': 'This code has expired; ask for a new one.',
  'link.code_too_many': 'Too many wrong codes: ask for a new code.',
  'link.code_wrong': 'That code is not right; check the email and try again.',
  'link.code_other_link': 'This code belongs to another link.',
  'link.busy': 'This signing link is busy; try again in {minutes} min.',
  'link.too_many_email': 'Too many codes were sent to this email address; try again in {minutes} min.',
  'link.too_many_ip': 'Too many codes were asked for from your network; try again in {minutes} min.',

  // The audit trail: audit/en.ts
  ...auditEn,

  // Text messages (SMS) to signers: short, a message is paid per segment (160 GSM characters, 70 with any other).
  // Every language writes them in the GSM 7-bit alphabet where it can: straight quotes, no letter
  // outside it (core sms/segments.ts; the budget test is core test/sms-segments.test.ts).
  'sms.invite': '{sender} asks you to sign "{title}".',
  'sms.next': 'It is your turn to sign "{title}", sent by {sender}.',
  'sms.reminder': 'Reminder: {sender} is waiting for your signature on "{title}".',
  'sms.expires': 'Link expires {date}.',
  'sms.private': 'Private link, do not forward:',
  'sms.code':
    '{code} is your code to sign "{title}", sent by {sender}. Valid for {minutes, plural, one {# minute} other {# minutes}}. Never share it.',
  'sms.done': 'Everyone has signed "{title}". Your signed copy, until {date}:',
  'sms.done_test':
    'Everyone has signed "{title}" (test mode, not legally binding). Your signed copy, until {date}:',

  // Handing the turn to someone else
  'delegate.button': 'Someone else signs',
  'delegate.title': 'Hand this to someone else',
  'delegate.description':
    'Name the person who should sign instead of you. They get their own link and start from an empty form; what you entered is discarded. The sender is told, with your reason. Your link stops working.',
  'delegate.name': 'Their full name (required)',
  'delegate.email': 'Their email address',
  'delegate.phone': 'Or their phone number',
  'delegate.contact_hint':
    'An email address or a phone number in international format, for example +49 30 1234567.',
  'delegate.language': 'The language they read (invitation and signing page)',
  'delegate.reason': 'Why should they sign instead of you? (required)',
  'delegate.reason_hint': 'For example: I no longer work in this role; my colleague handles this contract.',
  'delegate.submit': 'Hand it over',
  'delegate.need_name': 'Enter the name of the person who signs instead.',
  'delegate.need_contact': 'Enter their email address or their phone number.',
  'delegate.need_reason': 'Enter a reason.',
  'delegate.failed': 'Could not hand it over: {reason}',
  'delegate.done_title': 'Handed to someone else',
  'delegate.done_body':
    '{name} will sign instead of you and the sender has been told. This link no longer works; you can close this page.',

  // The server's refusals a signer can read on the page (the API keeps the English message; CoreError messageKey)
  'error.link_invalid': 'This signing link is not valid',
  'error.not_open': 'This signature request is closed; the link no longer works',
  'error.all_signed': 'This document is already signed by everyone',
  'error.signer_signed': 'You have already signed this document',
  'error.signer_declined': 'You have already declined this document',
  'error.not_turn': 'It is not your turn to sign yet; an earlier signer must sign first',
  'error.code_wrong': 'That code is not correct; {left, plural, one {# try} other {# tries}} left',
  'error.code_expired': 'This code has expired; ask for a new one',
  'error.code_locked': 'Too many wrong codes: this code no longer works. Ask for a new code.',
  'error.code_none': 'No code is waiting to be entered; ask for a new one',
  'error.delegation_off': 'The sender of this request does not allow handing it to someone else',
  'error.delegation_contact': 'Enter an email address or a phone number for the new signer',
  'error.delegation_self': 'Name someone other than yourself to sign instead',
  'error.delegation_phone': 'Enter the phone number in international format, for example +49 30 1234567',
  'error.missing_fields':
    '{count, plural, one {Required field missing: {names}} other {Required fields missing: {names}}}',
  'error.prefilled': 'Field "{field}" was filled in by the sender and cannot be changed',
  'error.value_text': '"{field}": enter text here',
  'error.value_too_long': '"{field}": at most {max, number} characters',
  'error.value_phone': '"{field}": enter a phone number, for example +49 30 1234567',
  'error.value_date': '"{field}": enter a valid date, like this: {example}',
  'error.value_number': '"{field}": enter a number, for example {example}',
  'error.value_choice': '"{field}": choose from the options offered',
  'error.value_image': '"{field}": this picture cannot be used; use a PNG or JPEG image of at most 3 MB',
  'error.value_file': '"{field}": this file cannot be used; a file can be at most 10 MB',
  ...formEn,
  'error.value_unknown': '"{field}" is not one of your fields in this document',
  'error.code_not_needed': 'This signing link does not need a code',
  'error.code_no_address': 'There is no email address or phone number to send a code to; ask the sender',
  'error.code_sms_capped':
    "No code was texted to you: the sender's SMS limit for today is reached. Contact {who} to sign.",

  // The read-only page of a CC recipient (/cc/{token}), in the request's language (issue 42.6)
  'cc.page_title': '{title} (copy)',
  'cc.lead': 'You were copied on this request. This page is read-only: it cannot be used to sign.',
  'cc.lead_by': '{sender} copied you on this request. This page is read-only: it cannot be used to sign.',
  'cc.status.sent': 'Waiting for signatures',
  'cc.status.in_progress': 'Being signed',
  'cc.status.completed': 'Completed: everyone has signed',
  'cc.status.declined': 'Declined by a signer',
  'cc.status.canceled': 'Canceled by the sender',
  'cc.status.expired': 'Expired',
  'cc.signer.waiting': 'Not yet their turn',
  'cc.signer.sent': 'Invited',
  'cc.signer.viewed': 'Opened the document',
  'cc.signer.signed': 'Signed',
  'cc.signer.declined': 'Declined',
  'cc.a_signer': 'Signer',
  'cc.signers': 'Signers',
  'cc.col_signer': 'Signer',
  'cc.col_status': 'Status',
  'cc.col_signed': 'Signed',
  'cc.documents': 'Documents',
  'cc.signed_documents': 'Signed documents',
  'cc.audit_trail': 'Audit trail',
  'cc.footer': 'Sent {date}. Links to the files work for a limited time; reload this page for fresh ones.',
  'cc.not_found.title': 'Link not found',
  'cc.not_found.body': 'This link is not valid. Ask the sender for a new copy.',
  'file.combined': '{title} - signed',
  'file.audit_trail': '{title} - audit trail',
  ...PARTS_EN,
} as const;

/** A message's key. */
export type MessageKey = keyof typeof en;
/** A whole catalogue: every key, in one language. */
export type Catalogue = Record<MessageKey, string>;
