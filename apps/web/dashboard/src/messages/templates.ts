/** Words of templates, the template editor, uploads, public signing links and embedding (pages/editor/, template-row, templates, template-filters, upload, upload-parts, upload-errors.ts, signing-link, embed-settings). */
export const templates = {
  // The Templates page (templates.tsx, template-filters.tsx)
  'templates.title': 'Templates',
  'templates.intro':
    'Reusable documents with fields for each signer role. Text tags such as <code>{tag}</code> in a PDF become fields automatically.',
  'templates.search.label': 'Search templates by name',
  'templates.search.placeholder': 'Search by name',
  'templates.filter.folder': 'Folder',
  'templates.filter.all_folders': 'All folders',
  'templates.filter.archived_only': 'Archived only',
  'templates.no_match.title': 'No templates match',
  'templates.no_match.body': 'Try another name or folder.',
  'templates.empty.title': 'No templates yet',
  'templates.empty.can_write': 'Drop a PDF above to create your first template; then send it for signature.',
  'templates.empty.read_only': 'When your team uploads templates, they appear here.',
  'templates.list': 'Templates',
  'templates.duplicated': 'Created “{name}”',
  'templates.archived': 'Archived “{name}”: it can no longer be sent',

  // One template in the list (template-row.tsx)
  'templates.row.archived': 'archived',
  'templates.row.counts':
    '{pages, plural, one {# page} other {# pages}}{documents, plural, =0 {} =1 {} other { in # documents}} · {fields, plural, one {# field} other {# fields}}',
  'templates.row.details': 'Roles: {roles} · created {date}',
  'templates.row.details_by': 'Roles: {roles} · created {date} by {person}',
  'templates.row.no_roles': 'none yet',
  'templates.row.send': 'Send',
  'templates.row.bulk_send': 'Bulk send',
  'templates.row.bulk_send_label': 'Bulk send {name}',
  'templates.row.public_link': 'Public link',
  'templates.row.public_link_label': 'Public link of {name}',
  'templates.row.edit_fields': 'Edit fields',
  'templates.row.duplicate': 'Duplicate',
  'templates.row.duplicate_label': 'Duplicate {name}',
  'templates.row.archive': 'Archive',
  'templates.row.archive_label': 'Archive {name}',
  'templates.row.archive_title': 'Archive “{name}”?',
  'templates.row.archive_body':
    'It can no longer be sent, and signing links of its unfinished requests stop working. There is no undo.',

  // The New template card (upload.tsx, upload-parts.tsx, upload-errors.ts)
  'upload.title': 'New template',
  'upload.drop': 'Drop PDF or image files here',
  'upload.drop_hint': 'or press to choose files (up to 25 MB per upload)',
  'upload.file_size': '({size} MB)',
  'upload.too_big':
    'These files add up to {size} MB; upload at most 25 MB at a time here (the API takes up to 10 documents of 25 MB each).',
  'upload.name': 'Template name (optional)',
  'upload.folder': 'Folder (optional)',
  'upload.progress': 'Uploading',
  'upload.clear': 'Clear',
  'upload.submit': 'Upload',
  'upload.read_failed': 'Could not read {file}',
  'upload.failed': 'The upload failed.',
  /** An error of the API about one document, named by the file the person chose. */
  'upload.file_error': '{file}: {error}',
  'upload.created': 'Template “{name}” created',
  'upload.done_no_fields':
    '“{name}” is ready, but has no fields yet: <link>place fields in the editor</link>',
  'upload.done': '“{name}” is ready. <link>Send it for signature</link>',

  // The template editor: opening it (editor-page.tsx)
  'editor.back_link': '← Templates',
  'editor.viewer.title': 'You can look, not edit',
  'editor.viewer.body':
    'Your role (viewer) cannot change templates. Ask an admin of the account for the member role.',
  'editor.not_found': 'There is no template at this address.',
  'editor.opening': 'Opening the template…',
  'editor.open_failed': 'The template could not be opened',

  // The editor's top bar (toolbar.tsx, preview.tsx)
  'editor.back': 'Back to templates',
  'editor.name': 'Template name',
  'editor.history': 'History',
  'editor.undo': 'Undo',
  'editor.undo_title': 'Undo (Ctrl+Z)',
  'editor.redo': 'Redo',
  'editor.redo_title': 'Redo (Ctrl+Shift+Z)',
  'editor.zoom': 'Zoom',
  'editor.zoom_out': 'Zoom out',
  'editor.zoom_in': 'Zoom in',
  'editor.save.saved': 'All changes saved',
  'editor.save.pending': 'Unsaved changes…',
  'editor.save.saving': 'Saving…',
  'editor.save.error': 'Not saved',
  'editor.save.error_reason': 'Not saved: {error}',
  'editor.save.conflict': 'Not saved: edited elsewhere',
  'editor.preview': 'Preview',
  'editor.preview.role': 'Preview as role',
  'editor.preview.save_first': 'Save your changes first: the preview shows the template as saved.',
  /** {when} is a date and time, or editor.conflict.just_now. */
  'editor.conflict':
    '<strong>Someone else saved this template</strong> ({when}) while you were editing. Your latest changes are not saved.',
  'editor.conflict.just_now': 'just now',
  'editor.conflict.load_theirs': 'Load their version',
  'editor.conflict.keep_mine': 'Keep mine (replace theirs)',

  // The palette of field types (panels.tsx, model.ts)
  'editor.palette.title': 'Fields',
  'editor.palette.hint': 'Drag a type onto a page, or pick it and click or draw on a page. Enter places it.',
  'editor.type.text': 'Text',
  'editor.type.signature': 'Signature',
  'editor.type.initials': 'Initials',
  'editor.type.date': 'Date',
  'editor.type.checkbox': 'Checkbox',
  'editor.type.number': 'Number',
  'editor.type.phone': 'Phone',
  'editor.type.select': 'Select',
  'editor.type.radio': 'Radio',
  'editor.type.multiple': 'Multiple select',
  'editor.type.image': 'Image',
  'editor.type.file': 'File',
  'editor.type.stamp': 'Stamp',
  'editor.type.cells': 'Cells',

  // Roles and documents (panels.tsx)
  'editor.roles.title': 'Roles',
  'editor.roles.hint': 'Signing order, top first. New fields go to the selected role.',
  'editor.roles.place_for': 'Place fields for {role}',
  'editor.roles.name': 'Role {number} name',
  'editor.roles.name_taken': 'Another role has this name',
  'editor.roles.add': 'Add role',
  'editor.roles.kind': 'Part of {role}',
  'editor.roles.kind.signer': 'Signs',
  'editor.roles.kind.approver': 'Approves (no fields)',
  'editor.roles.kind.viewer': 'Reads (no fields)',
  'editor.roles.max': 'A template has at most {max, plural, one {# role} other {# roles}}.',
  'editor.move_up': 'Move {name} up',
  'editor.move_down': 'Move {name} down',
  'editor.docs.title': 'Documents',
  /** The number of pages of a document, abbreviated. */
  'editor.docs.pages': '({count} p.)',
  'editor.docs.remove': 'Remove {name}',
  'editor.docs.add': 'Add document',
  'editor.docs.adding': 'Adding…',
  'editor.docs.added': 'Added “{name}”',
  'editor.docs.conflict':
    'Someone else changed this template. Reload the page to see their version, then add the document.',
  'editor.docs.read_failed': 'The file could not be read.',
  /** A document whose name is not known yet. */
  'editor.docs.unnamed': 'Document',

  // The pages (workspace.tsx, use-workspace.ts, field-box.tsx)
  'editor.pages': 'Pages',
  'editor.page': '{document}, page {page} of {pages}',
  /** A placed field, read by screen readers: its name, type (in lower case) and role. */
  'editor.field.label': '{name}, {type} for {role}{required, select, yes {, required} other {}}',
  'editor.select_hint': 'Select a field to set its name, role, options and whether it is required.',

  // The selected field's properties (properties.tsx)
  'editor.field.title': 'Field',
  'editor.field.done': 'Done',
  /** x, y and the size are percentages of the page. */
  'editor.field.position':
    '{places, plural, =1 {} other {On # places. }}This one: page {page}, x {x}, y {y}, {w} × {h}.',
  'editor.field.also_place': 'Also place on',
  'editor.field.choose_page': 'Choose a page…',
  'editor.field.duplicate': 'Duplicate',
  'editor.field.delete_place': 'Delete this place',
  'editor.field.delete': 'Delete field',
  'editor.field.keys':
    'Keys: arrows move, Alt+arrows resize, Shift for bigger steps, Delete removes, Ctrl+D duplicates.',
  'editor.field.name': 'Name',
  'editor.field.type': 'Type',
  'editor.field.role': 'Role',
  'editor.field.required': 'Required',
  'editor.field.options': 'Options (one per line)',
  'editor.field.options_missing': 'Add at least one option.',

  // Issue 46: the rule builder of a field's form logic (logic-settings.tsx)
  'editor.logic.title': 'Form logic',
  'editor.logic.show': 'Show this field',
  'editor.logic.show_always': 'Always',
  'editor.logic.show_all': 'When all of these are true',
  'editor.logic.show_any': 'When any of these is true',
  'editor.logic.rule_field': 'Field',
  'editor.logic.rule_op': 'Condition',
  'editor.logic.rule_value': 'Value',
  'editor.logic.add_rule': 'Add condition',
  'editor.logic.remove_rule': 'Remove condition',
  'editor.logic.op.equals': 'is',
  'editor.logic.op.not_equals': 'is not',
  'editor.logic.op.is_empty': 'is empty',
  'editor.logic.op.is_not_empty': 'is filled in',
  'editor.logic.op.contains': 'contains',
  'editor.logic.op.gt': 'is more than',
  'editor.logic.op.lt': 'is less than',
  'editor.logic.formula': 'Formula (computed, the signer cannot change it)',
  'editor.logic.formula_hint': 'Write field names in braces: {example}',
  'editor.logic.formula_ok': 'The formula is valid.',
  'editor.logic.formula_error': 'Not valid: {reason}',
  'editor.logic.preset': 'Check the answer',
  'editor.logic.preset_none': 'No check',
  'editor.logic.preset.email': 'Email address',
  'editor.logic.preset.phone': 'Phone number',
  'editor.logic.preset.iban': 'IBAN (bank account)',
  'editor.logic.preset.postcode': 'Postcode',

  // Names the editor gives to what it creates; they are saved into the template.
  'editor.default.name': 'Untitled template',
  'editor.default.role': 'Signer {number}',
  'editor.default.first_role': 'Signer',
  'editor.default.option': 'Option {number}',

  // A template's public signing link (signing-link.tsx)
  'link.title': 'Public link: {name}',
  /** {source} is the value of a request's source field. */
  'link.intro':
    'Anyone with the link enters their name and email, confirms the email with a code, and signs their own copy. Each signature is a request of yours (source <code>{source}</code>) and uses credits as usual.',
  'link.back': 'Back to templates',
  'link.status.on': 'The link is on',
  'link.status.off': 'The link is off',
  'link.copy': 'Copy link',
  'link.status.off_hint': 'Visitors who open the link are told it is turned off.',
  'link.uses': '{uses} signed through it.',
  'link.uses_capped': '{uses} signed through it of at most {max}.',
  'link.saved_on': 'The public link is on',
  'link.saved_off': 'The public link is off',
  'link.settings': 'Settings',
  'link.save': 'Save',
  'link.enabled': 'Turn the public link on',
  'link.role': 'Visitors sign as',
  'link.cap': 'Most signatures through the link (optional)',
  'link.cap_hint': 'At the cap the link says it is no longer available. Leave empty for no cap.',
  'link.preset.legend': '{role}: the same person on every copy',
  'link.preset.name': '{role} name',
  'link.preset.email': '{role} email',

  // Embedded signing (embed-settings.tsx); the values in <code> are code and stay as they are.
  'embed.title': 'Embedded signing',
  'embed.intro':
    "Let people sign inside your own site. Send a request with <code>{option}</code>, then show its signer's <code>{field}</code> with the <code>{element}</code> element.",
  'embed.snippet.title': 'On your page',
  'embed.snippet.events':
    'The element fires <code>{loaded}</code>, <code>{fieldCompleted}</code>, <code>{signed}</code>, <code>{declined}</code> and <code>{error}</code>, and takes the height of the signing page.',
  'embed.origins.read_only': 'Allowed origins: {origins}',
  'embed.origins.none': 'none',
  'embed.origins.title': 'Allowed origins',
  'embed.origins.label': 'One origin per line',
  'embed.origins.hint':
    'For example {example}. Other sites cannot show your signing pages; requests not sent for embedding are never shown in a frame.',
  'embed.origins.save': 'Save',
  'embed.origins.saved': 'Allowed origins saved',
} as const;
