// <esign-form>: embedded signing (docs/sending.md). Served by the service at /embed/esign-form.js;
// load it with a <script src> from the service's own address, then write
//   <esign-form signing-url="https://sign.example.com/s/TOKEN"></esign-form>
// for a signer of a request sent with `embed: true`. The element shows the signing page in a frame
// (allowed only on origins the account lists) and fires `esign:loaded`, `esign:completed`,
// `esign:declined` (event.detail: the message) and `esign:error` (the page could not be shown).
// A block, not a module: the element's names stay out of the host page's global scope.
{
  const script = document.currentScript;
  const SERVICE = new URL(script?.src ?? location.href).origin;
  const LOAD_TIMEOUT_MS = 5000;

  /** The signer's token from a signing URL of this service (/s/{token} or /e/{token}). */
  function tokenOf(value) {
    if (!value) return null;
    let url;
    try {
      url = new URL(value, SERVICE);
    } catch {
      return null;
    }
    const m = /^\/[se]\/([\w-]{20,200})$/.exec(url.pathname);
    return url.origin === SERVICE && m ? m[1] : null;
  }

  class EsignForm extends HTMLElement {
    static observedAttributes = ['signing-url'];

    constructor() {
      super();
      this.frame = null;
      this.loaded = false;
      this.timer = 0;
      this.onMessage = (event) => {
        if (event.origin !== SERVICE || !this.frame || event.source !== this.frame.contentWindow) return;
        const data = event.data;
        if (!data || data.source !== 'esign-form' || typeof data.type !== 'string') return;
        if (data.type === 'loaded') {
          this.loaded = true;
          clearTimeout(this.timer);
        }
        this.emit(data.type, data);
      };
    }

    emit(type, detail) {
      this.dispatchEvent(new CustomEvent(`esign:${type}`, { detail, bubbles: true, composed: true }));
    }

    connectedCallback() {
      window.addEventListener('message', this.onMessage);
      this.render();
    }

    disconnectedCallback() {
      window.removeEventListener('message', this.onMessage);
      clearTimeout(this.timer);
    }

    attributeChangedCallback() {
      if (this.isConnected) this.render();
    }

    render() {
      const token = tokenOf(this.getAttribute('signing-url'));
      clearTimeout(this.timer);
      this.loaded = false;
      if (!token) {
        this.frame = null;
        this.replaceChildren();
        this.emit('error', { message: `signing-url must be a signing link of ${SERVICE}` });
        return;
      }
      const frame = document.createElement('iframe');
      // brand-header="off": the embedding site shows its own header; the page keeps the colours.
      const header = this.getAttribute('brand-header') === 'off' ? '#brand=off' : '';
      frame.src = `${SERVICE}/e/${token}${header}`;
      frame.title = this.getAttribute('frame-title') || 'Sign document';
      frame.setAttribute('allow', 'clipboard-write');
      frame.style.cssText = `display:block;width:100%;border:0;height:${this.getAttribute('height') || '80vh'};min-height:480px`;
      // A frame refused by frame-ancestors still fires `load` (with an error page): no `loaded`
      // message after it means the page cannot be shown on this origin.
      frame.addEventListener('load', () => {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          if (!this.loaded)
            this.emit('error', {
              message: `The signing page could not be shown here: is ${location.origin} on the account's list of embedding origins?`,
            });
        }, LOAD_TIMEOUT_MS);
      });
      this.frame = frame;
      this.replaceChildren(frame);
    }
  }

  if (!customElements.get('esign-form')) customElements.define('esign-form', EsignForm);
}
