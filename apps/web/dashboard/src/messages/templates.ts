/** Words of templates, the template editor, uploads, public signing links and embedding (pages/editor/, template-row, templates, template-filters, upload, upload-parts, upload-errors.ts, signing-link, embed-settings). */
export const templates = {
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

  // Names the editor gives to what it creates; they are saved into the template.
  'editor.default.name': 'Untitled template',
  'editor.default.role': 'Signer {number}',
  'editor.default.first_role': 'Signer',
  'editor.default.option': 'Option {number}',

} as const;
