import { type HostMessage, type HostMessageType, hostMessage, parseHostMessage } from './protocol.ts';

/**
 * `<esign-form>`: a signer's signing page in a frame of the integrator's page (docs/embed.md).
 *
 * Attributes: `signing-url` (the signer's `signing_url`, required), `height` (a fixed CSS height;
 * without it the frame takes the height the signing page reports, up to `max-height`, default
 * `100vh`), `frame-title`, `service` (the service's origin; a `signing-url` elsewhere is refused),
 * `brand-header="off"` (the request's brand keeps its colours but not its logo and name: the host
 * page shows its own header; docs/branding.md).
 */

/** The events the element fires (bubbling, composed), each a CustomEvent carrying the page's message. */
export interface EsignFormEventMap {
  'esign:loaded': CustomEvent<HostMessage<'loaded'>>;
  'esign:field-completed': CustomEvent<HostMessage<'field-completed'>>;
  'esign:signed': CustomEvent<HostMessage<'signed'>>;
  /** @deprecated the first name of `esign:signed`, still fired right after it */
  'esign:completed': CustomEvent<HostMessage<'signed'>>;
  'esign:declined': CustomEvent<HostMessage<'declined'>>;
  'esign:error': CustomEvent<HostMessage<'error'>>;
  'esign:resize': CustomEvent<HostMessage<'resize'>>;
}

type Listener<K extends keyof EsignFormEventMap> = (
  this: EsignFormElement,
  ev: EsignFormEventMap[K],
) => unknown;

/** The element's type: an HTMLElement whose `addEventListener` knows the events' details. */
export interface EsignFormElement extends HTMLElement {
  /** the `signing-url` attribute */
  signingUrl: string | null;
  addEventListener<K extends keyof EsignFormEventMap>(
    type: K,
    listener: Listener<K>,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof EsignFormEventMap>(
    type: K,
    listener: Listener<K>,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'esign-form': EsignFormElement;
  }
}

export const TAG_NAME = 'esign-form';

/** Without a `loaded` message this long after the frame's `load`, the page was not shown. */
const LOAD_TIMEOUT_MS = 5000;
const MIN_HEIGHT_PX = 200;

export interface DefineOptions {
  /**
   * The service's origin (`https://sign.example.com`): signing URLs elsewhere are refused. The
   * script the service serves (/embed/esign-form.js) sets its own origin; without it, the element
   * takes the origin of each `signing-url` (or of its `service` attribute).
   */
  service?: string;
}

/** The signer's token and the service's origin of a signing URL (/s/{token} or /e/{token}), or null. */
export function parseSigningUrl(
  value: string | null,
  service?: string,
): { origin: string; token: string } | null {
  if (!value) return null;
  let url: URL;
  let serviceOrigin: string | null = null;
  try {
    url = new URL(value, service);
    if (service) serviceOrigin = new URL(service).origin;
  } catch {
    return null;
  }
  const m = /^\/[se]\/([\w-]{20,200})$/.exec(url.pathname);
  if (!m || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  if (serviceOrigin && url.origin !== serviceOrigin) return null;
  return { origin: url.origin, token: m[1]! };
}

/** The service's origin given to defineEsignForm (the served script's own), if any. */
let definedService: string | undefined;

/** Defines `<esign-form>` (once; later calls return the element already defined). */
export function defineEsignForm(options: DefineOptions = {}): CustomElementConstructor {
  const known = customElements.get(TAG_NAME);
  if (known) return known;
  definedService = options.service;
  customElements.define(TAG_NAME, EsignForm);
  return EsignForm;
}

/** HTMLElement in a browser; a stand-in elsewhere, so importing this module on a server works. */
const Base: typeof HTMLElement =
  typeof HTMLElement === 'undefined' ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

class EsignForm extends Base {
  static observedAttributes = ['signing-url', 'height', 'max-height', 'service'];
  private frame: HTMLIFrameElement | null = null;
  private origin = '';
  private loaded = false;
  /** between connectedCallback and disconnectedCallback */
  private started = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** the height the page last reported, kept for when a fixed `height` is removed */
  private reported: number | undefined;

  get signingUrl(): string | null {
    return this.getAttribute('signing-url');
  }
  set signingUrl(value: string | null) {
    if (value === null) this.removeAttribute('signing-url');
    else this.setAttribute('signing-url', value);
  }

  private readonly onMessage = (event: MessageEvent) => {
    if (!this.frame || event.origin !== this.origin || event.source !== this.frame.contentWindow) return;
    const message = parseHostMessage(event.data);
    if (!message) return;
    // Any message of the page (an `error` too) means it was shown: no `frame_refused` after it.
    this.loaded = true;
    clearTimeout(this.timer);
    if (message.type === 'resize') {
      this.reported = message.height;
      this.size();
    }
    this.emit(message.type, message);
    if (message.type === 'signed') this.emit('completed', message);
  };

  private emit(type: HostMessageType | 'completed', detail: HostMessage) {
    this.dispatchEvent(new CustomEvent(`esign:${type}`, { detail, bubbles: true, composed: true }));
  }

  private fail(code: string, message: string) {
    this.emit('error', hostMessage('error', { code, message }));
  }

  connectedCallback() {
    window.addEventListener('message', this.onMessage);
    this.started = true;
    this.render();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.onMessage);
    this.started = false;
    clearTimeout(this.timer);
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null) {
    if (!this.started || before === after) return;
    if (name === 'height' || name === 'max-height') this.size();
    else this.render();
  }

  /** A fixed `height`, or the height the page reported, within `max-height`. */
  private size() {
    if (!this.frame) return;
    const fixed = this.getAttribute('height');
    const style = this.frame.style;
    style.maxHeight = fixed ? '' : this.getAttribute('max-height') || '100vh';
    if (fixed) style.height = fixed;
    else if (this.reported !== undefined)
      style.height = `${Math.max(MIN_HEIGHT_PX, Math.ceil(this.reported))}px`;
  }

  private render() {
    clearTimeout(this.timer);
    this.loaded = false;
    this.reported = undefined;
    const service = definedService ?? (this.getAttribute('service') || undefined);
    const parsed = parseSigningUrl(this.getAttribute('signing-url'), service);
    if (!parsed) {
      this.frame = null;
      this.replaceChildren();
      return this.fail(
        'invalid_signing_url',
        `signing-url must be a signer's signing_url${service ? ` of ${service}` : ''}`,
      );
    }
    const frame = document.createElement('iframe');
    // brand-header="off" (issue 44): the host shows its own header; the page keeps the brand's colours.
    const header = this.getAttribute('brand-header') === 'off' ? '#brand=off' : '';
    frame.src = `${parsed.origin}/e/${parsed.token}${header}`;
    frame.title = this.getAttribute('frame-title') || 'Sign document';
    frame.setAttribute('allow', 'clipboard-write');
    frame.style.cssText = 'display:block;width:100%;border:0;height:80vh';
    // A frame refused by frame-ancestors still fires `load` (with the browser's error page): no
    // `loaded` message after it means the page cannot be shown on this origin.
    frame.addEventListener('load', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        if (this.loaded || this.frame !== frame) return;
        this.fail(
          'frame_refused',
          `The signing page could not be shown here: is ${location.origin} on the account's list of embedding origins?`,
        );
      }, LOAD_TIMEOUT_MS);
    });
    this.frame = frame;
    this.origin = parsed.origin;
    this.size();
    this.replaceChildren(frame);
  }
}
