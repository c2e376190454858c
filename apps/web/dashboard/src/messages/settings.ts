/** Words of webhooks, billing, verification and the shared parts: buttons, dialogs, tables, errors from the server (pages/webhooks/, webhooks, pages/billing/, billing, billing-errors.ts, verify, ui, trpc.ts, table, shell). */
export const settings = {
  // Shared parts (ui.tsx, table.tsx, shell.tsx): loading, copy buttons, dialogs, toasts, lists.
  'ui.loading': 'Loading…',
  // The toasts' region ({hotkey}: the key that moves there, F8) and each toast, for screen readers.
  'ui.notifications': 'Notifications ({hotkey})',
  'ui.notification': 'Notification',
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

  // Webhooks page: the endpoints, their signing secrets and the delivery log.
  'webhooks.title': 'Webhooks',
  'webhooks.admin_only_what': 'Webhook endpoints',
  'webhooks.lead':
    'We POST signed events to your endpoints when templates, requests and signers change ({environment, select, test {test data} other {live data}}).',
  'webhooks.add': 'Add endpoint',
  'webhooks.add_title': 'Add an endpoint',
  'webhooks.add_first': 'Add your first endpoint',
  'webhooks.added_secret_title': 'Endpoint added: its signing secret',
  'webhooks.secret_description':
    "Your receiver checks each delivery's X-Esign-Signature with this secret. Keep it private.",
  'webhooks.copy_secret': 'Copy secret',
  'webhooks.done': 'Done',
  'webhooks.empty_title': 'No endpoints yet',
  'webhooks.empty': 'Add the URL of a server that should hear about signatures as they happen.',
  'webhooks.http_status': 'HTTP {code}',

  // One endpoint's card.
  'webhooks.endpoint.label': 'Endpoint {url}',
  'webhooks.endpoint.enabled': 'enabled',
  'webhooks.endpoint.disabled': 'disabled',
  'webhooks.endpoint.events': '{count, plural, one {# event} other {# events}}: {events}',
  'webhooks.endpoint.custom_headers': 'custom headers: {names}',
  'webhooks.endpoint.send_test': 'Send test',
  'webhooks.endpoint.test_delivered': 'Test delivered: HTTP {code}',
  'webhooks.endpoint.test_failed': 'Test failed: {error}',
  'webhooks.endpoint.edit': 'Edit',
  'webhooks.endpoint.edit_title': 'Edit endpoint',
  'webhooks.endpoint.save': 'Save',
  'webhooks.endpoint.saved': 'Endpoint saved',
  'webhooks.endpoint.reveal_secret': 'Reveal secret',
  'webhooks.endpoint.secret_title': 'Signing secret',
  'webhooks.endpoint.rotate_secret': 'Rotate secret',
  'webhooks.endpoint.rotate_title': 'Rotate the signing secret?',
  'webhooks.endpoint.rotate_description':
    'Deliveries are signed with the new secret at once; update your receiver right away.',
  'webhooks.endpoint.rotate': 'Rotate',
  'webhooks.endpoint.new_secret_title': 'New signing secret',
  'webhooks.endpoint.disable': 'Disable',
  'webhooks.endpoint.enable': 'Enable',
  'webhooks.endpoint.disabled_toast': 'Endpoint disabled: no new deliveries',
  'webhooks.endpoint.delete': 'Delete',
  'webhooks.endpoint.delete_title': 'Delete this endpoint?',
  // {url} is the endpoint's URL (shown as code).
  'webhooks.endpoint.delete_description':
    '{url} stops receiving events at once: deliveries waiting to be sent or retried are dropped, and its delivery log is deleted. This cannot be undone.',
  'webhooks.endpoint.delete_confirm': 'Delete endpoint',
  'webhooks.endpoint.deleted_toast': 'Endpoint deleted: no more deliveries',

  // The endpoint form (add and edit).
  'webhooks.form.url': 'URL',
  'webhooks.form.events': 'Events',
  'webhooks.form.headers': 'Custom headers (optional)',
  'webhooks.form.header_name': 'Header {number} name',
  'webhooks.form.header_value': 'Header {number} value',
  'webhooks.form.header_value_placeholder': 'value',
  'webhooks.form.remove_header': 'Remove header {number}',
  'webhooks.form.remove': 'Remove',
  'webhooks.form.add_header': 'Add a header',

  // The delivery log: a delivery's status (as the API names it), attempts and Retry now.
  'webhooks.deliveries.title': 'Delivery log',
  'webhooks.deliveries.endpoint': 'Endpoint',
  'webhooks.deliveries.all_endpoints': 'All endpoints',
  'webhooks.deliveries.empty_title': 'No deliveries yet',
  'webhooks.deliveries.empty': 'Send a test event, or create a template or request to trigger one.',
  'webhooks.delivery.status':
    '{status, select, pending {pending} succeeded {succeeded} failed {failed} other {{status}}}',
  'webhooks.delivery.attempts': '{count, plural, one {# attempt} other {# attempts}}',
  'webhooks.delivery.next_try': 'next try {time}',
  'webhooks.delivery.attempt': 'Attempt {number} at {time}: {outcome}',
  'webhooks.delivery.attempt_timed': 'Attempt {number} at {time}: {outcome} in {duration} ms',
  'webhooks.delivery.in_flight': 'in flight',
  'webhooks.delivery.event_id': 'Event id {id}',
  'webhooks.delivery.retry': 'Retry now',
  'webhooks.delivery.delivered': 'Delivered',
  'webhooks.delivery.retry_failed': 'Attempt failed: {error}',
  'webhooks.delivery.no_answer': 'no answer',

  // Billing page: balance, billing country, packs for sale and recent checkouts.
  'billing.title': 'Billing',
  'billing.lead':
    'Credits are shared by everyone in the account. One credit is used per signed document: a template uses a credit the first time it is signed, and sending the same template again uses no further credit. Test mode and the lifetime plan use none.',
  'billing.lifetime_note':
    'Your account is on the lifetime plan: sending never uses credits, so there is nothing to buy.',
  'billing.members_note':
    'Admins of your account manage billing and buy credits. Ask one of them (see the Team page) if you need more.',
  'billing.balance.title': 'Balance',
  'billing.balance.unlimited': 'Unlimited',
  'billing.balance.credits': '{count, plural, one {# credit} other {# credits}}',
  'billing.balance.lifetime': 'Lifetime plan: unlimited signed documents.',
  'billing.balance.how_used': 'One credit is used the first time a template is signed.',
  'billing.balance.overdraft': 'You may go down to {limit} before sending is blocked.',
  'billing.balance.can_send': 'You can send documents for signature.',
  'billing.balance.blocked': 'Sending is blocked until credits are added.',
  'billing.country.invalid': 'Enter a two-letter country code such as US or DE',
  'billing.country.saved': 'Billing country saved',
  'billing.country.current':
    'Billing country: <strong>{country}</strong> (change it on your <link>Account</link> page).',
  'billing.country.title': 'Billing country',
  'billing.country.intro': 'Add the country you are billed in once, before your first purchase.',
  'billing.country.label': 'Billing country',
  'billing.country.placeholder': 'US',
  'billing.country.hint': 'Two-letter code, such as US, DE or FR.',
  'billing.country.save': 'Save country',
  'billing.packs.title': 'Buy credits',
  'billing.packs.list_label': 'Credit packs',
  'billing.packs.empty_title': 'No credit packs are for sale right now',
  'billing.packs.empty': 'The operator of this server adds packs (esign pack create).',
  'billing.packs.discount_code': 'Discount code (optional)',
  'billing.packs.discount_hint': 'Applies to the pack you buy next.',
  'billing.packs.how_buying_works':
    'Buy opens the payment page; you come back here when the payment is done. Credits are added once the payment is confirmed.',
  'billing.pack.lifetime_badge': 'Lifetime deal',
  'billing.pack.unlimited': 'Unlimited signed documents, for life',
  'billing.pack.credits':
    '{credits, plural, one {# credit} other {# credits}} · {below, select, yes {less than {price} per credit} other {{price} per credit}}',
  'billing.pack.buy': 'Buy',
  'billing.pack.buy_label': 'Buy {name} for {price}',
  'billing.checkouts.title': 'Your recent checkouts',
  'billing.checkouts.none': 'You have not bought any credits yet.',
  'billing.checkouts.started': 'Started',
  'billing.checkouts.pack': 'Pack',
  'billing.checkouts.amount': 'Amount',
  'billing.checkouts.status': 'Status',
  'billing.checkouts.code': '(code {code})',
  'billing.checkouts.pending': 'Waiting for payment',
  'billing.checkouts.completed': 'Paid',
  'billing.checkouts.failed': 'Failed or canceled',
  'billing.checkouts.continue': 'Continue to payment',

  // Why a checkout could not start (billing-errors.ts; the codes are the API's).
  'billing.error.billing_details_required': 'Add your billing country before buying credits.',
  'billing.error.invalid_discount_code':
    'That discount code cannot be used: check its spelling, or it may have expired, been used up, or be meant for another pack. Clear it to buy at the full price.',
  'billing.error.already_purchased':
    'Your account already has the lifetime deal, so sending is unlimited: there is nothing more to buy.',
  'billing.error.payment_provider_error':
    'The payment provider could not start the checkout. Nothing was charged; please try again in a moment.',
  'billing.error.forbidden': 'Only admins of your account can buy credits.',
  'billing.error.not_found': 'That pack is no longer for sale. Pick another one.',

  // The public verify page: drop a PDF, read whether this service sealed it unchanged.
  'verify.title': 'Verify a signed document',
  'verify.lead':
    'Drop a PDF you received: we check whether this service sealed it and whether anything changed since. The file is checked and forgotten: it is not stored.',
  'verify.drop': 'Drop a PDF here',
  'verify.drop_hint': 'or press to choose one (up to 25 MB)',
  'verify.too_large': '{name} is {size} MB; files up to 25 MB can be checked.',
  'verify.could_not_read': 'Could not read {name}',
  'verify.failed': 'This file could not be checked.',
  // Why a file could not be checked, in plain words (the API keeps its technical reasons).
  'verify.problem.not_pdf':
    'This file is not a PDF. Choose the signed PDF document you received (its name usually ends in .pdf).',
  'verify.problem.empty': 'This file is empty. Choose the signed PDF document you received.',
  'verify.problem.unreadable':
    'This file could not be read. Save the signed PDF document again, then choose it here.',
  'verify.problem.too_large': 'This file is larger than 25 MB, the most that can be checked here.',
  'verify.problem.rate_limited':
    'Too many files checked from your address in the last minute. Wait a minute, then try again.',
  // In plain words first, by verdict; the verifier's own (technical) summary after it, folded.
  'verify.plain.authentic': 'This is the file this service sealed, and nothing in it has changed since.',
  'verify.plain.signer_copy':
    "This is a signer's own copy, sealed by this service, and nothing in it has changed since.",
  'verify.plain.intact_signature':
    'Its signatures are intact, but this service did not seal this file, so it cannot say more about it.',
  'verify.plain.broken':
    'A signature in this file does not match the file: the file was damaged or changed after it was signed. Ask the sender for the original.',
  'verify.plain.modified':
    'Someone changed this document after it was signed. Ask the sender for the original.',
  'verify.plain.differs':
    'Its signatures are intact, but the file is not exactly the one this service produced. Ask the sender for the original.',
  'verify.plain.unsigned':
    'This file carries no electronic signature, so nothing shows who signed it or whether it changed.',
  'verify.details': 'Technical details',
  'verify.checking': 'Checking the signatures…',
  'verify.again': 'Check another file',
  // The verdict: a short badge (the API's verdict) and a headline.
  'verify.verdict.badge':
    '{verdict, select, authentic {authentic} intact_signature {intact signature} modified {modified} unsigned {unsigned} other {{verdict}}}',
  'verify.verdict.authentic': 'Authentic: sealed by this service and unchanged',
  'verify.verdict.intact_signature': 'Signatures intact, but not a file this service sealed',
  'verify.verdict.modified': 'Changed after it was signed',
  'verify.verdict.unsigned': 'Not signed',
  // The facts about the file.
  'verify.fact.what': 'What it is',
  'verify.fact.changed': 'Changed',
  'verify.fact.sealed_by': 'Sealed by',
  'verify.fact.when': 'When',
  'verify.fact.level': 'Level',
  'verify.fact.sha256': 'SHA-256',
  'verify.what.document':
    'The sealed document “{name}”{test, select, true { (made in test mode: not legally binding)} other {}}.',
  'verify.what.audit_trail':
    'The audit trail of “{name}”{test, select, true { (made in test mode: not legally binding)} other {}}.',
  'verify.what.combined':
    'The combined file (every document and the audit trail) “{name}”{test, select, true { (made in test mode: not legally binding)} other {}}.',
  'verify.what.signer_copy':
    "Signer {number}'s own signed copy of “{name}”, made when they signed{test, select, true { (made in test mode: not legally binding)} other {}}.",
  'verify.what.final_exists':
    'A later final document, sealed once everyone had signed, exists: ask for that one.',
  'verify.what.final_not_yet': 'The final document, with every signature, did not exist yet.',
  'verify.changed.pages': '{count, plural, one {Page {last}} other {Pages {others} and {last}}}',
  'verify.changed.pages_and_file': '{pages}, and the file itself (its structure, form or signatures)',
  'verify.changed.file': 'The file itself (its structure, form or signatures)',
  'verify.sealed_by': "{name}{service, select, true { (this service's sealing certificate)} other {}}",
  'verify.unknown_signer': 'an unknown signer',
  'verify.when.timestamped': '{time}, certified by a timestamp authority',
  'verify.when.stated': '{time}, as the file states it',
  'verify.level.b_b': 'PAdES B-B: a basic electronic seal; the time is the one the service wrote',
  'verify.level.b_t': 'PAdES B-T: sealed, with a trusted timestamp',
  'verify.level.b_lt': 'PAdES B-LT: timestamped, with the certificate checks kept in the file',
  'verify.level.b_lta':
    'PAdES B-LTA: timestamped, certificate checks kept in the file, and an archive timestamp',
  'verify.changes.title': 'What changed after signing',
  'verify.change.text': '{description} (revision {revision})',
  'verify.change.on_page': 'Page {page}: {description} (revision {revision})',
  // Each signature, and what was changed after it (issue 40: the modification level).
  'verify.signatures.title': 'Each signature',
  'verify.signature.who':
    '{kind, select, certification {Certified by {name}} document_timestamp {Timestamp by {name}} other {Signed by {name}}}{valid, select, true {} other { (this signature does not check)}}',
  'verify.signature.after':
    '{level, select, none {Nothing was changed after it.} validation_data {After it, only data for checking the signatures later was added (certificate checks, timestamps).} form_filling {After it, form fields were filled in or further signatures were added.} annotations {After it, comments or markings were added or changed on the pages.} other {After it, the document itself was changed.}}',
  'verify.signature.permits':
    '{allowed, select, true {This signature allows that.} other {This signature does not allow that.}}',
} as const;
