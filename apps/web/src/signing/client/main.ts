import './styles.css';
import { ApiError, trpc } from './api.ts';
import { announce, h, prefersReducedMotion } from './dom.ts';
import { editField, fieldLabel } from './editor.ts';
import { areaAspect, areaToPercent, compareAreas } from './geometry.ts';
import { modal } from './modal.ts';
import { codeErrorMessage, DECLINED, SIGNED, type StatusView, viewForError, viewForOpen } from './status.ts';
import type { Area, DocumentInfo, FieldValue, OpenResult, PageInfo, SigningField } from './types.ts';
import {
  describeValue,
  fromStored,
  IMAGE_TYPES,
  isFilled,
  isImageValue,
  missingRequired,
  nextRequired,
  orderFields,
  safeRedirect,
  TYPE_LABELS,
  valuesByName,
} from './values.ts';

const root = document.getElementById('app') as HTMLElement;
const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
const SESSION_KEY = `esign.signing-session.${token}`;

/** Codes after which this link cannot be used any more: the page shows why instead. */
const CLOSED = new Set([
  'not_found',
  'not_open',
  'signer_finished',
  'template_archived',
  'expired',
  'canceled',
]);
/** The email-code session is missing or has lapsed: show the code gate again. */
const NEEDS_CODE = new Set(['unauthenticated', 'forbidden']);

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
let session: string | undefined = storage()?.getItem(SESSION_KEY) ?? undefined;
const setSession = (s: string | undefined) => {
  session = s;
  if (s) storage()?.setItem(SESSION_KEY, s);
  else storage()?.removeItem(SESSION_KEY);
};
const withSession = <T extends object>(input: T): T & { session?: string } =>
  session ? { ...input, session } : input;

const errorCode = (e: unknown) => (e instanceof ApiError ? e.code : 'internal_error');
const errorMessage = (e: unknown) => (e instanceof ApiError ? e.message : 'Something went wrong.');
const retryAfter = (e: unknown) => (e instanceof ApiError ? e.retryAfterSeconds : null);

// ---------------------------------------------------------------------------------------------
// Whole-page states

function showStatus(view: StatusView): void {
  teardown();
  document.title = view.title;
  const heading = h('h1', { tabindex: -1 }, view.title);
  root.replaceChildren(
    h(
      'main',
      { id: 'main', class: 'status-page' },
      h(
        'div',
        { class: `card ${view.kind}` },
        h(
          'div',
          { class: 'icon', 'aria-hidden': 'true' },
          view.kind === 'done' ? '✓' : view.kind === 'info' ? 'i' : '!',
        ),
        heading,
        h('p', null, view.body),
        view.detail ? h('p', { class: 'detail' }, view.detail) : null,
        view.retry
          ? h('button', { type: 'button', class: 'btn primary', onclick: () => void start() }, 'Try again')
          : null,
      ),
    ),
  );
  heading.focus();
}

function showLoading(): void {
  root.replaceChildren(
    h(
      'main',
      { id: 'main', class: 'status-page' },
      h('p', { class: 'loading', role: 'status' }, 'Loading the document…'),
    ),
  );
}

async function start(): Promise<void> {
  showLoading();
  let open: OpenResult;
  try {
    open = await trpc<OpenResult>('query', 'signing.open', withSession({ token }));
  } catch (e) {
    if (NEEDS_CODE.has(errorCode(e)) && session) {
      setSession(undefined);
      return start();
    }
    return showStatus(viewForError(errorCode(e), errorMessage(e)));
  }
  const closed = viewForOpen(open);
  if (closed) return showStatus(closed);
  if (open.code_required) {
    setSession(undefined);
    return showCodeGate(open);
  }
  renderSigning(open);
}

// ---------------------------------------------------------------------------------------------
// Email code gate (require_email_otp)

function showCodeGate(open: OpenResult): void {
  document.title = 'Confirm your email address';
  const heading = h('h1', { tabindex: -1 }, 'Confirm your email address');
  const status = h('p', { class: 'note', role: 'status' });
  const sendError = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const input = h('input', {
    id: 'code',
    type: 'text',
    inputMode: 'numeric',
    autocomplete: 'one-time-code',
    maxLength: 12,
    spellcheck: false,
    'aria-describedby': 'code-hint',
  });
  const codeError = h('p', { id: 'code-error', class: 'form-error', hidden: true });
  const verifyBtn = h('button', { type: 'submit', class: 'btn primary' }, 'Verify');
  const setCodeError = (msg: string | null) => {
    codeError.textContent = msg ?? '';
    codeError.hidden = !msg;
    if (msg) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', 'code-hint code-error');
    } else {
      input.removeAttribute('aria-invalid');
      input.setAttribute('aria-describedby', 'code-hint');
    }
  };
  const form = h(
    'form',
    {
      class: 'code-form',
      hidden: true,
      novalidate: true,
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const code = input.value.replace(/\s+/g, '');
        if (code.length < 4) {
          setCodeError('Enter the code from the email.');
          input.focus();
          return;
        }
        verifyBtn.disabled = true;
        try {
          const res = await trpc<{ session: string }>('mutation', 'signing.verifyCode', { token, code });
          setSession(res.session);
          await start();
        } catch (err) {
          const c = errorCode(err);
          if (CLOSED.has(c)) return showStatus(viewForError(c, errorMessage(err)));
          setCodeError(codeErrorMessage('verify', c, errorMessage(err), retryAfter(err)));
          input.focus();
        } finally {
          verifyBtn.disabled = false;
        }
      },
    },
    h('label', { for: 'code' }, 'Code from the email'),
    h('p', { id: 'code-hint', class: 'hint' }, 'Check your inbox, and the spam folder if it is not there.'),
    input,
    codeError,
    h('div', { class: 'row' }, verifyBtn),
  );
  const sendBtn = h('button', { type: 'button', class: 'btn primary' }, 'Email me a code');
  const sendRow = h('div', { class: 'row' }, sendBtn);
  sendBtn.addEventListener('click', async () => {
    sendBtn.disabled = true;
    sendError.hidden = true;
    try {
      const res = await trpc<{ email: string; expires_at: string }>(
        'mutation',
        'signing.requestCode',
        withSession({ token }),
      );
      const until = new Date(res.expires_at);
      status.textContent = `We sent a code to ${res.email}.${
        Number.isNaN(until.getTime())
          ? ''
          : ` It expires at ${until.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.`
      }`;
      sendBtn.textContent = 'Send a new code';
      sendBtn.className = 'btn';
      form.hidden = false;
      // Entering the code is the main action now; asking again goes below it.
      form.after(sendRow);
      input.focus();
    } catch (err) {
      const c = errorCode(err);
      if (CLOSED.has(c)) return showStatus(viewForError(c, errorMessage(err)));
      sendError.textContent = codeErrorMessage('request', c, errorMessage(err), retryAfter(err));
      sendError.hidden = false;
    } finally {
      sendBtn.disabled = false;
    }
  });
  root.replaceChildren(
    h(
      'main',
      { id: 'main', class: 'status-page' },
      h(
        'div',
        { class: 'card' },
        heading,
        h(
          'p',
          null,
          `To open ${open.request.title ? `“${open.request.title}”` : 'this document'}, enter a one-time code that we email to ${
            open.signer.email ?? 'you'
          }.`,
        ),
        sendRow,
        sendError,
        status,
        form,
      ),
    ),
  );
  heading.focus();
}

// ---------------------------------------------------------------------------------------------
// Signing

interface Placed {
  field: SigningField;
  area: Area;
  index: number;
}

interface SigningState {
  open: OpenResult;
  fields: SigningField[];
  values: Map<string, FieldValue>;
  dirty: Set<string>;
  invalid: Set<string>;
  overlays: Map<string, HTMLElement[]>;
  pages: Map<string, PageInfo>;
  lastFieldId: string | null;
  saveTimer: number | undefined;
  saving: Promise<unknown> | null;
  done: boolean;
}

let st: SigningState | null = null;
const ui = {
  progress: h('span', { class: 'progress' }),
  saveStatus: h('span', { class: 'save-status' }),
  next: h('button', { type: 'button', class: 'btn' }, 'Next field'),
  finish: h('button', { type: 'button', class: 'btn primary' }, 'Finish'),
  decline: h('button', { type: 'button', class: 'btn ghost' }, 'Decline'),
  summary: h('div', { class: 'error-summary', tabindex: -1, hidden: true }),
};
ui.next.addEventListener('click', (e) => void goNext(e.detail === 0 ? 'keyboard' : 'pointer'));
ui.finish.addEventListener('click', () => void finish());
ui.decline.addEventListener('click', () => void decline());

function teardown(): void {
  if (st) {
    window.clearTimeout(st.saveTimer);
    st.done = true;
  }
  st = null;
  for (const d of document.querySelectorAll('dialog')) d.remove();
}

const pageKey = (doc: number, page: number) => `${doc}:${page}`;

function renderSigning(open: OpenResult): void {
  teardown();
  const fields = orderFields(open.fields);
  const state: SigningState = {
    open,
    fields,
    values: new Map(fields.map((f) => [f.id, fromStored(f, f.value)])),
    dirty: new Set(),
    invalid: new Set(),
    overlays: new Map(fields.map((f) => [f.id, []])),
    pages: new Map(),
    lastFieldId: null,
    saveTimer: undefined,
    saving: null,
    done: false,
  };
  st = state;
  for (const d of open.documents) for (const p of d.pages) state.pages.set(pageKey(d.index, p.number), p);

  const title = open.request.title || 'Document';
  document.title = `Sign: ${title}`;
  const who = open.signer.name || open.signer.email;
  const fillable = fields.filter((f) => !f.prefilled);
  const required = fillable.filter((f) => f.required).length;

  const header = h(
    'header',
    { class: 'bar' },
    h(
      'div',
      { class: 'bar-text' },
      h('h1', { id: 'doc-title' }, title),
      h(
        'p',
        { class: 'who' },
        who ? `Signing as ${who}${open.signer.role ? ` (${open.signer.role})` : ''}` : null,
        open.request.test_mode ? h('span', { class: 'badge' }, 'Test') : null,
      ),
    ),
    h(
      'div',
      { class: 'bar-actions' },
      h('p', { class: 'bar-status' }, ui.progress, ui.saveStatus),
      ui.decline,
      ui.next,
      ui.finish,
    ),
  );
  const message = open.request.message;
  const main = h(
    'main',
    { id: 'main', class: 'docs', 'aria-labelledby': 'doc-title' },
    message?.body
      ? h(
          'section',
          { class: 'message', 'aria-label': 'Message from the sender' },
          message.subject ? h('h2', null, message.subject) : null,
          h('p', null, message.body),
        )
      : null,
    h(
      'p',
      { class: 'intro' },
      fillable.length
        ? `Fill in the highlighted fields on the document${
            required ? `; the ${required} marked with * are required` : ''
          }. Next field takes you to each one in turn. Select Finish when you are done.`
        : 'Review the document, then select Finish to sign it.',
    ),
    ui.summary,
    open.documents.map((d) => renderDocument(state, d)),
  );
  const footer = h(
    'footer',
    { class: 'foot' },
    h(
      'p',
      null,
      'By selecting Finish you agree that your electronic signature and the values you entered are the legal equivalent of your handwritten signature on this document.',
    ),
  );
  ui.summary.hidden = true;
  ui.summary.replaceChildren();
  ui.finish.disabled = false;
  ui.finish.textContent = 'Finish';
  ui.saveStatus.textContent = '';
  root.replaceChildren(header, main, footer);
  main.addEventListener('focusin', (e) => {
    const id = (e.target as HTMLElement).dataset?.field;
    if (id) state.lastFieldId = id;
  });
  for (const f of fields) paintField(state, f);
  updateProgress(state);
  announce(
    `${title}. ${fillable.length} field${fillable.length === 1 ? '' : 's'} to fill in, ${required} required.`,
  );
}

function renderDocument(state: SigningState, doc: DocumentInfo): HTMLElement {
  const placed = new Map<number, Placed[]>();
  for (const field of state.fields) {
    field.areas.forEach((area, index) => {
      if (area.document !== doc.index) return;
      const list = placed.get(area.page) ?? [];
      list.push({ field, area, index });
      placed.set(area.page, list);
    });
  }
  const headingId = `doc-${doc.index}`;
  return h(
    'section',
    { class: 'doc', 'aria-labelledby': headingId },
    h('h2', { id: headingId, class: state.open.documents.length > 1 ? 'doc-name' : 'sr-only' }, doc.name),
    doc.pages.map((p, i) =>
      renderPage(
        doc,
        p,
        i,
        (placed.get(p.number) ?? []).sort((a, b) => compareAreas(a.area, b.area)),
        state,
      ),
    ),
  );
}

function renderPage(
  doc: DocumentInfo,
  page: PageInfo,
  i: number,
  placed: Placed[],
  state: SigningState,
): HTMLElement {
  const label = `${doc.name}, page ${page.number} of ${doc.pages.length}`;
  const img = h('img', {
    src: page.image_url,
    alt: label,
    loading: i < 2 ? 'eager' : 'lazy',
    decoding: 'async',
    draggable: false,
  });
  const el = h('div', { class: 'page', role: 'group', 'aria-label': label }, img);
  el.style.aspectRatio = `${page.width} / ${page.height}`;
  img.addEventListener('error', () => {
    el.classList.add('broken');
    el.append(
      h('p', { class: 'page-error' }, 'This page could not be loaded. Reload the page to try again.'),
    );
  });
  for (const p of placed) el.append(...renderOverlay(state, p));
  return el;
}

function renderOverlay(state: SigningState, { field, area, index }: Placed): HTMLElement[] {
  const box = areaToPercent(area);
  const first = index === 0;
  let el: HTMLElement;
  if (field.prefilled) {
    el = h('div', { class: 'field prefilled' });
  } else {
    el = h('button', {
      type: 'button',
      class: 'field',
      id: first ? `f-${field.id}` : null,
      'data-field': field.id,
      // Further areas of the same field show the same value; one tab stop per field.
      tabindex: first ? null : -1,
      'aria-hidden': first ? null : 'true',
      onclick: (e: MouseEvent) =>
        void activate(state, field, e.currentTarget as HTMLElement, e.detail === 0 ? 'keyboard' : 'pointer'),
    });
  }
  el.classList.add(`t-${field.type}`);
  Object.assign(el.style, box);
  state.overlays.get(field.id)?.push(el);
  const out = [el];
  if (first && !field.prefilled) {
    const tip = h('span', { id: `err-${field.id}`, class: 'field-tip', hidden: true }, 'Required');
    tip.style.left = box.left;
    tip.style.top = `calc(${box.top} + ${box.height})`;
    out.push(tip);
  }
  return out;
}

function paintField(state: SigningState, field: SigningField): void {
  const value = state.values.get(field.id) ?? null;
  const filled = isFilled(value);
  const invalid = state.invalid.has(field.id);
  const tip = document.getElementById(`err-${field.id}`);
  if (tip) tip.hidden = !invalid;
  for (const el of state.overlays.get(field.id) ?? []) {
    el.classList.toggle('filled', filled);
    el.classList.toggle('required', field.required);
    el.classList.toggle('invalid', invalid);
    el.replaceChildren(fieldContent(field, value));
    if (field.prefilled) {
      el.append(
        h(
          'span',
          { class: 'sr-only' },
          `${field.name}, filled in by the sender: ${describeValue(field, value)}`,
        ),
      );
      continue;
    }
    if (el.getAttribute('aria-hidden') === 'true') continue;
    if (field.type === 'checkbox') {
      el.setAttribute('role', 'checkbox');
      el.setAttribute('aria-checked', String(value === true));
      el.setAttribute('aria-label', `${field.name}${field.required ? ', required' : ''}`);
    } else {
      el.setAttribute('aria-label', `${fieldLabel(field)}: ${describeValue(field, value)}`);
    }
    if (invalid) {
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', `err-${field.id}`);
    } else {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
  }
}

function fieldContent(field: SigningField, value: FieldValue): Node {
  if (!isFilled(value)) {
    return h(
      'span',
      { class: 'ph', 'aria-hidden': 'true' },
      field.type === 'checkbox' ? '' : field.name,
      field.required ? h('b', null, '*') : null,
    );
  }
  if (IMAGE_TYPES.has(field.type) && isImageValue(value)) return h('img', { src: value, alt: '' });
  const text =
    field.type === 'checkbox'
      ? '✓'
      : field.type === 'file'
        ? `📎 ${(value as { name: string }).name}`
        : describeValue(field, value);
  return h('span', { class: field.type === 'cells' ? 'fv cells' : 'fv', 'aria-hidden': 'true' }, text);
}

function updateProgress(state: SigningState): void {
  const req = state.fields.filter((f) => f.required && !f.prefilled);
  const left = missingRequired(state.fields, state.values).length;
  ui.progress.textContent = req.length ? `${req.length - left} of ${req.length} required done` : '';
  const wasFocused = document.activeElement === ui.next;
  ui.next.hidden = left === 0;
  if (wasFocused && left === 0) ui.finish.focus();
  ui.finish.classList.toggle('ready', left === 0);
}

async function activate(
  state: SigningState,
  field: SigningField,
  opener: HTMLElement,
  via: 'pointer' | 'keyboard',
  guided = false,
): Promise<void> {
  state.lastFieldId = field.id;
  if (field.type === 'checkbox') {
    const checked = state.values.get(field.id) !== true;
    setValue(state, field, checked);
    announce(`${field.name} ${checked ? 'checked' : 'not checked'}.`);
    return;
  }
  const area = field.areas[0];
  const page = area ? state.pages.get(pageKey(area.document, area.page)) : undefined;
  const reuse =
    field.type === 'signature' || field.type === 'initials'
      ? (state.fields
          .filter((f) => f.type === field.type && f.id !== field.id)
          .map((f) => state.values.get(f.id))
          .find(isImageValue) ?? null)
      : null;
  const moreAfter = guided && nextRequired(state.fields, state.values, field.id)?.id !== field.id;
  const edited = await editField({
    field,
    value: state.values.get(field.id) ?? null,
    via,
    signerName: state.open.signer.name ?? '',
    aspect: area && page ? areaAspect(area, page) : 3,
    heightPt: area && page ? area.h * page.height : 20,
    reuse,
    submitLabel:
      moreAfter && missingRequired(state.fields, state.values).length > 1 ? 'Save and next' : 'Save',
  });
  if (state.done) return;
  opener.focus({ preventScroll: true });
  if (!edited) return;
  setValue(state, field, edited.value);
  const left = missingRequired(state.fields, state.values).length;
  announce(
    `${field.name} ${isFilled(edited.value) ? 'saved' : 'cleared'}. ${
      left ? `${left} required field${left === 1 ? '' : 's'} left.` : 'All required fields are filled in.'
    }`,
  );
  if (guided && left) await goNext(via);
}

function setValue(state: SigningState, field: SigningField, value: FieldValue): void {
  state.values.set(field.id, value);
  state.dirty.add(field.id);
  if (isFilled(value)) state.invalid.delete(field.id);
  paintField(state, field);
  updateProgress(state);
  if (!state.invalid.size) hideSummary();
  else if (!ui.summary.hidden) showSummary(state, false);
  scheduleSave(state);
}

async function goNext(via: 'pointer' | 'keyboard'): Promise<void> {
  const state = st;
  if (!state) return;
  const field = nextRequired(state.fields, state.values, state.lastFieldId);
  if (!field) {
    announce('All required fields are filled in. Select Finish to sign.');
    ui.finish.focus();
    return;
  }
  const el = state.overlays.get(field.id)?.[0];
  if (!el) return;
  el.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  el.focus({ preventScroll: true });
  state.lastFieldId = field.id;
  if (field.type === 'checkbox') {
    announce(`${field.name}: checkbox. Press Space to check it.`);
    return;
  }
  await activate(state, field, el, via, true);
}

// ---------------------------------------------------------------------------------------------
// Saving, finishing, declining

function scheduleSave(state: SigningState): void {
  window.clearTimeout(state.saveTimer);
  ui.saveStatus.textContent = 'Unsaved changes';
  state.saveTimer = window.setTimeout(() => void saveNow(state), 800);
}

async function saveNow(state: SigningState, keepalive = false): Promise<boolean> {
  window.clearTimeout(state.saveTimer);
  while (state.saving) await state.saving.catch(() => {});
  if (state.done || !state.dirty.size) return true;
  const batch = new Set(state.dirty);
  state.dirty.clear();
  ui.saveStatus.textContent = 'Saving…';
  const call = trpc(
    'mutation',
    'signing.saveValues',
    withSession({ token, values: valuesByName(state.fields, state.values, batch) }),
    {
      keepalive,
    },
  );
  state.saving = call;
  try {
    await call;
    if (!state.dirty.size) ui.saveStatus.textContent = 'All changes saved';
    return true;
  } catch (e) {
    for (const id of batch) if (!state.dirty.has(id)) state.dirty.add(id);
    const code = errorCode(e);
    if (state.done) return false;
    if (CLOSED.has(code)) showStatus(viewForError(code, errorMessage(e)));
    else if (NEEDS_CODE.has(code)) void start();
    else if (code === 'network' || code === 'internal_error' || code === 'rate_limited') {
      ui.saveStatus.textContent = 'Not saved yet, retrying…';
      state.saveTimer = window.setTimeout(() => void saveNow(state), 5000);
    } else {
      ui.saveStatus.textContent = 'Not saved';
      showProblem(`Your last change could not be saved: ${errorMessage(e)}`);
    }
    return false;
  } finally {
    state.saving = null;
  }
}

function hideSummary(): void {
  ui.summary.hidden = true;
  ui.summary.replaceChildren();
  ui.summary.removeAttribute('role');
}

/** The error summary above the document: one link per problem, each moving focus to the field. */
function showSummary(state: SigningState, focus: boolean): void {
  const missing = state.fields.filter((f) => state.invalid.has(f.id));
  ui.summary.replaceChildren(
    h(
      'h2',
      null,
      missing.length === 1 ? 'One required field is empty' : `${missing.length} required fields are empty`,
    ),
    h(
      'ul',
      null,
      missing.map((f) =>
        h(
          'li',
          null,
          h(
            'a',
            {
              href: `#f-${f.id}`,
              onclick: (e: Event) => {
                e.preventDefault();
                const el = state.overlays.get(f.id)?.[0];
                el?.scrollIntoView({ block: 'center' });
                el?.focus({ preventScroll: true });
              },
            },
            `${f.name} (${TYPE_LABELS[f.type]})`,
          ),
        ),
      ),
    ),
  );
  ui.summary.hidden = false;
  if (focus) {
    ui.summary.setAttribute('role', 'alert');
    ui.summary.scrollIntoView({ block: 'start' });
    ui.summary.focus({ preventScroll: true });
  }
}

function showProblem(text: string): void {
  ui.summary.replaceChildren(h('h2', null, 'There is a problem'), h('p', null, text));
  ui.summary.hidden = false;
  ui.summary.setAttribute('role', 'alert');
  ui.summary.scrollIntoView({ block: 'start' });
  ui.summary.focus({ preventScroll: true });
}

async function finish(): Promise<void> {
  const state = st;
  if (!state || ui.finish.disabled) return;
  const missing = missingRequired(state.fields, state.values);
  state.invalid = new Set(missing.map((f) => f.id));
  for (const f of state.fields) paintField(state, f);
  if (missing.length) {
    showSummary(state, true);
    return;
  }
  hideSummary();
  ui.finish.disabled = true;
  ui.finish.textContent = 'Signing…';
  announce('Signing the document…');
  window.clearTimeout(state.saveTimer);
  while (state.saving) await state.saving.catch(() => {});
  try {
    // Saved progress is merged on the server, so only what autosave has not sent yet goes along
    // (a 10 MB attachment is not uploaded twice).
    const res = await trpc<{ redirect_url: string | null }>(
      'mutation',
      'signing.complete',
      withSession({ token, values: valuesByName(state.fields, state.values, state.dirty) }),
    );
    state.dirty.clear();
    state.done = true;
    setSession(undefined);
    const to = safeRedirect(res.redirect_url ?? state.open.redirect_url);
    if (to) {
      showStatus({ ...SIGNED, body: 'Thank you. Taking you back now…' });
      window.location.assign(to);
      return;
    }
    showStatus(SIGNED);
  } catch (e) {
    ui.finish.disabled = false;
    ui.finish.textContent = 'Finish';
    const code = errorCode(e);
    if (CLOSED.has(code)) return showStatus(viewForError(code, errorMessage(e)));
    if (NEEDS_CODE.has(code)) return void start();
    showProblem(
      code === 'network'
        ? 'The document could not be signed because the server could not be reached. Check your connection and select Finish again.'
        : `The document could not be signed: ${errorMessage(e)}`,
    );
  }
}

async function decline(): Promise<void> {
  const state = st;
  if (!state) return;
  let outcome: StatusView | null = null;
  const reason = h('textarea', {
    id: 'decline-reason',
    rows: 4,
    maxLength: 2000,
    'aria-describedby': 'decline-hint',
  });
  const dialog = modal({
    title: 'Decline to sign',
    description:
      'The sender will be told that you declined, with your reason. You cannot sign this document afterwards.',
    content: [
      h('label', { for: 'decline-reason' }, 'Reason for declining (required)'),
      h('p', { id: 'decline-hint', class: 'hint' }, 'For example: the details in the document are wrong.'),
      reason,
    ],
    submitLabel: 'Decline',
    danger: true,
    initialFocus: () => reason,
    async submit() {
      const text = reason.value.trim();
      if (!text) return { error: 'Enter a reason for declining.', input: reason };
      try {
        await trpc('mutation', 'signing.decline', withSession({ token, reason: text }));
        outcome = DECLINED;
        return null;
      } catch (e) {
        const code = errorCode(e);
        if (CLOSED.has(code)) {
          outcome = viewForError(code, errorMessage(e));
          return null;
        }
        return { error: `Could not decline: ${errorMessage(e)}`, input: reason };
      }
    },
  });
  await dialog.result;
  if (outcome) {
    state.done = true;
    setSession(undefined);
    showStatus(outcome);
  } else ui.decline.focus();
}

// Unsaved progress goes out when the page is hidden (tab switch, phone lock, navigation).
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden' && st?.dirty.size) void saveNow(st, true);
});

void start();
